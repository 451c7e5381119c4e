// Customer self-service (docs/decisions/23-self-service.md): how many hours before an appointment
// its customer may still cancel or move it through the link in their emails. Staff are never bound
// by it. Saved with its own button.
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { useUpdateCompany, type Company } from '../../../data/companies.ts';

export const NOTICE_HOURS_LABEL = 'Cancellation notice (hours)';
export const MAX_NOTICE_HOURS = 168;

/** The hours typed, or the message that says what is wrong with them. */
export function parseNoticeHours(value: string): { hours: number } | { error: string } {
  const text = value.trim();
  const hours = Number(text);
  if (!/^\d+$/.test(text) || hours > MAX_NOTICE_HOURS)
    return { error: `Enter a whole number of hours from 0 to ${MAX_NOTICE_HOURS} (one week).` };
  return { hours };
}

export function SelfServiceCard({ company }: { company: Company }) {
  const id = useId();
  const [value, setValue] = useState(String(company.cancellation_notice_hours));
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const mutation = useUpdateCompany(company.id);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const parsed = parseNoticeHours(value);
    if ('error' in parsed) return setProblem(parsed.error);
    setProblem(null);
    mutation.mutate(
      { cancellation_notice_hours: parsed.hours },
      {
        onSuccess: (c) => {
          setValue(String(c.cancellation_notice_hours));
          setSaved(true);
        },
        onError: (err) => setProblem(`Failed to save the cancellation notice: ${errorMessage(err)}`),
      },
    );
  };

  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Customer changes</h2>
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label={NOTICE_HOURS_LABEL}
          id={`${id}-hours`}
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_NOTICE_HOURS}
          step={1}
          value={value}
          error={problem}
          hint={`Customers can cancel or move an appointment themselves with the link in their emails until this many hours before it starts (0: until it starts). Your team can always change it. 0 to ${MAX_NOTICE_HOURS} hours.`}
          onValueChange={(v) => {
            setValue(v);
            setSaved(false);
            setProblem(null);
          }}
        />
        {saved && <Alert tone="success">Cancellation notice saved.</Alert>}
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving...' : 'Save Cancellation Notice'}
        </button>
      </form>
    </section>
  );
}
