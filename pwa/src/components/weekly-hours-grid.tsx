// The weekday hours grid shared by personal work hours (/settings) and company hours
// (/company-settings): a start and end select per interval of each weekday, "Add break" to split a
// day's hours and "Remove break" to join them again (docs/decisions/11-scheduling-rules-beyond-spec.md),
// with each day's message under it.
import { Fragment, useId } from 'react';
import { EMPTY_DAY, WEEKDAYS, isEmptyDay, timeChoices, timeLabel, type DayHours, type WeekHours } from './weekly-hours.ts';
import './weekly-hours-grid.css';

export function WeeklyHoursGrid({
  value,
  errors,
  onChange,
  onAddBreak,
  onRemove,
  increment = 30,
  disabled = false,
  pendingDays,
  emptyLabel = 'Closed',
}: {
  value: WeekHours;
  errors: Record<number, string | undefined>;
  /** The interval `index` (0: the first) of `day` changed. */
  onChange: (day: number, index: number, next: DayHours) => void;
  /** "Add break" on a day whose last hours are complete; none: no button. */
  onAddBreak?: (day: number) => void;
  /** "Remove break" before interval `index` (1 and later): joinAcrossBreak, or the interval dropped when not filled in. */
  onRemove?: (day: number, index: number) => void;
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
        const list = value[day]?.length ? value[day] : [EMPTY_DAY];
        const err = errors[day];
        const dayId = `${id}-d${day}`;
        const errId = `${id}-e${day}`;
        // A stored time off the current increment stays selectable.
        const choices = (field: 'open' | 'close', t: string) => {
          const list = t && !base.includes(t) ? [...base, t].sort() : base;
          // As an end, 00:00 is midnight at the end of the day: offered last.
          return field === 'close' ? [...list.filter((x) => x !== '00:00'), '00:00'] : list;
        };
        const select = (h: DayHours, index: number, field: 'open' | 'close', label: string) => {
          // The first interval's selects are 'Monday Start' / 'Monday End'; later ones 'Monday Start 2' ...
          const labelId = `${id}-${field}${day}-${index}`;
          const current = h[field];
          return (
            <div className="hours-field">
              <span className="hours-field-label" id={labelId}>
                {index === 0 ? label : `${label} ${index + 1}`}
              </span>
              <select
                className="select"
                aria-labelledby={`${dayId} ${labelId}`}
                aria-invalid={err ? true : undefined}
                aria-describedby={err ? errId : undefined}
                value={current}
                disabled={disabled}
                onChange={(e) => onChange(day, index, { ...h, [field]: e.target.value })}
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
              {emptyLabel && isEmptyDay(list) && <span className="hours-closed">{emptyLabel}</span>}
              {pendingDays?.has(day) && <span className="hours-pending">Saving…</span>}
            </div>
            {list.map((h, index) => (
              <Fragment key={index}>
                {index > 0 && (
                  <div className="hours-break">
                    <span>Break, then</span>
                    {onRemove && !disabled && (
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm"
                        aria-label={list.length > 2 ? `Remove break ${index} on ${name}` : `Remove break on ${name}`}
                        onClick={() => onRemove(day, index)}
                      >
                        Remove break
                      </button>
                    )}
                  </div>
                )}
                {select(h, index, 'open', 'Start')}
                {select(h, index, 'close', 'End')}
              </Fragment>
            ))}
            {onAddBreak && !disabled && list[list.length - 1].open && list[list.length - 1].close && (
              <div className="hours-actions">
                <button
                  type="button"
                  className="btn btn-link hours-add-break"
                  aria-label={`Add break on ${name}`}
                  onClick={() => onAddBreak(day)}
                >
                  Add break
                </button>
              </div>
            )}
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
