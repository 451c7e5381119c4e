// The staff calendar (SPEC.md section 2, "Calendar page"): FullCalendar month, week, day and list
// views with our own toolbar, the appointments of the visible range, the create/edit modal,
// and drag to move or resize through the same checked update as the modal.
//
// This is the only module that imports FullCalendar; calendar-page.tsx loads it lazily, so
// neither the public pages nor a customer's list download the library.
//
// Time zone: FullCalendar runs in 'UTC' mode and receives company-local wall times (see
// lib/zoned-time.ts); `now` is the company's current wall time, so "today" and the now-line are
// the company's, wherever the browser is.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import listPlugin from '@fullcalendar/list';
import interactionPlugin, { type DateClickArg, type EventResizeDoneArg } from '@fullcalendar/interaction';
import type { CalendarOptions, DatesSetArg, EventClickArg, EventDropArg, EventInput } from '@fullcalendar/core';
import { Alert } from '../../../components/alert.tsx';
import { Loading } from '../../../components/loading.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { newIdempotencyKey } from '../../../lib/api-client.ts';
import { STAFF_ROLES } from '../../../lib/api-types.ts';
import { useAppointments, APPOINTMENTS_KEY, type AppointmentRange } from '../api/get-appointments.ts';
import { useCompany } from '../api/get-company.ts';
import { useStaff } from '../api/get-users.ts';
import { companyDurationOptionsQuery } from '../api/get-company-duration-options.ts';
import { appointmentDurationOptionsQuery } from '../api/get-appointment-duration-options.ts';
import { updateAppointment } from '../api/update-appointment.ts';
import { describeWriteError } from '../appointment-errors.ts';
import { eventTitle } from '../appointment-text.ts';
import {
  addDays,
  browserZone,
  formatDate,
  formatWallTime,
  instantFromCalendarDate,
  isKnownZone,
  toWallIso,
  toWallTime,
  todayIn,
  wallFromCalendarDate,
} from '../../../lib/zoned-time.ts';
import type { CalendarAppointment } from '../types.ts';
import { AppointmentModal, type AppointmentModalInitial } from './appointment-modal.tsx';
import './staff-calendar.css';

const VIEWS = {
  month: 'dayGridMonth',
  week: 'timeGridWeek',
  day: 'timeGridDay',
  list: 'listWeek',
} as const;
type ViewKey = keyof typeof VIEWS;
const VIEW_LABELS: Record<ViewKey, string> = { month: 'Month', week: 'Week', day: 'Day', list: 'List' };
const viewKeyOf = (type: string): ViewKey => (Object.entries(VIEWS).find(([, t]) => t === type)?.[0] as ViewKey) ?? 'week';

const PHONE_QUERY = '(max-width: 639px)';
const PLUGINS = [dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin];
const EVENT_TIME_FORMAT = { hour: 'numeric', minute: '2-digit', meridiem: 'short' } as const;
const SLOT_LABEL_FORMAT = { hour: 'numeric', meridiem: 'short' } as const;
const VIEW_OPTIONS = {
  dayGridMonth: { displayEventEnd: false, eventTimeFormat: { hour: 'numeric', minute: '2-digit', meridiem: 'narrow' } },
  timeGridWeek: { displayEventEnd: false, eventMaxStack: 2 },
  timeGridDay: { eventMaxStack: 4 },
} as const;
/** Calendar dates are wall times in UTC fields (see lib/zoned-time.ts): format them in UTC. */
const WEEKDAY = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' });

/** Colours with white text at 4.5:1 or better; one per staff member, in id order. */
const STAFF_COLOURS = ['#0f766e', '#1d4ed8', '#7c3aed', '#b45309', '#be185d', '#15803d', '#0369a1', '#4338ca', '#9f1239', '#4d7c0f'];
const UNASSIGNED_COLOUR = '#475569';

function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mql = window.matchMedia(query);
    const onChange = () => setMatches(mql.matches);
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, [query]);
  return matches;
}

function isDate(v: string | null): v is string {
  return !!v && /^\d{4}-\d{2}-\d{2}$/.test(v);
}

