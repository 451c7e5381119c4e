// The notes the appointment form shows beside its date (components/day-notes.tsx): a closure or
// special hours, a weekday without opening hours, or the chosen team member's time off
// (docs/decisions/11-scheduling-rules-beyond-spec.md). Pure functions, no React.
import { dayName, intervalText, openRowsOf } from '../../components/weekly-hours.ts';

/** What the notes read of a date override (GET /date-overrides). */
export interface DayOverride {
  date: string;
  is_closed: boolean;
  intervals?: readonly { open_time: string; close_time: string }[] | null;
  note?: string | null;
}

/** 1 Monday .. 7 Sunday, as operating hours count, of a 'YYYY-MM-DD' date. */
function weekdayOf(date: string): number {
  const day = new Date(`${date}T12:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

const withNote = (o: DayOverride) => (o.note ? ` (${o.note})` : '');

export interface DayNotesInput {
  companyName: string;
  date: string;
  companyOverrides: DayOverride[] | undefined;
  /** The company's weekly hours rows; undefined while unknown. */
  weeklyRows: Parameters<typeof openRowsOf>[0] | undefined;
  employee: { name: string } | null;
  employeeOverrides: DayOverride[] | undefined;
}

/** The notes for a day, business first. */
export function dayNotes({ companyName, date, companyOverrides, weeklyRows, employee, employeeOverrides }: DayNotesInput): string[] {
  const notes: string[] = [];
  const closure = companyOverrides?.find((o) => o.date === date);
  const weekday = weekdayOf(date);
  if (closure) {
    notes.push(
      closure.is_closed
        ? `${companyName} is closed on this day${withNote(closure)}.`
        : `${companyName} has special hours on this day${withNote(closure)}: ${intervalText(closure)}.`,
    );
  } else if (weeklyRows && weeklyRows.length > 0 && openRowsOf(weeklyRows, weekday).length === 0) {
    notes.push(`${companyName} is closed on ${dayName(weekday)}s.`);
  }
  const off = employee ? employeeOverrides?.find((o) => o.date === date) : undefined;
  if (employee && off) {
    notes.push(
      off.is_closed
        ? `${employee.name} is off on this day${withNote(off)}.`
        : `${employee.name} works only ${intervalText(off)} on this day${withNote(off)}.`,
    );
  }
  return notes;
}
