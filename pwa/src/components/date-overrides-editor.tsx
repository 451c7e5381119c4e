// The upcoming date overrides of the company (closures and special hours, Company settings) or of
// one person (time off, Settings and the Directory's person view), with add and remove
// (docs/decisions/11-scheduling-rules-beyond-spec.md). An override replaces that date's weekly hours:
// closed all day, or open only in the hours given.
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../lib/api-errors.ts';
import { addDays, formatLongDate, todayIn } from '../lib/zoned-time.ts';
import { useDateOverrides, useWriteDateOverride, type DateOverride, type OverrideScope } from '../data/date-overrides.ts';
import { Alert } from './alert.tsx';
import { Loading } from './loading.tsx';
import { FormField, TextField } from './form-field.tsx';
import { closingMinutes, timeChoices, timeLabel, toApiTime, toHHMM } from './weekly-hours.ts';
import './date-overrides-editor.css';

/** How far ahead the list reads: the longest booking window (docs/product/09-limits.md). */
export const OVERRIDES_AHEAD_DAYS = 365;

export const OVERRIDE_TEXT = {
  dateRequired: 'Please choose a date.',
  pastDate: 'Choose today or a later date.',
  timesRequired: 'Choose a start and an end time, or tick Closed all day.',
  endAfterStart: 'The end time must be after the start time.',
} as const;

export interface OverrideDraft {
  date: string;
  closed: boolean;
  open: string;
  close: string;
  note: string;
}

/** The message for a draft, or null when it can be sent. */
export function overrideProblem(d: OverrideDraft, today: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d.date)) return OVERRIDE_TEXT.dateRequired;
  if (d.date < today) return OVERRIDE_TEXT.pastDate;
  if (d.closed) return null;
  if (!d.open || !d.close) return OVERRIDE_TEXT.timesRequired;
  const [h, m] = d.open.split(':').map(Number);
  if (closingMinutes(d.close) <= h * 60 + m) return OVERRIDE_TEXT.endAfterStart;
  return null;
}

const intervalText = (o: DateOverride) =>
  (o.intervals ?? []).map((i) => `${timeLabel(toHHMM(i.open_time))} – ${timeLabel(toHHMM(i.close_time))}`).join(', ');

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
    empty: string;
    add: string;
  };
}) {
  const id = useId();
  const today = todayIn(zone);
  const list = useDateOverrides(scope, today, addDays(today, OVERRIDES_AHEAD_DAYS));
  const { add, remove } = useWriteDateOverride();
  const blank: OverrideDraft = { date: '', closed: true, open: '', close: '', note: '' };
  const [d, setD] = useState<OverrideDraft>(blank);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const set = (patch: Partial<OverrideDraft>) => {
    setD((x) => ({ ...x, ...patch }));
    setProblem(null);
    setStatus(null);
  };
  const choices = timeChoices(increment);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = overrideProblem(d, today);
    if (p) return setProblem(p);
    add.mutate(
      {
        company_id: scope.companyId,
        ...(scope.userId !== null ? { user_id: scope.userId } : {}),
        date: d.date,
        is_closed: d.closed,
        ...(d.closed ? {} : { intervals: [{ open_time: toApiTime(d.open), close_time: toApiTime(d.close) }] }),
        ...(d.note.trim() ? { note: d.note.trim() } : {}),
      },
      {
        onSuccess: () => {
          setStatus({ tone: 'success', text: `Added ${formatLongDate(d.date)}.` });
          setD(blank);
        },
        onError: (err) => setProblem(errorMessage(err)),
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
                <span className="dov-what">{o.is_closed ? 'Closed all day' : `${words.partly} ${intervalText(o)}`}</span>
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
        <form className="dov-form" onSubmit={submit} noValidate aria-label={words.add}>
          <div className="dov-grid">
            <TextField label="Date" id={`${id}-date`} type="date" min={today} value={d.date} onValueChange={(date) => set({ date })} />
            <TextField label="Note (optional)" id={`${id}-note`} maxLength={200} value={d.note} onValueChange={(note) => set({ note })} />
          </div>
          <label className="checkbox dov-closed">
            <input type="checkbox" checked={d.closed} onChange={(e) => set({ closed: e.target.checked })} />
            <span>Closed all day</span>
          </label>
          {!d.closed && (
            <div className="dov-grid">
              {(['open', 'close'] as const).map((field) => (
                <FormField key={field} label={`${words.partly} — ${field === 'open' ? 'start' : 'end'}`} id={`${id}-${field}`}>
                  <select className="select" value={d[field]} onChange={(e) => set({ [field]: e.target.value })}>
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
          )}
          {problem && <Alert tone="error">{problem}</Alert>}
          <button type="submit" className="btn btn-primary" disabled={add.isPending}>
            {add.isPending ? 'Adding...' : words.add}
          </button>
        </form>
      )}
    </div>
  );
}