export default function StaffCalendar() {
  const { user } = useAuth();
  const companyId = user?.company_id ?? null;
  const canEdit = !!user && STAFF_ROLES.includes(user.role);
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();

  const company = useCompany(companyId);
  const zone = isKnownZone(company.data?.timezone) ? company.data!.timezone : browserZone();
  const staff = useStaff(companyId);
  const companyDurations = useQuery(companyDurationOptionsQuery(companyId));
  const catalogue = useQuery(appointmentDurationOptionsQuery());

  // The first view: the URL's, else the list on phones and the week elsewhere.
  const [initialView] = useState<ViewKey>(() => {
    const fromUrl = params.get('view');
    if (fromUrl && fromUrl in VIEWS) return fromUrl as ViewKey;
    return window.matchMedia(PHONE_QUERY).matches ? 'list' : 'week';
  });
  const [initialDate] = useState(() => (isDate(params.get('date')) ? params.get('date')! : undefined));

  const isPhone = useMediaQuery(PHONE_QUERY);
  const calendarRef = useRef<FullCalendar>(null);
  const [view, setView] = useState<ViewKey>(initialView);
  const [title, setTitle] = useState('');
  const [range, setRange] = useState<AppointmentRange | null>(null);
  const [employeeFilter, setEmployeeFilter] = useState<string>('all');
  const [showCancelled, setShowCancelled] = useState(true);
  const [modal, setModal] = useState<{ open: boolean; initial?: AppointmentModalInitial }>({ open: false });
  const [moveMessage, setMoveMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const appointments = useAppointments(range, range !== null && company.isSuccess);

  // Dashboard's "Create Appointment" opens /calendar?new=1.
  useEffect(() => {
    if (params.get('new') === '1' && canEdit) {
      setModal({ open: true, initial: {} });
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.delete('new');
          return next;
        },
        { replace: true },
      );
    }
  }, [params, setParams, canEdit]);

  const staffColour = useMemo(() => {
    const map = new Map<number, string>();
    [...(staff.data ?? [])].sort((a, b) => a.id - b.id).forEach((s, i) => map.set(s.id, STAFF_COLOURS[i % STAFF_COLOURS.length]));
    return map;
  }, [staff.data]);

  const visible = useMemo(() => {
    let list = appointments.data ?? [];
    if (!showCancelled) list = list.filter((a) => a.status !== 'cancelled');
    if (employeeFilter === 'none') list = list.filter((a) => a.employee_id == null);
    else if (employeeFilter !== 'all') list = list.filter((a) => String(a.employee_id) === employeeFilter);
    return list;
  }, [appointments.data, showCancelled, employeeFilter]);

  const events = useMemo<EventInput[]>(
    () =>
      visible.map((a) => {
        const cancelled = a.status === 'cancelled';
        const colour = cancelled ? '#e2e8f0' : a.employee_id != null ? (staffColour.get(a.employee_id) ?? UNASSIGNED_COLOUR) : UNASSIGNED_COLOUR;
        return {
          id: String(a.id),
          title: eventTitle(a),
          start: toWallIso(a.start_time, zone),
          end: toWallIso(a.end_time, zone),
          backgroundColor: colour,
          borderColor: cancelled ? '#94a3b8' : colour,
          textColor: cancelled ? '#334155' : '#ffffff',
          classNames: cancelled ? ['appt-event', 'is-cancelled'] : ['appt-event'],
          editable: canEdit && !cancelled,
          extendedProps: { appointment: a },
        };
      }),
    [visible, zone, staffColour, canEdit],
  );

  // Show the working day, widened to any appointment outside it.
  const { slotMinTime, slotMaxTime } = useMemo(() => {
    let min = 7 * 60;
    let max = 21 * 60;
    for (const a of visible) {
      const s = toWallTime(a.start_time, zone);
      const e = toWallTime(a.end_time, zone);
      const sm = Number(s.time.slice(0, 2)) * 60 + Number(s.time.slice(3));
      const em = e.date !== s.date ? 24 * 60 : Number(e.time.slice(0, 2)) * 60 + Number(e.time.slice(3));
      min = Math.min(min, Math.floor(sm / 60) * 60);
      max = Math.max(max, Math.ceil(em / 60) * 60);
    }
    const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`;
    return { slotMinTime: hhmm(min), slotMaxTime: hhmm(Math.min(max, 24 * 60)) };
  }, [visible, zone]);

  const onDatesSet = useCallback(
    (arg: DatesSetArg) => {
      const start = wallFromCalendarDate(arg.start).date;
      const end = addDays(wallFromCalendarDate(arg.end).date, -1);
      setRange((r) => (r && r.start === start && r.end === end ? r : { start, end }));
      setTitle(arg.view.title);
      const key = viewKeyOf(arg.view.type);
      setView(key);
      const anchor = wallFromCalendarDate(arg.view.currentStart).date;
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.set('view', key);
          next.set('date', anchor);
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  const api = () => calendarRef.current?.getApi();

  const onDateClick = (arg: DateClickArg) => {
    if (!canEdit) return;
    const w = wallFromCalendarDate(arg.date);
    setModal({ open: true, initial: arg.allDay ? { date: w.date } : { date: w.date, time: w.time } });
  };

  const onEventClick = (arg: EventClickArg) => {
    arg.jsEvent.preventDefault();
    // FullCalendar's drag handling keeps a mouse click from focusing the event: focus it, so the
    // modal returns the focus here when it closes.
    arg.el.focus({ preventScroll: true });
    const appointment = arg.event.extendedProps.appointment as CalendarAppointment;
    if (canEdit) setModal({ open: true, initial: { appointment } });
  };

  // Drag and resize: the same checked update as the modal; a refusal puts the event back.
  const onMoved = async (arg: EventDropArg | EventResizeDoneArg, resized: boolean) => {
    const a = arg.event.extendedProps.appointment as CalendarAppointment;
    if (!arg.event.start) return arg.revert();
    const start = instantFromCalendarDate(arg.event.start, zone);
    const length = new Date(a.end_time).getTime() - new Date(a.start_time).getTime();
    const end = arg.event.end ? instantFromCalendarDate(arg.event.end, zone) : new Date(start.getTime() + length);
    const changes: Parameters<typeof updateAppointment>[2] = { start_time: start.toISOString(), end_time: end.toISOString() };
    if (resized) {
      const minutes = Math.round((end.getTime() - start.getTime()) / 60_000);
      const byId = new Map((catalogue.data ?? []).map((o) => [o.id, o.duration_minutes]));
      const offered = (companyDurations.data ?? []).map((r) => ({ id: r.appointment_duration_option_id, minutes: r.duration_minutes ?? byId.get(r.appointment_duration_option_id) }));
      changes.appointment_duration_option_id = offered.find((o) => o.minutes === minutes)?.id ?? null;
    }
    setMoveMessage(null);
    try {
      const saved = await updateAppointment(a.id, a.version, changes, newIdempotencyKey());
      // Keep the new position on screen until the refetch confirms it.
      queryClient.setQueriesData<CalendarAppointment[]>({ queryKey: APPOINTMENTS_KEY }, (list) =>
        Array.isArray(list) ? list.map((x) => (x.id === a.id ? { ...x, ...saved } : x)) : list,
      );
      const w = toWallTime(saved.start_time ?? changes.start_time!, zone);
      setMoveMessage({
        tone: 'success',
        text: `${resized ? 'Appointment resized' : 'Appointment moved'}: ${eventTitle({ ...a, ...saved })}, ${formatDate(w.date)} at ${formatWallTime(w.time)}.`,
      });
    } catch (err) {
      arg.revert();
      const p = describeWriteError(err, 'Failed to save appointment');
      const why =
        p.kind === 'changed'
          ? 'Someone else changed this appointment meanwhile; the calendar now shows the latest version.'
          : p.message;
      setMoveMessage({ tone: 'error', text: `The appointment was not ${resized ? 'resized' : 'moved'}. ${why}` });
    } finally {
      void queryClient.invalidateQueries({ queryKey: APPOINTMENTS_KEY });
    }
  };

  // FullCalendar re-renders its events whenever an option changes identity, which would replace
  // the element that opened the modal (and lose the focus to return to). Handlers therefore go
  // through a ref, and the options object changes only when what it shows changes.
  const handlers = useRef({ onDatesSet, onDateClick, onEventClick, onMoved, canEdit, zone });
  handlers.current = { onDatesSet, onDateClick, onEventClick, onMoved, canEdit, zone };
  // The opening date is today in the company's zone: fixed once the company has loaded (the calendar
  // itself only renders then), not on the first render, when only the browser's zone is known.
  const openingDate = useRef<string | null>(null);
  if (openingDate.current === null && (company.isSuccess || companyId === null || company.isError)) {
    openingDate.current = initialDate ?? todayIn(zone);
  }
  const initialCalendarDate = openingDate.current ?? initialDate ?? todayIn(zone);

  const calendarOptions = useMemo<CalendarOptions>(
    () => ({
      plugins: PLUGINS,
      initialView: VIEWS[initialView],
      initialDate: initialCalendarDate,
      timeZone: 'UTC',
      now: () => toWallIso(new Date(), handlers.current.zone),
      headerToolbar: false,
      height: 'auto',
      events,
      datesSet: (arg: DatesSetArg) => handlers.current.onDatesSet(arg),
      dateClick: (arg: DateClickArg) => handlers.current.onDateClick(arg),
      eventClick: (arg: EventClickArg) => handlers.current.onEventClick(arg),
      eventDrop: (arg: EventDropArg) => void handlers.current.onMoved(arg, false),
      eventResize: (arg: EventResizeDoneArg) => void handlers.current.onMoved(arg, true),
      editable: canEdit,
      eventStartEditable: canEdit,
      eventDurationEditable: canEdit,
      eventInteractive: true,
      snapDuration: '00:15:00',
      slotDuration: '00:30:00',
      slotMinTime,
      slotMaxTime,
      scrollTime: '08:00:00',
      allDaySlot: false,
      nowIndicator: true,
      navLinks: true,
      dayMaxEvents: 4,
      eventDisplay: 'block',
      displayEventEnd: true,
      views: VIEW_OPTIONS,
      eventLongPressDelay: 350,
      eventTimeFormat: EVENT_TIME_FORMAT,
      slotLabelFormat: SLOT_LABEL_FORMAT,
      dayHeaderContent: (arg) =>
        arg.view.type === VIEWS.week ? (
          <span className="cal-dh">
            <span className="cal-dh-wd">{WEEKDAY.format(arg.date)}</span>{' '}
            <span className="cal-dh-d">{arg.date.getUTCDate()}</span>
          </span>
        ) : (
          arg.text
        ),
      noEventsText: 'No appointments in this period.',
      eventDidMount: (info) => {
        const a = info.event.extendedProps.appointment as CalendarAppointment;
        const z = handlers.current.zone;
        const s = toWallTime(a.start_time, z);
        const e = toWallTime(a.end_time, z);
        const label = `${info.event.title}, ${formatDate(s.date)} ${formatWallTime(s.time)} to ${formatWallTime(e.time)}${
          a.employee_name ? `, with ${a.employee_name}` : ''
        }${a.status === 'cancelled' ? ', cancelled' : ''}`;
        info.el.setAttribute('title', label);
        info.el.setAttribute('aria-label', label);
        if (handlers.current.canEdit && info.el.tagName === 'A') info.el.setAttribute('role', 'button');
      },
      moreLinkContent: (arg) => (isPhone ? `+${arg.num}` : arg.text),
      moreLinkDidMount: (info) => {
        // FullCalendar marks this link aria-expanded; that needs the button role to be valid.
        info.el.setAttribute('role', 'button');
      },
    }),
    [initialView, initialCalendarDate, events, canEdit, slotMinTime, slotMaxTime, isPhone],
  );

  const failed = appointments.isError || staff.isError || company.isError;
  const firstLoad = !appointments.data && !failed;

  return (
    <section className="staff-calendar" aria-labelledby="calendar-title">
      <div className="cal-toolbar">
        <div className="cal-toolbar-top">
          <h2 id="calendar-title" className="cal-title" aria-live="polite">
            {title || 'Calendar'}
          </h2>
          <div className="cal-nav" role="group" aria-label="Move through the calendar">
            <button type="button" className="btn btn-secondary cal-icon-btn" onClick={() => api()?.prev()} aria-label="Previous">
              <span aria-hidden="true">‹</span>
            </button>
            <button type="button" className="btn btn-secondary cal-today" onClick={() => api()?.gotoDate(todayIn(zone))}>
              Today
            </button>
            <button type="button" className="btn btn-secondary cal-icon-btn" onClick={() => api()?.next()} aria-label="Next">
              <span aria-hidden="true">›</span>
            </button>
          </div>
        </div>
        <div className="cal-toolbar-row">
          <div className="cal-views" role="group" aria-label="View">
            {(Object.keys(VIEWS) as ViewKey[]).map((key) => (
              <button
                key={key}
                type="button"
                className={`cal-view-btn${view === key ? ' is-active' : ''}`}
                aria-pressed={view === key}
                onClick={() => api()?.changeView(VIEWS[key])}
              >
                {VIEW_LABELS[key]}
              </button>
            ))}
          </div>
          {canEdit && (
            <button type="button" className="btn btn-primary cal-create" onClick={() => setModal({ open: true, initial: {} })}>
              <span aria-hidden="true">+</span> Create Appointment
            </button>
          )}
        </div>
        <div className="cal-filters">
          <label className="cal-filter">
            <span>Staff</span>
            <select className="select" value={employeeFilter} onChange={(e) => setEmployeeFilter(e.target.value)}>
              <option value="all">Everyone</option>
              {(staff.data ?? []).map((s) => (
                <option key={s.id} value={String(s.id)}>
                  {s.name}
                </option>
              ))}
              <option value="none">No specific employee</option>
            </select>
          </label>
          <label className="checkbox cal-cancelled-toggle">
            <input type="checkbox" checked={showCancelled} onChange={(e) => setShowCancelled(e.target.checked)} />
            <span>Show cancelled</span>
          </label>
          {staff.data && staff.data.length > 0 && (
            <ul className="cal-legend" aria-label="Staff colours">
              {[...staff.data]
                .filter((s) => employeeFilter === 'all' || String(s.id) === employeeFilter)
                .map((s) => (
                  <li key={s.id}>
                    <span className="cal-swatch" style={{ background: staffColour.get(s.id) }} aria-hidden="true" />
                    {s.name}
                  </li>
                ))}
            </ul>
          )}
        </div>
        {zone !== browserZone() && (
          <p className="cal-zone">Times are in the company&apos;s time zone ({zone.replace(/_/g, ' ')}).</p>
        )}
      </div>

      {failed && (
        <Alert tone="error">
          Failed to fetch appointments or users.{' '}
          <button
            type="button"
            className="btn-link"
            onClick={() => {
              void appointments.refetch();
              void staff.refetch();
              void company.refetch();
            }}
          >
            Try again
          </button>
        </Alert>
      )}
      {moveMessage && (
        <Alert tone={moveMessage.tone} onDismiss={() => setMoveMessage(null)}>
          {moveMessage.text}
        </Alert>
      )}
      {firstLoad && <Loading label="Loading appointments..." />}
      {appointments.isFetching && appointments.data && (
        <p className="cal-refreshing" role="status">
          Loading appointments...
        </p>
      )}

      <div className={`cal-frame cal-view-${view}${firstLoad ? ' is-loading' : ''}`}>
        {company.isPending && companyId !== null ? null : (
          <FullCalendar ref={calendarRef} {...calendarOptions} />
        )}
      </div>

      <AppointmentModal
        open={modal.open}
        initial={modal.initial}
        onClose={() => setModal((m) => ({ ...m, open: false }))}
      />
    </section>
  );
}
