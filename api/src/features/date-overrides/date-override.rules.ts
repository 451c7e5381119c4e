// The rules of one date override (docs/decisions/27-scheduling-rules.md): a real calendar date, and
// either closed with no intervals or open with well-formed, ordered, non-overlapping intervals.
import { closingSeconds, normaliseTime, openingSeconds } from '../operating-hours/operating-hours.rules.ts';

export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** 'YYYY-MM-DD' naming a day that exists (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export interface IntervalInput {
  open_time: string;
  close_time: string;
}

/** At most this many intervals on one date (a day with a few breaks, not a timetable). */
export const MAX_INTERVALS = 12;

/**
 * The problem with an override's opening part, or null. Times are assumed to match the hours
 * patterns already. A close of 00:00 (or 24:00) is midnight at the end of the date.
 */
export function overrideProblem(isClosed: boolean, intervals: IntervalInput[]): { path: string; message: string } | null {
  if (isClosed) {
    return intervals.length > 0 ? { path: 'intervals', message: 'A closed date has no opening intervals' } : null;
  }
  if (intervals.length === 0) return { path: 'intervals', message: 'Give at least one opening interval, or mark the date closed' };
  const spans = intervals.map((i, index) => ({
    index,
    open: openingSeconds(i.open_time),
    close: closingSeconds(normaliseTime(i.close_time)),
  }));
  for (const s of spans) {
    if (s.open >= s.close) return { path: `intervals.${s.index}.close_time`, message: 'Each interval must end after it starts' };
  }
  const sorted = [...spans].sort((a, b) => a.open - b.open);
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k].open < sorted[k - 1].close)
      return { path: `intervals.${sorted[k].index}`, message: 'Intervals of one date must not overlap' };
  }
  return null;
}

/** The stored form: 'HH:MM:SS' times (a midnight close as '00:00:00', like operating hours), sorted by opening. */
export function normaliseIntervals(intervals: IntervalInput[]): IntervalInput[] {
  return intervals
    .map((i) => ({ open_time: normaliseTime(i.open_time), close_time: normaliseTime(i.close_time) }))
    .sort((a, b) => openingSeconds(a.open_time) - openingSeconds(b.open_time));
}

/** The stored JSON text of intervals (null when closed) back as a list. */
export function parseIntervals(text: string | null): IntervalInput[] {
  if (!text) return [];
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? (parsed as IntervalInput[]) : [];
}
