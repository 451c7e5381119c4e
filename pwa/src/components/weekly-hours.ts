// Opening or working hours for one week as the hours grids edit them (docs/product/03-entities.md and 05-validation.md):
// one start and end per weekday (1 Monday .. 7 Sunday), the validation messages, and the
// time choices offered at the company's time increment.

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

export type WeekHours = Record<number, DayHours>;

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
  return Object.fromEntries(WEEKDAYS.map(({ day }) => [day, { open: '', close: '' }]));
}

/** The week shown for `rows` (a closed row shows as a day without hours). */
export function weekFromRows(rows: readonly OperatingHoursRow[]): WeekHours {
  const week = emptyWeek();
  for (const r of rows) {
    if (!week[r.day_of_week] || isClosedRow(r)) continue;
    week[r.day_of_week] = { open: toHHMM(r.open_time), close: toHHMM(r.close_time) };
  }
  return week;
}

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
    const e = dayError(day, week[day] ?? { open: '', close: '' });
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

/** What must be sent to turn `rows` into `week`: creations/updates of days with hours, deletions of cleared days. */
export interface HoursChange {
  day: number;
  kind: 'create' | 'update' | 'delete';
  row?: OperatingHoursRow;
  hours?: DayHours;
}

export function hoursChanges(rows: readonly OperatingHoursRow[], week: WeekHours): HoursChange[] {
  const changes: HoursChange[] = [];
  for (const { day } of WEEKDAYS) {
    const row = rows.find((r) => r.day_of_week === day);
    const h = week[day] ?? { open: '', close: '' };
    const wanted = Boolean(h.open && h.close);
    const rowOpen = !!row && !isClosedRow(row);
    if (wanted) {
      if (!row) changes.push({ day, kind: 'create', hours: h });
      else if (!rowOpen || toHHMM(row.open_time) !== h.open || toHHMM(row.close_time) !== h.close)
        changes.push({ day, kind: 'update', row, hours: h });
    } else if (rowOpen && !h.open && !h.close) {
      // A day already stored as closed stays as it is.
      changes.push({ day, kind: 'delete', row });
    }
  }
  return changes;
}
