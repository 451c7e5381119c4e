// One company setting counted in whole hours, saved with its own button: the Reminders card
// (docs/decisions/22-messaging.md) and the Customer changes card (docs/decisions/23-self-service.md)
// are both this card with their own field, bounds and words.
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { useUpdateCompany, type Company } from '../../../data/companies.ts';

/** The company fields this card edits. */
export type HoursSetting = 'reminder_hours_before' | 'cancellation_notice_hours';

/** The whole hours typed, from min to max, or the message that says what is wrong with them. */
export function parseWholeHours(value: string, min: number, max: number): { hours: number } | { error: string } {
  const text = value.trim();
  const hours = Number(text);
  if (!/^\d+$/.test(text) || hours < min || hours > max)
    return { error: `Enter a whole number of hours from ${min} to ${max} (one week).` };
  return { hours };
}

export function HoursSettingCard(props: {
  company: Company;
  field: HoursSetting;
  title: string;
  label: string;
  min: number;
  max: number;
  hint: string;
  /** What failed, in "Failed to save <what>: ...". */
  what: string;
  savedText: string;
  saveLabel: string;
}) {
  const { company, field, min, max } = props;
  const id = useId();
  const [value, setValue] = useState(String(company[field]));
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const mutation = useUpdateCompany(company.id);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const parsed = parseWholeHours(value, min, max);
    if ('error' in parsed) return setProblem(parsed.error);
    setProblem(null);
    mutation.mutate(
      { [field]: parsed.hours },
      {
        onSuccess: (c) => {
          setValue(String(c[field]));
          setSaved(true);
        },
        onError: (err) => setProblem(`Failed to save ${props.what}: ${errorMessage(err)}`),
      },
    );
  };

  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{props.title}</h2>
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label={props.label}
          id={`${id}-hours`}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          value={value}
          error={problem}
          hint={props.hint}
          onValueChange={(v) => {
            setValue(v);
            setSaved(false);
            setProblem(null);
          }}
        />
        {saved && <Alert tone="success">{props.savedText}</Alert>}
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving...' : props.saveLabel}
        </button>
      </form>
    </section>
  );
}
