// The weekday hours grid shared by personal work hours (/settings) and company hours
// (/company-settings): a start and end select per weekday, with each day's message under it.
import { useId } from 'react';
import { WEEKDAYS, timeChoices, timeLabel, type DayHours, type WeekHours } from './weekly-hours.ts';
import './weekly-hours-grid.css';

export function WeeklyHoursGrid({
  value,
  errors,
  onChange,
  increment = 30,
  disabled = false,
  pendingDays,
  emptyLabel = 'Closed',
}: {
  value: WeekHours;
  errors: Record<number, string | undefined>;
  onChange: (day: number, next: DayHours) => void;
  /** Minutes between the offered times (the company's time increment). */
  increment?: number;
  disabled?: boolean;
  /** Days whose change is still being saved. */
  pendingDays?: ReadonlySet<number>;
  /** The tag of a day without hours ('Closed' for a company); null for none. */
  emptyLabel?: string | null;
}) {
  const id = useId();
  const base = timeChoices(increment);

  return (
    <div className="hours-grid">
      <div className="hours-head" aria-hidden="true">
        <span>Day</span>
        <span>Start</span>
        <span>End</span>
      </div>
      {WEEKDAYS.map(({ day, name }) => {
        const h = value[day] ?? { open: '', close: '' };
        const err = errors[day];
        const dayId = `${id}-d${day}`;
        const errId = `${id}-e${day}`;
        // A stored time off the current increment stays selectable.
        const choices = (field: 'open' | 'close', t: string) => {
          const list = t && !base.includes(t) ? [...base, t].sort() : base;
          // As an end, 00:00 is midnight at the end of the day: offered last.
          return field === 'close' ? [...list.filter((x) => x !== '00:00'), '00:00'] : list;
        };
        const select = (field: 'open' | 'close', label: string) => {
          const labelId = `${id}-${field}${day}`;
          const current = h[field];
          return (
            <div className="hours-field">
              <span className="hours-field-label" id={labelId}>
                {label}
              </span>
              <select
                className="select"
                aria-labelledby={`${dayId} ${labelId}`}
                aria-invalid={err ? true : undefined}
                aria-describedby={err ? errId : undefined}
                value={current}
                disabled={disabled}
                onChange={(e) => onChange(day, { ...h, [field]: e.target.value })}
              >
                <option value="">Not set</option>
                {choices(field, current).map((t) => (
                  <option key={t} value={t}>
                    {field === 'close' && t === '00:00' ? 'Midnight (end of day)' : timeLabel(t)}
                  </option>
                ))}
              </select>
            </div>
          );
        };
        return (
          <div className="hours-row" key={day} data-day={day}>
            <div className="hours-day">
              <span id={dayId}>{name}</span>
              {emptyLabel && !h.open && !h.close && <span className="hours-closed">{emptyLabel}</span>}
              {pendingDays?.has(day) && <span className="hours-pending">Saving…</span>}
            </div>
            {select('open', 'Start')}
            {select('close', 'End')}
            {err && (
              <p className="field-error hours-error" id={errId}>
                {err}
              </p>
            )}
          </div>
        );
      })}
    </div>
  );
}
