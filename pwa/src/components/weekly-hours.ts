// Opening or working hours for one week as the hours grids edit them (docs/product/03-entities.md and 05-validation.md):
// one or more start-end intervals per weekday (1 Monday .. 7 Sunday; several make breaks,
// docs/decisions/11-scheduling-rules-beyond-spec.md), the validation messages, and the time choices offered
// at the company's time increment.

export const WEEKDAYS = [
  { day: 1, name: 'Monday' },
  { day: 2, name: 'Tuesday' },
  { day: 3, name: 'Wednesday' },
  { day: 4, name: 'Thursday' },
  { day: 5, name: 'Friday' },
  { day: 6, name: 'Saturday' },
  { day: 7, name: 'Sunday' },
] as const;

export const dayName = (day: number) => WEEKDAYS.find((d) => d.day === day)?.name ?? `Day ${day}`;

export const FIX_ERRORS_TEXT = 'Please fix the validation errors before saving.';

/** A row of GET /operating-hours (times are 'HH:MM:SS' in the company's time zone). */
export interface OperatingHoursRow {
  id: number;
  company_id: number;
  user_id: number | null;
  day_of_week: number;
  open_time: string | null;
  close_time: string | null;
  is_closed: boolean | number;
}

/** One weekday being edited: 'HH:MM' or '' for "not set". */
export interface DayHours {
  open: string;
  close: string;
}

/** A weekday's intervals, earliest first; a day without hours is one empty interval. */
export type WeekHours = Record<number, DayHours[]>;

export const EMPTY_DAY: DayHours = { open: '', close: '' };

/** A row that says the day is closed (is_closed), which the grids show as a day without hours. */
export const isClosedRow = (r: OperatingHoursRow) => r.is_closed === true || r.is_closed === 1;

/** 'HH:MM' from 'HH:MM:SS', 'HH:MM' or null. */
export function toHHMM(time: string | null | undefined): string {
  if (!time) return '';
  const m = /^(\d{1,2}):(\d{2})/.exec(time);
  return m ? `${m[1].padStart(2, '0')}:${m[2]}` : '';
}

/** 'HH:MM:SS' for the API. */
export const toApiTime = (hhmm: string) => `${hhmm}:00`;

export function emptyWeek(): WeekHours {
  return Object.fromEntries(WEEKDAYS.map(({ day }) => [day, [{ ...EMPTY_DAY }]]));
}

/** A day's stored open rows (not the closed ones), earliest first: the intervals the grid shows. */
export function openRowsOf<R extends OperatingHoursRow>(rows: readonly R[], day: number): R[] {
  return rows
    .filter((r) => r.day_of_week === day && !isClosedRow(r) && r.open_time && r.close_time)
    .sort((a, b) => toHHMM(a.open_time).localeCompare(toHHMM(b.open_time)) || a.id - b.id);
}

/** The week shown for `rows` (a closed row shows as a day without hours). */
export function weekFromRows(rows: readonly OperatingHoursRow[]): WeekHours {
  const week = emptyWeek();
  for (const { day } of WEEKDAYS) {
    const open = openRowsOf(rows, day);
    if (open.length > 0) week[day] = open.map((r) => ({ open: toHHMM(r.open_time), close: toHHMM(r.close_time) }));
  }
  return week;
}

/** True when no interval of the day has a time. */
export const isEmptyDay = (list: readonly DayHours[] | undefined) => !list || list.every((h) => !h.open && !h.close);

/** The message for one day, or null when it is fine. */
export function dayError(day: number, hours: DayHours): string | null {
  const name = dayName(day);
  if (hours.open && !hours.close) return `${name} end time is required when start time is provided`;
  if (hours.close && !hours.open) return `${name} start time is required when end time is provided`;
  if (hours.open && hours.close && closingMinutes(hours.close) <= minutesOf(hours.open)) {
    return `${name} end time must be after start time`;
  }
  return null;
}

/** The message for a day's intervals: the first interval's problem, or two that overlap. */
export function dayIntervalsError(day: number, list: readonly DayHours[]): string | null {
  for (const h of list) {
    const e = dayError(day, h);
    if (e) return e;
  }
  const spans = list
    .filter((h) => h.open && h.close)
    .map((h) => [minutesOf(h.open), closingMinutes(h.close)] as const)
    .sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i][0] < spans[i - 1][1]) return `${dayName(day)} hours overlap: a break must end before the next hours start`;
  }
  return null;
}

