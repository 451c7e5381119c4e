// From appointments to what FullCalendar draws: which ones are shown, each one's colour, title and
// label, and the hours the week and day views span. Pure functions, no React, no FullCalendar.
import type { EventInput } from '@fullcalendar/core';
import { formatDate, formatWallTime, toWallIso, toWallTime } from '../../lib/zoned-time.ts';
import { eventTitle } from '../../components/appointment-text.ts';
import type { Appointment } from '../../data/appointments.ts';

/** Colours with white text at 4.5:1 or better; one per staff member, in id order. */
export const STAFF_COLOURS = ['#0f766e', '#1d4ed8', '#7c3aed', '#b45309', '#be185d', '#15803d', '#0369a1', '#4338ca', '#9f1239', '#4d7c0f'];
export const UNASSIGNED_COLOUR = '#475569';

/** Each staff member's colour: the palette in id order, so a colour stays with a person whatever the sort. */
export function staffColours(staff: { id: number }[]): Map<number, string> {
  const map = new Map<number, string>();
  [...staff].sort((a, b) => a.id - b.id).forEach((s, i) => map.set(s.id, STAFF_COLOURS[i % STAFF_COLOURS.length]));
  return map;
}

/** `employeeFilter`: 'all', 'none' (no specific employee) or an employee id. */
export function visibleAppointments(list: Appointment[], employeeFilter: string, showCancelled: boolean): Appointment[] {
  let shown = list;
  if (!showCancelled) shown = shown.filter((a) => a.status !== 'cancelled');
  if (employeeFilter === 'none') shown = shown.filter((a) => a.employee_id == null);
  else if (employeeFilter !== 'all') shown = shown.filter((a) => String(a.employee_id) === employeeFilter);
  return shown;
}

/** True when the server refused this device's change to the appointment: it waits in "Needs attention". */
export function needsAttention(a: Appointment): boolean {
  return a.needsAttention === true;
}

/**
 * True while the appointment has changes on this device the server has not received yet, and has
 * not refused: a refused change is marked "needs attention" instead (docs/decisions/08-offline-pwa.md).
 */
export function isPending(a: Appointment): boolean {
  return a.pending === true && !needsAttention(a);
}

/** The event's classes: cancelled, waiting to sync, or needs attention. */
function eventClasses(a: Appointment): string[] {
  return [
    'appt-event',
    ...(a.status === 'cancelled' ? ['is-cancelled'] : []),
    ...(isPending(a) ? ['is-pending'] : []),
    ...(a.deleting ? ['is-deleting'] : []),
    ...(needsAttention(a) ? ['needs-attention'] : []),
  ];
}

/** FullCalendar events at the company's wall times; the appointment rides along in extendedProps. */
export function toEvents(list: Appointment[], zone: string, colours: Map<number, string>, canEdit: boolean): EventInput[] {
  return list.map((a) => {
    const cancelled = a.status === 'cancelled';
    const colour = cancelled ? '#e2e8f0' : a.employee_id != null ? (colours.get(a.employee_id) ?? UNASSIGNED_COLOUR) : UNASSIGNED_COLOUR;
    return {
      id: String(a.id),
      title: eventTitle(a),
      start: toWallIso(a.start_time, zone),
      end: toWallIso(a.end_time, zone),
      backgroundColor: colour,
      borderColor: cancelled ? '#94a3b8' : colour,
      textColor: cancelled ? '#334155' : '#ffffff',
      classNames: eventClasses(a),
      // A refused change is settled in "Needs attention" (a move would queue behind it).
      editable: canEdit && !cancelled && !a.deleting && !needsAttention(a),
      extendedProps: { appointment: a },
    };
  });
}

/** The hours the time grid shows: the working day (7:00 to 21:00), widened to whole hours around any appointment outside it. */
export function slotBounds(list: Appointment[], zone: string): { slotMinTime: string; slotMaxTime: string } {
  let min = 7 * 60;
  let max = 21 * 60;
  for (const a of list) {
    const s = toWallTime(a.start_time, zone);
    const e = toWallTime(a.end_time, zone);
    const sm = Number(s.time.slice(0, 2)) * 60 + Number(s.time.slice(3));
    const em = e.date !== s.date ? 24 * 60 : Number(e.time.slice(0, 2)) * 60 + Number(e.time.slice(3));
    min = Math.min(min, Math.floor(sm / 60) * 60);
    max = Math.max(max, Math.ceil(em / 60) * 60);
  }
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`;
  return { slotMinTime: hhmm(min), slotMaxTime: hhmm(Math.min(max, 24 * 60)) };
}

/**
 * What an event says to a screen reader and in its tooltip: title, when, with whom, whether
 * cancelled, and whether waiting to sync or needing attention.
 */
export function eventLabel(title: string, a: Appointment, zone: string): string {
  const s = toWallTime(a.start_time, zone);
  const e = toWallTime(a.end_time, zone);
  return `${title}, ${formatDate(s.date)} ${formatWallTime(s.time)} to ${formatWallTime(e.time)}${
    a.employee_name ? `, with ${a.employee_name}` : ''
  }${a.status === 'cancelled' ? ', cancelled' : ''}${a.deleting ? ', deleted on this device' : ''}${isPending(a) ? ', waiting to sync' : ''}${
    needsAttention(a) ? ', needs attention' : ''
  }`;
}

/**
 * Gives an event's element the tooltip and accessible label of its appointment as it is now.
 * FullCalendar keeps an event's element when the event changes in place and runs eventDidMount
 * only once, so the calendar calls this again after each change (else the label describes the
 * old values).
 */
export function labelEventElement(el: HTMLElement, a: Appointment, zone: string): void {
  const label = eventLabel(eventTitle(a), a, zone);
  if (el.getAttribute('aria-label') === label && el.getAttribute('title') === label) return;
  el.setAttribute('title', label);
  el.setAttribute('aria-label', label);
}
