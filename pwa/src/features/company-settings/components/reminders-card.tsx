// Reminders (docs/decisions/22-messaging.md): how many hours before an appointment its customer gets
// the reminder email (and the text message, where they agreed to one). Saved with its own button; a
// change re-times the reminders already waiting on the server.
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { useUpdateCompany, type Company } from '../../../data/companies.ts';

export const REMINDER_HOURS_LABEL = 'Hours before the appointment';
export const MIN_REMINDER_HOURS = 1;
export const MAX_REMINDER_HOURS = 168;

/** The hours typed, or the message that says what is wrong with them. */
export function parseReminderHours(value: string): { hours: number } | { error: string } {
  const text = value.trim();
  const hours = Number(text);
  if (!/^\d+$/.test(text) || hours < MIN_REMINDER_HOURS || hours > MAX_REMINDER_HOURS)
    return { error: `Enter a whole number of hours from ${MIN_REMINDER_HOURS} to ${MAX_REMINDER_HOURS} (one week).` };
  return { hours };
}

export function RemindersCard({ company }: { company: Company }) {
  const id = useId();
  const [value, setValue] = useState(String(company.reminder_hours_before));
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const mutation = useUpdateCompany(company.id);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const parsed = parseReminderHours(value);
    if ('error' in parsed) return setProblem(parsed.error);
    setProblem(null);
    mutation.mutate(
      { reminder_hours_before: parsed.hours },
      {
        onSuccess: (c) => {
          setValue(String(c.reminder_hours_before));
          setSaved(true);
        },
        onError: (err) => setProblem(`Failed to save the reminder time: ${errorMessage(err)}`),
      },
    );
  };

  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Reminders</h2>
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label={REMINDER_HOURS_LABEL}
          id={`${id}-hours`}
          type="number"
          inputMode="numeric"
          min={MIN_REMINDER_HOURS}
          max={MAX_REMINDER_HOURS}
          step={1}
          value={value}
          error={problem}
          hint={`Customers get a reminder email this long before their appointment, and a text message too if they agreed to one. Bookings made later than that get none. ${MIN_REMINDER_HOURS} to ${MAX_REMINDER_HOURS} hours.`}
          onValueChange={(v) => {
            setValue(v);
            setSaved(false);
            setProblem(null);
          }}
        />
        {saved && <Alert tone="success">Reminder time saved.</Alert>}
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving...' : 'Save Reminders'}
        </button>
      </form>
    </section>
  );
}