/**
 * The two intervals "Add break" makes of `h`: the break takes one increment in the middle, on the
 * increment grid. Null when `h` is too short to hold hours, a break and hours.
 */
export function splitForBreak(h: DayHours, increment = 30): [DayHours, DayHours] | null {
  if (!h.open || !h.close) return null;
  const step = [15, 30, 45, 60].includes(increment) ? increment : 30;
  const start = minutesOf(h.open);
  const end = closingMinutes(h.close);
  if (end - start < 3 * step) return null;
  const breakStart = start + Math.floor((end - start - step) / 2 / step) * step;
  const hhmm = (m: number) => `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return [
    { open: h.open, close: hhmm(breakStart) },
    { open: hhmm(breakStart + step), close: h.close },
  ];
}

/**
 * "Remove break": the hours either side of the break before interval `index` become one (the
 * inverse of "Add break"). An interval not filled in yet, on either side, is simply dropped.
 */
export function joinAcrossBreak(list: readonly DayHours[], index: number): DayHours[] {
  const before = list[index - 1];
  const after = list[index];
  if (!before?.open || !before.close || !after?.open || !after.close) return list.filter((_, i) => i !== index);
  return [...list.slice(0, index - 1), { open: before.open, close: after.close }, ...list.slice(index + 1)];
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/** An end of 00:00 is midnight at the end of the day (as the server reads it). */
export function closingMinutes(hhmm: string): number {
  const m = minutesOf(hhmm);
  return m === 0 ? 24 * 60 : m;
}

/** Messages by weekday; empty when the whole week is valid. */
export function weekErrors(week: WeekHours): Record<number, string> {
  const errors: Record<number, string> = {};
  for (const { day } of WEEKDAYS) {
    const e = dayIntervalsError(day, week[day] ?? [EMPTY_DAY]);
    if (e) errors[day] = e;
  }
  return errors;
}

/** 'HH:MM' choices across 24 hours every `increment` minutes (docs/product/09-limits.md). */
export function timeChoices(increment = 30): string[] {
  const step = [15, 30, 45, 60].includes(increment) ? increment : 30;
  const out: string[] = [];
  for (let m = 0; m < 24 * 60; m += step) {
    out.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  }
  return out;
}

/** '9:30 AM' for '09:30', in the reader's locale. */
export function timeLabel(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  const d = new Date(2000, 0, 3, h, m);
  return d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}

/** "10:00 AM – 2:00 PM, ...": the hours a date override keeps open ('HH:MM:SS' from the API). */
export const intervalText = (o: { intervals?: readonly { open_time: string; close_time: string }[] | null }) =>
  (o.intervals ?? []).map((i) => `${timeLabel(toHHMM(i.open_time))} – ${timeLabel(toHHMM(i.close_time))}`).join(', ');

/**
 * What must be sent to turn `rows` into `week`: per day, the stored open rows (earliest first) are
 * matched to the edited intervals in order; a changed one is updated, extra intervals are created
 * and extra rows deleted. Deletions come first and creations last, so a row never meets another
 * that is about to go (the server refuses overlapping intervals with 409).
 */
export interface HoursChange {
  day: number;
  kind: 'create' | 'update' | 'delete';
  row?: OperatingHoursRow;
  hours?: DayHours;
}

export function hoursChanges(rows: readonly OperatingHoursRow[], week: WeekHours): HoursChange[] {
  const deletes: HoursChange[] = [];
  const updates: HoursChange[] = [];
  const creates: HoursChange[] = [];
  for (const { day } of WEEKDAYS) {
    const stored = openRowsOf(rows, day);
    const wanted = (week[day] ?? []).filter((h) => h.open && h.close);
    wanted.forEach((h, i) => {
      const row = stored[i];
      if (!row) creates.push({ day, kind: 'create', hours: h });
      else if (toHHMM(row.open_time) !== h.open || toHHMM(row.close_time) !== h.close) updates.push({ day, kind: 'update', row, hours: h });
    });
    // A day stored as closed has no open rows, so it stays as it is until given hours.
    for (const row of stored.slice(wanted.length)) deletes.push({ day, kind: 'delete', row });
  }
  return [...deletes, ...updates, ...creates];
}
