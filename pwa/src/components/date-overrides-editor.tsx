// The upcoming date overrides of the company (closures and special hours, Company settings) or of
// one person (time off, Settings and the Directory's person view), with add and remove
// (docs/decisions/11-scheduling-rules-beyond-spec.md). An override replaces that date's weekly hours:
// closed all day, or open only in the hours given: one or more intervals ('Add interval'), as the API
// takes several (a special day with a break).
import { useId, useState, type FormEvent } from 'react';
import { errorMessage, isApiError } from '../lib/api-errors.ts';
import { addDays, formatLongDate, todayIn } from '../lib/zoned-time.ts';
import { useDateOverrides, useWriteDateOverride, type DateOverride, type OverrideScope } from '../data/date-overrides.ts';
import { Alert } from './alert.tsx';
import { Loading } from './loading.tsx';
import { FormField, TextField } from './form-field.tsx';
import { closingMinutes, intervalText, timeChoices, timeLabel, toApiTime } from './weekly-hours.ts';
import './date-overrides-editor.css';

/** How far ahead the list reads: the longest booking window (docs/product/09-limits.md). */
export const OVERRIDES_AHEAD_DAYS = 365;

export const OVERRIDE_TEXT = {
  dateRequired: 'Please choose a date.',
  pastDate: 'Choose today or a later date.',
  /** Names the editor's own all-day box ('Closed all day' for the company, 'Off all day' for a person). */
  timesRequired: (allDay: string) => `Choose a start and an end time, or tick ${allDay}.`,
  endAfterStart: 'The end time must be after the start time.',
  overlap: 'The intervals overlap: each must start after the one before it ends.',
} as const;

/** The company's all-day label; a person's time off says its own (words.allDay). */
export const COMPANY_ALL_DAY = 'Closed all day';

/** The server's longest note (api date-override.schema.ts). */
export const MAX_OVERRIDE_NOTE = 500;

/** The server's limit of intervals on one date (api date-override.rules.ts MAX_INTERVALS). */
export const MAX_OVERRIDE_INTERVALS = 12;

export interface IntervalDraft {
  open: string;
  close: string;
}

export interface OverrideDraft {
  date: string;
  closed: boolean;
  /** At least one; used only when not closed. */
  intervals: IntervalDraft[];
  note: string;
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/** The message for a draft, or null when it can be sent. */
export function overrideProblem(d: OverrideDraft, today: string, allDay = COMPANY_ALL_DAY): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d.date)) return OVERRIDE_TEXT.dateRequired;
  if (d.date < today) return OVERRIDE_TEXT.pastDate;
  if (d.closed) return null;
  if (d.intervals.length === 0 || d.intervals.some((i) => !i.open || !i.close)) return OVERRIDE_TEXT.timesRequired(allDay);
  if (d.intervals.some((i) => closingMinutes(i.close) <= minutesOf(i.open))) return OVERRIDE_TEXT.endAfterStart;
  // The server refuses overlapping intervals of one date (docs/decisions/27-scheduling-rules.md); say so before sending.
  const spans = d.intervals.map((i) => [minutesOf(i.open), closingMinutes(i.close)]).sort((a, b) => a[0] - b[0]);
  for (let k = 1; k < spans.length; k++) if (spans[k][0] < spans[k - 1][1]) return OVERRIDE_TEXT.overlap;
  return null;
}

/**
 * The interval "Add interval" appends: starting one increment after the last one ends, as long as
 * about an hour on the time grid (shorter before midnight); blank when the last is not complete or no
 * time is left.
 */
