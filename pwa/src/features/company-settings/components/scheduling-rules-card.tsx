// Minimum notice and booking window (docs/decisions/11-scheduling-rules-beyond-spec.md): how long before a
// time customers must book it (0 to 10,080 minutes, one week) and how many days ahead they may book
// (1 to 365, 30 by default). They bind public and customer bookings only; staff book freely.
// Saved together with their own button.
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { useUpdateCompany, type Company } from '../../../data/companies.ts';

export const NOTICE_LIMITS = { min: 0, max: 10080 } as const;
export const WINDOW_LIMITS = { min: 1, max: 365 } as const;

export const RULES_TEXT = {
  notice: `Enter a whole number of minutes from ${NOTICE_LIMITS.min} to ${NOTICE_LIMITS.max} (one week).`,
  window: `Enter a whole number of days from ${WINDOW_LIMITS.min} to ${WINDOW_LIMITS.max}.`,
  saved: 'Booking rules saved.',
} as const;

/** A whole number from min to max, or null. */
export function wholeIn(value: string, min: number, max: number): number | null {
  const text = value.trim();
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

export function SchedulingRulesCard({ company }: { company: Company }) {
  const id = useId();
  const [notice, setNotice] = useState(String(company.min_notice_minutes ?? 0));
  const [windowDays, setWindowDays] = useState(String(company.booking_window_days ?? 30));
  const [errors, setErrors] = useState<{ notice?: string; window?: string }>({});
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const mutation = useUpdateCompany(company.id);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setStatus(null);
    const minutes = wholeIn(notice, NOTICE_LIMITS.min, NOTICE_LIMITS.max);
    const days = wholeIn(windowDays, WINDOW_LIMITS.min, WINDOW_LIMITS.max);
    const next = { notice: minutes === null ? RULES_TEXT.notice : undefined, window: days === null ? RULES_TEXT.window : undefined };
    setErrors(next);
    if (minutes === null || days === null) return;
    mutation.mutate(
      { min_notice_minutes: minutes, booking_window_days: days },
      {
        onSuccess: (c) => {
          setNotice(String(c.min_notice_minutes));
          setWindowDays(String(c.booking_window_days));
          setStatus({ tone: 'success', text: RULES_TEXT.saved });
        },
        onError: (err) => setStatus({ tone: 'error', text: `Failed to save the booking rules: ${errorMessage(err)}` }),
      },
    );
  };

  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Notice and booking window</h2>
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label="Minimum notice (minutes)"
          id={`${id}-notice`}
          type="number"
          inputMode="numeric"
          min={NOTICE_LIMITS.min}
          max={NOTICE_LIMITS.max}
          step={1}
          value={notice}
          error={errors.notice}
          hint="Customers cannot book a time that starts sooner than this (120 is two hours; 0: up to the start). Your team can always book."
          onValueChange={(v) => {
            setNotice(v);
            setStatus(null);
            setErrors((x) => ({ ...x, notice: undefined }));
          }}
        />
        <TextField
          label="Booking window (days)"
          id={`${id}-window`}
          type="number"
          inputMode="numeric"
          min={WINDOW_LIMITS.min}
          max={WINDOW_LIMITS.max}
          step={1}
          value={windowDays}
          error={errors.window}
          hint={`How many days ahead customers can book, ${WINDOW_LIMITS.min} to ${WINDOW_LIMITS.max}.`}
          onValueChange={(v) => {
            setWindowDays(v);
            setStatus(null);
            setErrors((x) => ({ ...x, window: undefined }));
          }}
        />
        {status && <Alert tone={status.tone}>{status.text}</Alert>}
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving...' : 'Save Booking Rules'}
        </button>
      </form>
    </section>
  );
}
