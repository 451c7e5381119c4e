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
