// Appointment lengths: which ones a company offers, how the modal's duration select names them,
// and which one fits a set of services. Pure functions, no React.
import type { Appointment } from '../../data/appointments.ts';

/** A length the company offers: the global option's id (appointment_duration_option_id) and its minutes. */
export interface DurationChoice {
  id: number;
  minutes: number;
}

/** A company's offered length as the API lists it: some answers carry the minutes, else the catalogue has them. */
export interface OfferedDuration {
  appointment_duration_option_id: number;
  duration_minutes?: number | null;
}

/** A length in the global catalogue. */
export interface CatalogueDuration {
  id: number;
  duration_minutes: number;
}

/** The company's offered lengths with their minutes, in the API's order (lengths of unknown minutes left out). */
export function offeredChoices(offered: OfferedDuration[], catalogue: CatalogueDuration[]): DurationChoice[] {
  const catalogueById = new Map(catalogue.map((o) => [o.id, o.duration_minutes]));
  return offered
    .map((row) => ({
      id: row.appointment_duration_option_id,
      minutes: row.duration_minutes ?? catalogueById.get(row.appointment_duration_option_id) ?? 0,
    }))
    .filter((c) => c.minutes > 0);
}

/** The lengths the modal offers: the company's, else the whole catalogue; one per id, shortest first. */
export function durationChoices(offered: OfferedDuration[], catalogue: CatalogueDuration[]): DurationChoice[] {
  let choices = offeredChoices(offered, catalogue);
  if (choices.length === 0) choices = catalogue.map((o) => ({ id: o.id, minutes: o.duration_minutes }));
  return [...new Map(choices.map((c) => [c.id, c])).values()].sort((a, b) => a.minutes - b.minutes);
}

/** '45 min', '1 h', '1 h 30 min'. */
export function formatMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}

/** Whole minutes from instant `a` to instant `b`. */
export function minutesBetween(a: string, b: string): number {
  return Math.round((new Date(b).getTime() - new Date(a).getTime()) / 60_000);
}

/**
 * The duration select's value: a DurationChoice id, or 'm:<minutes>' for an appointment whose
 * length no offered choice matches.
 */
export function durationMinutes(value: string, choices: DurationChoice[]): number | null {
  if (!value) return null;
  if (value.startsWith('m:')) return Number(value.slice(2)) || null;
  return choices.find((c) => String(c.id) === value)?.minutes ?? null;
}

/** The select value for an existing appointment: its own option if the length still matches, else any option of that length. */
export function durationValueFor(
  a: Pick<Appointment, 'start_time' | 'end_time' | 'appointment_duration_option_id'>,
  choices: DurationChoice[],
): string {
  const minutes = minutesBetween(a.start_time, a.end_time);
  const byId = choices.find((c) => c.id === a.appointment_duration_option_id);
  if (byId && byId.minutes === minutes) return String(byId.id);
  const byMinutes = choices.find((c) => c.minutes === minutes);
  if (byMinutes) return String(byMinutes.id);
  return `m:${minutes}`;
}

/**
 * The duration select's value for services lasting `minutes`: the smallest offered length that
 * holds them, else their own length ('m:<minutes>'). The longest offered length would end the
 * appointment before the services do, and the staff member would look free while still busy.
 */
export function durationValueFitting(minutes: number, choices: DurationChoice[]): string {
  const fit = choices.find((c) => c.minutes >= minutes);
  return fit ? String(fit.id) : `m:${minutes}`;
}

/**
 * The length a new appointment starts with: the company's default (stored as minutes, or by
 * older data as an option id), else 30 minutes, else the shortest.
 */
export function preferredChoice(defaultMinutes: number | null, choices: DurationChoice[]): DurationChoice | undefined {
  return (
    (defaultMinutes !== null && (choices.find((c) => c.minutes === defaultMinutes) ?? choices.find((c) => c.id === defaultMinutes))) ||
    choices.find((c) => c.minutes === 30) ||
    choices[0]
  );
}

/** The duration select's options, with the appointment's unmatched length ('m:<minutes>') last. */
export function durationOptions(choices: DurationChoice[], value: string): { value: string; label: string }[] {
  const opts = choices.map((c) => ({ value: String(c.id), label: `${c.minutes} minutes` }));
  if (value.startsWith('m:')) opts.push({ value, label: `${value.slice(2)} minutes` });
  return opts;
}
