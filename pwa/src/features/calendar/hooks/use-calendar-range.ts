// Which view and days the staff calendar shows: the first view and date from the URL (else the
// list on phones, the week elsewhere), then whatever FullCalendar reports after each move, written
// back to the URL (?view=&date=) so a reload or a shared link opens the same place.
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { DatesSetArg } from '@fullcalendar/core';
import { addDays, wallFromCalendarDate } from '../../../lib/zoned-time.ts';
import type { AppointmentRange } from '../../../data/appointments.ts';

/** Our view names (in the URL and on the buttons) and FullCalendar's. */
export const VIEWS = {
  month: 'dayGridMonth',
  week: 'timeGridWeek',
  day: 'timeGridDay',
  list: 'listWeek',
} as const;
export type ViewKey = keyof typeof VIEWS;
export const VIEW_LABELS: Record<ViewKey, string> = { month: 'Month', week: 'Week', day: 'Day', list: 'List' };
const viewKeyOf = (type: string): ViewKey => (Object.entries(VIEWS).find(([, t]) => t === type)?.[0] as ViewKey) ?? 'week';

export const PHONE_QUERY = '(max-width: 639px)';

/** One of our view names (not merely a key some object has, such as 'toString'). */
function isView(v: string | null): v is ViewKey {
  return !!v && Object.hasOwn(VIEWS, v);
}

function isDate(v: string | null): v is string {
  return !!v && /^\d{4}-\d{2}-\d{2}$/.test(v);
}

/**
 * The days FullCalendar shows for `view` around `date`, as onDatesSet reports them: weeks start on
 * Sunday (its default), a month shows six whole weeks (fixedWeekCount), the list is a week's.
 */
export function visibleRange(view: ViewKey, date: string): AppointmentRange {
  if (view === 'day') return { start: date, end: date };
  const first = view === 'month' ? `${date.slice(0, 8)}01` : date;
  const start = addDays(first, -new Date(`${first}T00:00:00Z`).getUTCDay());
  return { start, end: addDays(start, view === 'month' ? 41 : 6) };
}

/**
 * The range a reload of this address opens on, when the address says it (?view=&date=, written
 * back after every move), so its appointments can be asked for before the calendar's code has
 * loaded; null when the opening day depends on the company's zone, known only later.
 */
export function openingRange(params: URLSearchParams): AppointmentRange | null {
  const view = params.get('view');
  const date = params.get('date');
  return isView(view) && isDate(date) ? visibleRange(view, date) : null;
}

export function useCalendarRange() {
  const [params, setParams] = useSearchParams();

  // The first view: the URL's, else the list on phones and the week elsewhere.
  const [initialView] = useState<ViewKey>(() => {
    const fromUrl = params.get('view');
    if (isView(fromUrl)) return fromUrl;
    return window.matchMedia(PHONE_QUERY).matches ? 'list' : 'week';
  });
  const [initialDate] = useState(() => (isDate(params.get('date')) ? params.get('date')! : undefined));

  const [view, setView] = useState<ViewKey>(initialView);
  const [title, setTitle] = useState('');
  /** The visible days (company-local), null until FullCalendar has rendered. */
  const [range, setRange] = useState<AppointmentRange | null>(null);

  /** Where FullCalendar says it is, for the address bar. */
  const [shown, setShown] = useState<{ view: ViewKey; date: string } | null>(null);

  const onDatesSet = useCallback((arg: DatesSetArg) => {
    const start = wallFromCalendarDate(arg.start).date;
    const end = addDays(wallFromCalendarDate(arg.end).date, -1);
    setRange((r) => (r && r.start === start && r.end === end ? r : { start, end }));
    setTitle(arg.view.title);
    const key = viewKeyOf(arg.view.type);
    setView(key);
    const date = wallFromCalendarDate(arg.view.currentStart).date;
    setShown((s) => (s && s.view === key && s.date === date ? s : { view: key, date }));
  }, []);

  // The address is written after React has committed, never from inside FullCalendar's callback:
  // FullCalendar reports its first dates while it mounts, before this component's effects have
  // run, and the router ignores a navigation made that early, so ?view=&date= were sometimes never
  // written.
  useEffect(() => {
    if (!shown || (params.get('view') === shown.view && params.get('date') === shown.date)) return;
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set('view', shown.view);
        next.set('date', shown.date);
        return next;
      },
      { replace: true },
    );
  }, [shown, params, setParams]);

  return { initialView, initialDate, view, title, range, onDatesSet };
}
