// What a refused appointment write means to the user, and what they can do about it
// (docs/decisions/02-api-conventions.md and 05-scheduling-rules.md: 409 slot taken, 412 changed elsewhere, 404 deleted elsewhere).
import { isApiError, messageFor } from '../../lib/api-errors.ts';
import type { Appointment } from '../../data/appointments.ts';

export const SLOT_TAKEN_TEXT = 'This time is no longer available. Please choose another time.';
export const CHANGED_TEXT = 'Someone else changed this appointment while you were editing it.';
export const GONE_TEXT = 'This appointment no longer exists: it was deleted elsewhere.';
export const IN_PROGRESS_TEXT = 'Your previous attempt is still being processed. Please wait a moment and try again.';

export type WriteProblem =
  | { kind: 'slot_taken'; message: string }
  | { kind: 'changed'; message: string; current: Appointment | null }
  | { kind: 'gone'; message: string }
  | { kind: 'other'; message: string; retryable: boolean };

function looksLikeAppointment(v: unknown): v is Appointment {
  return !!v && typeof v === 'object' && typeof (v as Appointment).id === 'number' && typeof (v as Appointment).start_time === 'string';
}

/** `fallback` is docs/product/08-errors.md's 'Failed to save appointment' or 'Failed to delete appointment'. */
export function describeWriteError(err: unknown, fallback: string): WriteProblem {
  if (isApiError(err) && err.status === 412) {
    const current = looksLikeAppointment(err.body?.current) ? err.body.current : null;
    return { kind: 'changed', message: CHANGED_TEXT, current };
  }
  if (isApiError(err) && err.status === 409) {
    if (err.code === 'idempotency_in_progress') return { kind: 'other', message: IN_PROGRESS_TEXT, retryable: true };
    return { kind: 'slot_taken', message: SLOT_TAKEN_TEXT };
  }
  if (isApiError(err) && err.status === 404) return { kind: 'gone', message: GONE_TEXT };
  const retryable = !isApiError(err) || err.status === null || err.status >= 500;
  return { kind: 'other', message: messageFor(err, { fallback }), retryable };
}
