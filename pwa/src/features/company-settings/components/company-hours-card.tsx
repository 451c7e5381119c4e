// The company's opening hours per weekday. Setting both times of a day saves it at once (the
// server creates or updates the row); clearing a time of a saved day removes that day's hours.
// Each change shows immediately and is put back with a notice if the server refuses it.
import { useId, useState } from 'react';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { Loading } from '../../../components/loading.tsx';
import { WeeklyHoursGrid } from '../../../components/weekly-hours-grid.tsx';
import { FIX_ERRORS_TEXT, dayError, dayName, isClosedRow, weekFromRows, type DayHours } from '../../../components/weekly-hours.ts';
import type { Company } from '../../../data/companies.ts';
import { useCompanyHours, useSaveCompanyHours } from '../../../data/operating-hours.ts';

export function CompanyHoursCard({ company }: { company: Company }) {
  const id = useId();
  const hours = useCompanyHours(company.id);
  const save = useSaveCompanyHours(company.id);
  /** Days being edited that are not complete yet (one time only, or end before start). */
  const [drafts, setDrafts] = useState<Record<number, DayHours>>({});
  const [pending, setPending] = useState<Set<number>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);

  if (hours.isPending) return <Loading label="Loading opening hours..." />;
  if (hours.isError) return <Alert tone="error">{errorMessage(hours.error)}</Alert>;

  const rows = hours.data;
  const week = { ...weekFromRows(rows), ...drafts };
  const errors: Record<number, string> = {};
  for (const [day, h] of Object.entries(drafts)) {
    const e = dayError(Number(day), h);
    if (e) errors[Number(day)] = e;
  }

  const markPending = (day: number, on: boolean) =>
    setPending((p) => {
      const next = new Set(p);
      if (on) next.add(day);
      else next.delete(day);
      return next;
    });

  const dropDraft = (day: number) =>
    setDrafts((d) => {
      const { [day]: _gone, ...rest } = d;
      return rest;
    });

  const onChange = (day: number, next: DayHours) => {
    setNotice(null);
    // A row stored as closed is a day without hours: only open rows are removed by clearing a time.
    const row = rows.find((r) => r.day_of_week === day && !isClosedRow(r));
    const complete = next.open && next.close && !dayError(day, next);
    if (complete) {
      dropDraft(day);
      markPending(day, true);
      save.mutate(
        { kind: 'set', day, hours: next },
        {
          onError: (err) => {
            console.warn(`Saving ${dayName(day)} hours failed`, err);
            setNotice(`Could not save ${dayName(day)}'s hours: ${errorMessage(err)} The previous hours are back.`);
          },
          onSettled: () => markPending(day, false),
        },
      );
    } else if (row && (!next.open || !next.close)) {
      // Clearing a time of a saved day closes that day.
      dropDraft(day);
      markPending(day, true);
      save.mutate(
        { kind: 'clear', day, row },
        {
          onError: (err) => {
            console.warn(`Clearing ${dayName(day)} hours failed`, err);
            setNotice(`Could not clear ${dayName(day)}'s hours: ${errorMessage(err)} The previous hours are back.`);
          },
          onSettled: () => markPending(day, false),
        },
      );
    } else if (!next.open && !next.close) {
      dropDraft(day);
    } else {
      setDrafts((d) => ({ ...d, [day]: next }));
    }
  };

  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Opening hours</h2>
      <p className="cs-lead">
        Customers can book inside these hours ({company.timezone.replace(/_/g, ' ')} time). A day without hours is closed. Changes are saved
        as soon as both times of a day are set.
      </p>
      {notice && (
        <Alert tone="warn" onDismiss={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <WeeklyHoursGrid value={week} errors={errors} onChange={onChange} increment={company.time_increment_minutes} pendingDays={pending} />
      {Object.keys(errors).length > 0 && (
        <Alert tone="error" className="cs-hours-fix">
          {FIX_ERRORS_TEXT}
        </Alert>
      )}
    </section>
  );
}
