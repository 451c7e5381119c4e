// The staff calendar (docs/product/02-screens.md, "Calendar page"): FullCalendar month, week, day and list
// views with our own toolbar, the appointments of the visible range, the create/edit modal,
// and drag to move or resize through the same checked update as the modal.
//
// This is the only module that imports FullCalendar; calendar-page.tsx loads it lazily, so
// neither the public pages nor a customer's list download the library.
//
// Time zone: FullCalendar runs in 'UTC' mode and receives company-local wall times (see
// lib/zoned-time.ts); `now` is the company's current wall time, so "today" and the now-line are
// the company's, wherever the browser is.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import listPlugin from '@fullcalendar/list';
import interactionPlugin, { type DateClickArg, type EventResizeDoneArg } from '@fullcalendar/interaction';
import type { CalendarOptions, DatesSetArg, EventClickArg, EventDropArg } from '@fullcalendar/core';
import { Alert } from '../../../components/alert.tsx';
import { Loading } from '../../../components/loading.tsx';
import { openAttentionTray } from '../../../components/offline/attention-tray.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { STAFF_ROLES, useStaff } from '../../../data/users.ts';
import { browserZone, isKnownZone, toWallIso, todayIn, wallFromCalendarDate } from '../../../lib/zoned-time.ts';
import { useAppointments, type Appointment } from '../../../data/appointments.ts';
import { useCompany } from '../../../data/companies.ts';
import { labelEventElement, needsAttention, slotBounds, staffColours, toEvents, visibleAppointments } from '../calendar-events.ts';
import { PHONE_QUERY, VIEWS, VIEW_LABELS, useCalendarRange, type ViewKey } from '../hooks/use-calendar-range.ts';
import { useMediaQuery } from '../hooks/use-media-query.ts';
import { useMoveAppointment } from '../hooks/use-move-appointment.ts';
import type { AppointmentModalInitial } from '../appointment-values.ts';
import { AppointmentModal } from './appointment-modal.tsx';
import './staff-calendar.css';

const PLUGINS = [dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin];
const EVENT_TIME_FORMAT = { hour: 'numeric', minute: '2-digit', meridiem: 'short' } as const;
const SLOT_LABEL_FORMAT = { hour: 'numeric', meridiem: 'short' } as const;
const VIEW_OPTIONS = {
  dayGridMonth: { displayEventEnd: false, eventTimeFormat: { hour: 'numeric', minute: '2-digit', meridiem: 'narrow' } },
  // Side by side, never drawn over each other: an appointment half hidden under another showed
  // neither's name. What does not fit goes into the "+N" link.
  timeGridWeek: { displayEventEnd: false, eventMaxStack: 2, slotEventOverlap: false },
  timeGridDay: { eventMaxStack: 4, slotEventOverlap: false },
} as const;
/** A phone's week has columns of about 45 px: one appointment and the "+N" beside it. */
const PHONE_VIEW_OPTIONS = { ...VIEW_OPTIONS, timeGridWeek: { ...VIEW_OPTIONS.timeGridWeek, eventMaxStack: 1 } } as const;
/** Calendar dates are wall times in UTC fields (see lib/zoned-time.ts): format them in UTC. */
const WEEKDAY = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' });