export function nextInterval(intervals: IntervalDraft[], increment: number): IntervalDraft {
  const last = intervals[intervals.length - 1];
  if (!last?.open || !last.close || last.close === '00:00') return { open: '', close: '' };
  const step = [15, 30, 45, 60].includes(increment) ? increment : 30; // timeChoices' grid
  const start = closingMinutes(last.close) + step;
  const end = Math.min(start + Math.ceil(60 / step) * step, 24 * 60);
  if (start >= 24 * 60 || end <= start) return { open: '', close: '' };
  const hhmm = (n: number) =>
    n >= 24 * 60 ? '00:00' : `${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;
  return { open: hhmm(start), close: hhmm(end) };
}

export function DateOverridesEditor({
  scope,
  zone,
  increment = 30,
  canEdit = true,
  words,
}: {
  scope: OverrideScope;
  /** The company's time zone: "today" and the times are the company's. */
  zone: string;
  increment?: number;
  canEdit?: boolean;
  words: {
    /** 'closures' / 'time off' in sentences. */
    what: string;
    /** The label of the times of a partly open day ('Open only' / 'Working only'). */
    partly: string;
    /** The label of a day off entirely ('Closed all day' / 'Off all day'), on the box and in the list. */
    allDay: string;
    empty: string;
    add: string;
    /** The button when the day is only partly off, if it needs other words ('Add special hours'). */
    addPartly?: string;
  };
}) {
  const id = useId();
  const today = todayIn(zone);
  const list = useDateOverrides(scope, today, addDays(today, OVERRIDES_AHEAD_DAYS));
  const { add, remove } = useWriteDateOverride();
  const blank: OverrideDraft = { date: '', closed: true, intervals: [{ open: '', close: '' }], note: '' };
  const [d, setD] = useState<OverrideDraft>(blank);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const addLabel = d.closed ? words.add : (words.addPartly ?? words.add);
  const set = (patch: Partial<OverrideDraft>) => {
    setD((x) => ({ ...x, ...patch }));
    setProblem(null);
    setStatus(null);
  };
  const choices = timeChoices(increment);
  const setInterval = (index: number, patch: Partial<IntervalDraft>) =>
    set({ intervals: d.intervals.map((x, k) => (k === index ? { ...x, ...patch } : x)) });
  const addInterval = () => set({ intervals: [...d.intervals, nextInterval(d.intervals, increment)] });
  const removeInterval = (index: number) => set({ intervals: d.intervals.filter((_, k) => k !== index) });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = overrideProblem(d, today, words.allDay);
    if (p) return setProblem(p);
    add.mutate(
      {
        company_id: scope.companyId,
        ...(scope.userId !== null ? { user_id: scope.userId } : {}),
        date: d.date,
        is_closed: d.closed,
        ...(d.closed ? {} : { intervals: d.intervals.map((i) => ({ open_time: toApiTime(i.open), close_time: toApiTime(i.close) })) }),
        ...(d.note.trim() ? { note: d.note.trim() } : {}),
      },
      {
        onSuccess: () => {
          setStatus({ tone: 'success', text: `Added ${formatLongDate(d.date)}.` });
          setD(blank);
        },
        // 409: the date has an entry already (one per date); said with the date as the list shows it.
        onError: (err) =>
          setProblem(
            isApiError(err) && err.status === 409
              ? `${formatLongDate(d.date)} is already in the list: remove it there first to enter it again.`
              : errorMessage(err),
          ),
      },
    );
  };

  const onRemove = (o: DateOverride) => {
    setStatus(null);
    remove.mutate(o.id, {
      onSuccess: () => setStatus({ tone: 'success', text: `Removed ${formatLongDate(o.date)}.` }),
      onError: (err) => setStatus({ tone: 'error', text: `Could not remove ${formatLongDate(o.date)}: ${errorMessage(err)}` }),
    });
  };

  return (
    <div className="dov">
      {status && (
        <Alert tone={status.tone} onDismiss={() => setStatus(null)}>
          {status.text}
        </Alert>
      )}
      {list.isPending ? (
        <Loading label={`Loading ${words.what}...`} />
      ) : list.isError ? (
        <Alert tone="error">{errorMessage(list.error)}</Alert>
      ) : list.data.length === 0 ? (
        <p className="dov-empty">{words.empty}</p>
      ) : (
        <ul className="dov-list" aria-label={`Upcoming ${words.what}`}>
          {list.data.map((o) => (
            <li key={o.id} className="dov-item">
              <div className="dov-main">
                <span className="dov-date">{formatLongDate(o.date)}</span>
                <span className="dov-what">{o.is_closed ? words.allDay : `${words.partly} ${intervalText(o)}`}</span>
                {o.note && <span className="dov-note">{o.note}</span>}
              </div>
              {canEdit && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm dov-remove"
                  aria-label={`Remove ${formatLongDate(o.date)}`}
                  disabled={remove.isPending}
                  onClick={() => onRemove(o)}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <form className="dov-form" onSubmit={submit} noValidate aria-label={addLabel}>
          <div className="dov-grid">
            <TextField label="Date" id={`${id}-date`} type="date" min={today} value={d.date} onValueChange={(date) => set({ date })} />
            <TextField
              label="Note (optional)"
              id={`${id}-note`}
              maxLength={MAX_OVERRIDE_NOTE}
              value={d.note}
              onValueChange={(note) => set({ note })}
            />
          </div>
          <label className="checkbox dov-closed">
            <input type="checkbox" checked={d.closed} onChange={(e) => set({ closed: e.target.checked })} />
            <span>{words.allDay}</span>
          </label>
          {!d.closed && (
            <fieldset className="dov-intervals">
              <legend className="visually-hidden">{words.partly}</legend>
              {d.intervals.map((interval, index) => {
                // The first interval keeps its plain labels; later ones are numbered, so each select has its own name.
                const suffix = d.intervals.length > 1 ? ` (interval ${index + 1})` : '';
                return (
                  <div key={index} className="dov-interval">
                    <div className="dov-grid">
                      {(['open', 'close'] as const).map((field) => (
                        <FormField
                          key={field}
                          label={`${words.partly} — ${field === 'open' ? 'start' : 'end'}${suffix}`}
                          id={`${id}-${field}-${index}`}
                        >
                          <select
                            className="select"
                            value={interval[field]}
                            onChange={(e) => setInterval(index, { [field]: e.target.value })}
                          >
                            <option value="">Not set</option>
                            {(field === 'close' ? [...choices.filter((t) => t !== '00:00'), '00:00'] : choices).map((t) => (
                              <option key={t} value={t}>
                                {field === 'close' && t === '00:00' ? 'Midnight (end of day)' : timeLabel(t)}
                              </option>
                            ))}
                          </select>
                        </FormField>
                      ))}
                    </div>
                    {d.intervals.length > 1 && (
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm dov-interval-remove"
                        aria-label={`Remove interval ${index + 1}`}
                        onClick={() => removeInterval(index)}
                      >
                        Remove
                      </button>
                    )}
                  </div>
                );
              })}
              {d.intervals.length < MAX_OVERRIDE_INTERVALS && (
                <button type="button" className="btn btn-link dov-add-interval" onClick={addInterval}>
                  Add interval
                </button>
              )}
            </fieldset>
          )}
          {problem && <Alert tone="error">{problem}</Alert>}
          <button type="submit" className="btn btn-primary" disabled={add.isPending}>
            {add.isPending ? 'Adding...' : addLabel}
          </button>
        </form>
      )}
    </div>
  );
}
