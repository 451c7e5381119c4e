// The bookable days as a grid of radio "chips", grouped by month: only the dates the server
// offered can be chosen (a native date input could not grey out the others). The days between them
// that the server did not offer (closed, a holiday, fully booked: docs/decisions/11-scheduling-rules-beyond-spec.md)
// show greyed out and cannot be chosen. The booking page and the self-service page (moving an
// appointment) pick days with it.
import { calendarDate, dateTimeFormat } from '../lib/zoned-time.ts';
import './date-options.css';

// Made on first use, not when the module loads: the page's first Intl format loads the locale's data, a
// long task the booking page would pay at start-up before it shows any date.
function lazyFormat(options: Intl.DateTimeFormatOptions): { format(date: Date): string } {
  let fmt: Intl.DateTimeFormat | null = null;
  return { format: (date) => (fmt ??= dateTimeFormat(undefined, options)).format(date) };
}

const monthFmt = lazyFormat({ timeZone: 'UTC', month: 'long', year: 'numeric' });
const weekdayFmt = lazyFormat({ timeZone: 'UTC', weekday: 'short' });
const dayFmt = lazyFormat({ timeZone: 'UTC', day: 'numeric' });
const fullFmt = lazyFormat({ timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' });

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every date from the first offered one to the last, so a closed day shows as a gap that cannot be chosen. */
export function daysSpanned(dates: readonly string[]): string[] {
  const sorted = [...dates].sort();
  if (sorted.length === 0) return [];
  const out: string[] = [];
  const last = calendarDate(sorted[sorted.length - 1]).getTime();
  for (let t = calendarDate(sorted[0]).getTime(); t <= last; t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

function groupByMonth(dates: string[]): { month: string; dates: string[] }[] {
  const groups: { month: string; dates: string[] }[] = [];
  for (const d of daysSpanned(dates)) {
    const month = monthFmt.format(calendarDate(d));
    const last = groups[groups.length - 1];
    if (last?.month === month) last.dates.push(d);
    else groups.push({ month, dates: [d] });
  }
  return groups;
}

export function DateOptions({
  dates,
  value,
  onChange,
  invalid,
  describedBy,
  labelledBy = 'bk-date-label',
}: {
  dates: string[];
  value: string;
  onChange: (date: string) => void;
  invalid: boolean;
  describedBy?: string;
  /** The id of the group's visible label. */
  labelledBy?: string;
}) {
  const offered = new Set(dates);
  return (
    <div role="radiogroup" aria-labelledby={labelledBy} aria-invalid={invalid || undefined} aria-describedby={describedBy}>
      {groupByMonth(dates).map((group) => (
        <div key={group.month} className="date-month">
          <div className="date-month-name" aria-hidden="true">
            {group.month}
          </div>
          <div className="date-grid">
            {group.dates.map((d) => {
              const day = calendarDate(d);
              const id = `bk-date-${d}`;
              if (!offered.has(d)) {
                // Not a radio: only offered days are choices (for keyboards and screen readers too).
                return (
                  <span
                    key={d}
                    className="date-chip is-off"
                    data-off-date={d}
                    title={`${fullFmt.format(day)}: not available`}
                    aria-hidden="true"
                  >
                    <span className="date-chip-wd">{weekdayFmt.format(day)}</span>
                    <span className="date-chip-day">{dayFmt.format(day)}</span>
                  </span>
                );
              }
              return (
                <label key={d} htmlFor={id} className={`date-chip${value === d ? ' is-selected' : ''}`}>
                  <input
                    id={id}
                    type="radio"
                    name="date"
                    value={d}
                    checked={value === d}
                    onChange={() => onChange(d)}
                    aria-label={fullFmt.format(day)}
                  />
                  <span className="date-chip-wd" aria-hidden="true">
                    {weekdayFmt.format(day)}
                  </span>
                  <span className="date-chip-day" aria-hidden="true">
                    {dayFmt.format(day)}
                  </span>
                </label>
              );
            })}
          </div>
        </div>
      ))}
    </div>
  );
}
