// The rules of one weekday's opening hours: time formats, midnight as closing time, and the messages of docs/product/05-validation.md.

export const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** 'Monday' for 1 .. 'Sunday' for 7 (ISO weekday). */
export function dayName(isoWeekday: number): string {
  return DAY_NAMES[isoWeekday - 1] ?? `Day ${isoWeekday}`;
}

/** Opening times: 'HH:MM' or 'HH:MM:SS' (one-digit hours accepted), 00:00 to 23:59:59. */
export const OPEN_TIME_PATTERN = /^([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
/** Closing times also accept 24:00 (the end of the day, stored as 00:00:00 like the 00:00 time slot). */
export const CLOSE_TIME_PATTERN = /^(([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?|24:00(:00)?)$/;

const SECONDS_PER_DAY = 24 * 3600;

/** The stored form 'HH:MM:SS'; '24:00' becomes '00:00:00'. Assumes the value matched one of the patterns. */
export function normaliseTime(value: string): string {
  const [h, m, s = '00'] = value.split(':');
  const hours = Number(h) === 24 ? 0 : Number(h);
  return `${String(hours).padStart(2, '0')}:${m}:${s}`;
}

function secondsOf(time: string): number {
  const [h, m, s = '0'] = time.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

/** Seconds after midnight; a closing time of 00:00:00 is midnight at the end of the day. */
export function closingSeconds(close: string): number {
  const s = secondsOf(close);
  return s === 0 ? SECONDS_PER_DAY : s;
}

export function openingSeconds(open: string): number {
  return secondsOf(open);
}

/** The 'HH:MM' of a stored time, when it sits on a minute (time slots are 'HH:MM'). */
export function slotValueOf(time: string | null): string | null {
  if (!time) return null;
  const [h, m, s = '00'] = time.split(':');
  return s === '00' ? `${h}:${m}` : null;
}

export interface DayHoursInput {
  day_of_week: number;
  open_time: string | null;
  close_time: string | null;
  is_closed: boolean;
}

/**
 * The problem with one day's hours, or null. A day is closed, or has both a start and an end with
 * the start first (an end of 00:00 means midnight, so 18:00-00:00 is an evening to the end of the day;
 * hours past midnight belong to the next day's row). Times kept on a closed day must still be in order.
 */
export function dayHoursProblem(h: DayHoursInput): { path: string; message: string } | null {
  const day = dayName(h.day_of_week);
  if (!h.is_closed) {
    if (h.open_time && !h.close_time) return { path: 'close_time', message: `${day} end time is required when start time is provided` };
    if (!h.open_time && h.close_time) return { path: 'open_time', message: `${day} start time is required when end time is provided` };
    if (!h.open_time && !h.close_time)
      return { path: 'open_time', message: `${day} start and end times are required unless the day is closed` };
  }
  if (h.open_time && h.close_time && openingSeconds(h.open_time) >= closingSeconds(h.close_time)) {
    return { path: 'close_time', message: `${day} end time must be after start time` };
  }
  return null;
}

/** An open row's interval in seconds [open, close), or null for a closed row or one without both times. */
export function openSpan(h: { open_time: string | null; close_time: string | null; is_closed: boolean | number }): [number, number] | null {
  if (h.is_closed === true || h.is_closed === 1 || !h.open_time || !h.close_time) return null;
  return [openingSeconds(h.open_time), closingSeconds(h.close_time)];
}

/** Two open intervals of a day share some time (touching ends, 09:00-12:00 and 12:00-13:00, do not). */
export function spansOverlap(a: [number, number], b: [number, number]): boolean {
  return a[0] < b[1] && b[0] < a[1];
}

/** 'HH:MM' (or 'HH:MM:SS' off the minute) of a stored time, '24:00' for a midnight close. */
export function shortTime(time: string, close = false): string {
  if (close && closingSeconds(time) === SECONDS_PER_DAY) return '24:00';
  return slotValueOf(time) ?? time;
}

/** The 409 message of breaks (docs/decisions/27-scheduling-rules.md): which interval is in the way. */
export function overlapMessage(isoWeekday: number, existing: { open_time: string | null; close_time: string | null }): string {
  const span = `${shortTime(existing.open_time ?? '')}-${shortTime(existing.close_time ?? '', true)}`;
  return `${dayName(isoWeekday)} already has hours ${span} that overlap these; change or remove that interval first`;
}

export interface StoredDayRow {
  id: number;
  open_time: string | null;
  close_time: string | null;
  is_closed: number;
}

export type DayPlacement<R> = { kind: 'insert' } | { kind: 'update'; row: R; dropOthers: boolean } | { kind: 'conflict'; row: R };

/**
 * Where POST /operating-hours puts one weekday's hours among that day's rows
 * (docs/decisions/27-scheduling-rules.md, "Breaks"):
 * - no row yet: a new row;
 * - a closed day, or closing the day: the day becomes that one row (other rows go);
 * - one row: an interval overlapping it replaces it (the one-interval-per-day upsert clients rely
 *   on); one that does not overlap it is a second interval (a break between them);
 * - several rows: a non-overlapping interval is added; an overlapping one is a conflict (409),
 *   because which of them it should replace is not clear: PUT that row instead.
 */
export function placeDayHours<R extends StoredDayRow>(dayRows: R[], values: DayHoursInput): DayPlacement<R> {
  if (dayRows.length === 0) return { kind: 'insert' };
  const span = openSpan(values);
  if (span === null) return { kind: 'update', row: dayRows[0], dropOthers: true };
  const closedRow = dayRows.find((r) => openSpan(r) === null);
  if (closedRow) return { kind: 'update', row: closedRow, dropOthers: true };
  const overlapping = dayRows.filter((r) => spansOverlap(openSpan(r)!, span));
  if (dayRows.length === 1) return overlapping.length === 1 ? { kind: 'update', row: dayRows[0], dropOthers: false } : { kind: 'insert' };
  return overlapping.length === 0 ? { kind: 'insert' } : { kind: 'conflict', row: overlapping[0] };
}

/**
 * Why a row changed by PUT may not sit among the other rows of its (new) weekday, or null: it may
 * not overlap another interval, and a closed day is one row (closing a day with breaks is done by
 * POSTing it closed, or by removing the other intervals first).
 */
export function changedRowProblem(others: StoredDayRow[], values: DayHoursInput): string | null {
  if (others.length === 0) return null;
  const span = openSpan(values);
  if (span === null || others.some((r) => openSpan(r) === null))
    return `${dayName(values.day_of_week)} already has hours; change that row instead`;
  const hit = others.find((r) => spansOverlap(openSpan(r)!, span));
  return hit ? overlapMessage(values.day_of_week, hit) : null;
}
