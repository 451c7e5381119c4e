// The company's opening hours per weekday, with breaks (docs/decisions/11-scheduling-rules-beyond-spec.md):
// a day may have several intervals. Setting both times of an interval saves it at once (the
// server creates or updates its row); clearing a time of a saved interval removes it; "Add break"
// splits the day's last hours around their middle and "Remove break" joins the hours either side.
// Each change shows immediately and is put back with a notice if the server refuses it.
import { useId, useState } from 'react';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { Loading } from '../../../components/loading.tsx';
import { WeeklyHoursGrid } from '../../../components/weekly-hours-grid.tsx';
import {
  EMPTY_DAY,
  FIX_ERRORS_TEXT,
  dayError,
  dayIntervalsError,
  dayName,
  joinAcrossBreak,
  openRowsOf,
  splitForBreak,
  toHHMM,
  weekFromRows,
  type DayHours,
} from '../../../components/weekly-hours.ts';
import type { Company } from '../../../data/companies.ts';
import { useCompanyHours, useSaveCompanyHours, type CompanyHoursChange } from '../../../data/operating-hours.ts';

/** Do two intervals share time (touching ends do not)? */
function overlaps(a: DayHours, b: DayHours): boolean {
  const m = (t: string, end = false) => {
    const [h, mm] = t.split(':').map(Number);
    const v = h * 60 + mm;
    return end && v === 0 ? 24 * 60 : v;
  };
  return m(a.open) < m(b.close, true) && m(b.open) < m(a.close, true);
}

export function CompanyHoursCard({ company }: { company: Company }) {
  const id = useId();
  const hours = useCompanyHours(company.id);
  const save = useSaveCompanyHours(company.id);
  /** Intervals being edited that are not complete yet (one time only, or end before start), by day and index. */
  const [drafts, setDrafts] = useState<Record<number, Record<number, DayHours>>>({});
  const [pending, setPending] = useState<Set<number>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);

  if (hours.isPending) return <Loading label="Loading opening hours..." />;
  if (hours.isError) return <Alert tone="error">{errorMessage(hours.error)}</Alert>;

  const rows = hours.data;
  const stored = weekFromRows(rows);
  const week: Record<number, DayHours[]> = {};
  const errors: Record<number, string> = {};
  for (const [key, list] of Object.entries(stored)) {
    const day = Number(key);
    const d = drafts[day] ?? {};
    const count = Math.max(list.length, ...Object.keys(d).map((i) => Number(i) + 1));
    week[day] = Array.from({ length: count }, (_, i) => d[i] ?? list[i] ?? EMPTY_DAY);
    if (Object.keys(d).length > 0) {
      const e = dayIntervalsError(day, week[day]);
      if (e) errors[day] = e;
    }
  }

  const markPending = (day: number, on: boolean) =>
    setPending((p) => {
      const next = new Set(p);
      if (on) next.add(day);
      else next.delete(day);
      return next;
    });

  const dropDraft = (day: number, index?: number) =>
    setDrafts((all) => {
      if (index === undefined) {
        const { [day]: _gone, ...rest } = all;
        return rest;
      }
      const { [index]: _gone, ...restOfDay } = all[day] ?? {};
      return { ...all, [day]: restOfDay };
    });

  const send = (change: CompanyHoursChange, what: string) => {
    const day = change.day;
    markPending(day, true);
    save.mutate(change, {
      onError: (err) => {
        console.warn(`Saving ${dayName(day)} hours failed`, err);
        setNotice(`Could not ${what} ${dayName(day)}'s hours: ${errorMessage(err)} The previous hours are back.`);
      },
      onSettled: () => markPending(day, false),
    });
  };

  const onChange = (day: number, index: number, next: DayHours) => {
    setNotice(null);
    // Rows stored as closed are a day without hours: only open rows are edited or removed.
    const open = openRowsOf(rows, day);
    const row = open[index];
    const others = week[day].filter((_, i) => i !== index);
    const complete = next.open && next.close && !dayError(day, next) && !others.some((o) => o.open && o.close && overlaps(o, next));
    if (complete) {
      dropDraft(day, index);
      if (!row) send(index === 0 && open.length === 0 ? { kind: 'set', day, hours: next } : { kind: 'add', day, hours: next }, 'save');
      else if (open.length === 1) {
        // The day's only hours: POST replaces them when the new ones overlap them (the server's
        // upsert); otherwise the row is changed in place, as a POST would add a second interval.
        const current = { open: toHHMM(row.open_time), close: toHHMM(row.close_time) };
        send(overlaps(current, next) ? { kind: 'set', day, hours: next } : { kind: 'update', day, row, hours: next }, 'save');
      } else send({ kind: 'update', day, row, hours: next }, 'save');
    } else if (row && (!next.open || !next.close)) {
      // Clearing a time of saved hours removes them (the day closes when they were its only hours).
      dropDraft(day, index);
      send({ kind: 'clear', day, row }, 'clear');
    } else if (!next.open && !next.close && !row && index === 0) {
      dropDraft(day, index);
    } else {
      setDrafts((all) => ({ ...all, [day]: { ...(all[day] ?? {}), [index]: next } }));
    }
  };

  const onAddBreak = (day: number) => {
    setNotice(null);
    const list = week[day];
    const last = list.length - 1;
    const row = openRowsOf(rows, day)[last];
    const parts = splitForBreak(list[last], company.time_increment_minutes);
    if (row && parts && !drafts[day]?.[last]) {
      send({ kind: 'split', day, row, first: parts[0], second: parts[1] }, 'save');
    } else {
      // Too short to split (or not saved yet): an empty interval to fill in after the break.
      setDrafts((all) => ({ ...all, [day]: { ...(all[day] ?? {}), [list.length]: EMPTY_DAY } }));
    }
  };

  const onRemove = (day: number, index: number) => {
    setNotice(null);
    const open = openRowsOf(rows, day);
    const [before, row] = [open[index - 1], open[index]];
    const edited = (i: number) => drafts[day]?.[i] !== undefined;
    dropDraft(day, index);
    // Both sides saved and not being edited (so filled in): the earlier row takes both; otherwise the
    // later hours just go.
    if (before && row && !edited(index - 1) && !edited(index))
      send({ kind: 'join', day, row: before, later: row, hours: joinAcrossBreak(week[day], index)[index - 1]! }, 'save');
    else if (row) send({ kind: 'clear', day, row }, 'remove');
  };

  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Opening hours</h2>
      <p className="cs-lead">
        Customers can book inside these hours ({company.timezone.replace(/_/g, ' ')} time). A day without hours is closed. Changes are saved
        as soon as both times of a day are set. Add break splits a day's hours, for lunch for example.
      </p>
      {notice && (
        <Alert tone="warn" onDismiss={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <WeeklyHoursGrid
        value={week}
        errors={errors}
        onChange={onChange}
        onAddBreak={onAddBreak}
        onRemove={onRemove}
        increment={company.time_increment_minutes}
        pendingDays={pending}
      />
      {Object.keys(errors).length > 0 && (
        <Alert tone="error" className="cs-hours-fix">
          {FIX_ERRORS_TEXT}
        </Alert>
      )}
    </section>
  );
}