export default function StaffCalendar() {
  const { user } = useAuth();
  const companyId = user?.company_id ?? null;
  const canEdit = !!user && STAFF_ROLES.includes(user.role);
  const [params, setParams] = useSearchParams();

  const company = useCompany(companyId);
  const zone = isKnownZone(company.data?.timezone) ? company.data!.timezone : browserZone();
  const staff = useStaff(companyId);
  const { initialView, initialDate, view, title, range, onDatesSet } = useCalendarRange();
  const move = useMoveAppointment(companyId, zone);

  const isPhone = useMediaQuery(PHONE_QUERY);
  const calendarRef = useRef<FullCalendar>(null);
  const [employeeFilter, setEmployeeFilter] = useState<string>('all');
  const [showCancelled, setShowCancelled] = useState(true);
  const [modal, setModal] = useState<{ open: boolean; initial?: AppointmentModalInitial }>({ open: false });

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

  const staffColour = useMemo(() => staffColours(staff.data ?? []), [staff.data]);
  const visible = useMemo(
    () => visibleAppointments(appointments.data ?? [], employeeFilter, showCancelled),
    [appointments.data, showCancelled, employeeFilter],
  );
  const events = useMemo(() => toEvents(visible, zone, staffColour, canEdit), [visible, zone, staffColour, canEdit]);
  // Event elements and their appointment ids: FullCalendar keeps an element when its event changes
  // in place, so the labels are renewed from the current appointments after each change.
  const eventEls = useRef(new Map<HTMLElement, number>());
  useEffect(() => {
    const byId = new Map(visible.map((a) => [a.id, a]));
    for (const [el, id] of eventEls.current) {
      const a = byId.get(id);
      if (a) labelEventElement(el, a, zone);
    }
  }, [visible, zone]);
  // Show the working day, widened to any appointment outside it.
  const { slotMinTime, slotMaxTime } = useMemo(() => slotBounds(visible, zone), [visible, zone]);

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
    const appointment = arg.event.extendedProps.appointment as Appointment;
    // Refused by the server: settled by its choices in "Needs attention", not edited again here (an
    // edit would queue behind the refused change). Deleted on this device and waiting to sync:
    // nothing left to edit.
    if (needsAttention(appointment)) openAttentionTray();
    else if (canEdit && !appointment.deleting) setModal({ open: true, initial: { appointment } });
  };

  // FullCalendar re-renders its events whenever an option changes identity, which would replace
  // the element that opened the modal (and lose the focus to return to). Handlers therefore go
  // through a ref, and the options object changes only when what it shows changes.
  const handlers = useRef({ onDatesSet, onDateClick, onEventClick, onMoved: move.onMoved, canEdit, zone });
  handlers.current = { onDatesSet, onDateClick, onEventClick, onMoved: move.onMoved, canEdit, zone };
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
      views: isPhone ? PHONE_VIEW_OPTIONS : VIEW_OPTIONS,
      eventLongPressDelay: 350,
      eventTimeFormat: EVENT_TIME_FORMAT,
      slotLabelFormat: SLOT_LABEL_FORMAT,
      // An element in every view: FullCalendar keeps a header cell's DOM when the view changes, and
      // moving from an element to plain text left the week's parts beside the day's ("WEDWednesday 2").
      dayHeaderContent: (arg) =>
        arg.view.type === VIEWS.week ? (
          <span className="cal-dh">
            <span className="cal-dh-wd">{WEEKDAY.format(arg.date)}</span> <span className="cal-dh-d">{arg.date.getUTCDate()}</span>
          </span>
        ) : (
          <span>{arg.text}</span>
        ),
      // The list's day headers go through dayHeaderContent's text, which is only the main format:
      // the date goes in it ("Monday, November 30"), or the list said "Monday" alone.
      listDayFormat: { weekday: 'long', month: 'long', day: 'numeric' },
      listDaySideFormat: false,
      noEventsText: 'No appointments in this period.',
      eventDidMount: (info) => {
        const a = info.event.extendedProps.appointment as Appointment;
        eventEls.current.set(info.el, a.id);
        labelEventElement(info.el, a, handlers.current.zone);
        if (handlers.current.canEdit && info.el.tagName === 'A') info.el.setAttribute('role', 'button');
      },
      eventWillUnmount: (info) => void eventEls.current.delete(info.el),
      // The week and day grids keep the link in a narrow gutter of its own (staff-calendar.css): "+2".
      moreLinkContent: (arg) => (isPhone || arg.view.type !== VIEWS.month ? arg.shortText : arg.text),
      moreLinkDidMount: (info) => {
        // FullCalendar marks this link aria-expanded; that needs the button role to be valid.
        info.el.setAttribute('role', 'button');
        info.el.setAttribute('aria-label', `${info.num} more appointment${info.num === 1 ? '' : 's'}`);
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
        {zone !== browserZone() && <p className="cal-zone">Times are in the company&apos;s time zone ({zone.replace(/_/g, ' ')}).</p>}
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
      {move.message && (
        <Alert tone={move.message.tone} onDismiss={move.dismissMessage}>
          {move.message.text}
        </Alert>
      )}
      {firstLoad && <Loading label="Loading appointments..." />}
      {appointments.isFetching && appointments.data && (
        <p className="cal-refreshing" role="status">
          Loading appointments...
        </p>
      )}

      <div className={`cal-frame cal-view-${view}${firstLoad ? ' is-loading' : ''}`}>
        {company.isPending && companyId !== null ? null : <FullCalendar ref={calendarRef} {...calendarOptions} />}
      </div>

      <AppointmentModal open={modal.open} initial={modal.initial} onClose={() => setModal((m) => ({ ...m, open: false }))} />
    </section>
  );
}
