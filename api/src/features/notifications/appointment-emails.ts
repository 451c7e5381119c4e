// The customer's booking emails (confirmation, reschedule, cancellation) with their iCalendar invitation,
// queued through the outbox inside the transaction that changed the appointment.
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { DbOrTx } from '@bookwell/db';
import { enqueueEmail, type Attachment } from './outbox.repository.ts';

export type AppointmentEmailKind = 'confirmation' | 'reschedule' | 'cancellation';

export interface AppointmentEmailInput {
  kind: AppointmentEmailKind;
  appointment: { id: number; start_time: string; end_time: string; version: number; description: string | null };
  /** The start before a reschedule, so the notice can say what moved. */
  previousStart?: string | null;
  company: { id: number; name: string; email: string | null; timezone: string };
  serviceNames: string[];
  customer: { name: string; email: string };
  employeeName?: string | null;
  /** APP_URL: its host names the calendar UID. */
  appUrl: string;
  /** MAIL_FROM: the organiser's address when the business has no email of its own. */
  mailFrom: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  attachments: Attachment[];
}

/** 'Tuesday, 24 November 2026 at 9:30 AM (Europe/London)': the time as people there read it. */
// One formatter per zone: building an Intl.DateTimeFormat (or a luxon DateTime) per email was a
// twentieth of a booking's cost.
const peopleFormats = new Map<string, Intl.DateTimeFormat>();

export function formatForPeople(iso: string, timezone: string): string {
  let f = peopleFormats.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    });
    if (peopleFormats.size > 500) peopleFormats.clear();
    peopleFormats.set(timezone, f);
  }
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of f.formatToParts(new Date(iso))) part[p.type] = p.value;
  return `${part.weekday}, ${part.day} ${part.month} ${part.year} at ${part.hour}:${part.minute} ${part.dayPeriod} (${timezone})`;
}

/** A calendar UID that stays the same for the whole life of the appointment, so updates replace the event. */
export function appointmentUid(appointmentId: number, appUrl: string): string {
  let host = 'bookwell.local';
  try {
    host = new URL(appUrl).hostname || host;
  } catch {
    /* keep the default */
  }
  return `appointment-${appointmentId}@${host}`;
}

function addressOf(from: string): string {
  const m = /<([^>]+)>/.exec(from);
  return (m ? m[1] : from).trim();
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

/**
 * The invitation: METHOD:REQUEST (SEQUENCE = the appointment's version, rising with every change) or,
 * for a cancellation, METHOD:CANCEL with the same UID, so calendar apps update or remove one event.
 */
export function appointmentIcs(input: AppointmentEmailInput, now: Date): string {
  const cancel = input.kind === 'cancellation';
  const organizerEmail = input.company.email || addressOf(input.mailFrom);
  const cal = ical({
    prodId: { company: 'Bookwell', product: 'Bookwell', language: 'EN' },
    method: cancel ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  const services = input.serviceNames.length ? input.serviceNames.join(', ') : 'Appointment';
  cal.createEvent({
    id: appointmentUid(input.appointment.id, input.appUrl),
    sequence: input.appointment.version,
    stamp: now,
    start: new Date(input.appointment.start_time),
    end: new Date(input.appointment.end_time),
    summary: `${services} at ${input.company.name}`,
    description: input.appointment.description ?? undefined,
    status: cancel ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: input.company.name, email: organizerEmail },
    attendees: [
      {
        name: input.customer.name,
        email: input.customer.email,
        rsvp: false,
        role: ICalAttendeeRole.REQ,
        status: cancel ? ICalAttendeeStatus.DECLINED : ICalAttendeeStatus.ACCEPTED,
      },
    ],
  });
  return cal.toString();
}

export function appointmentEmailSubject(input: AppointmentEmailInput): string {
  const services = input.serviceNames.length ? input.serviceNames.join(', ') : 'Appointment';
  const what =
    input.kind === 'confirmation' ? 'Booking confirmed' : input.kind === 'reschedule' ? 'Appointment moved' : 'Appointment cancelled';
  return `${what}: ${services} at ${input.company.name}`;
}

export function renderAppointmentEmail(input: AppointmentEmailInput, now: Date): RenderedEmail {
  const { company, appointment, customer } = input;
  const tz = company.timezone;
  const when = formatForPeople(appointment.start_time, tz);
  const services = input.serviceNames.length ? input.serviceNames.join(', ') : 'Appointment';
  const minutes = Math.round((Date.parse(appointment.end_time) - Date.parse(appointment.start_time)) / 60_000);
  const contact = company.email
    ? `To change or cancel it, contact ${company.name} at ${company.email}.`
    : `To change or cancel it, contact ${company.name}.`;

  const subject = appointmentEmailSubject(input);
  const intro =
    input.kind === 'confirmation'
      ? `Your appointment at ${company.name} is booked.`
      : input.kind === 'reschedule'
        ? `Your appointment at ${company.name} has moved to a new time.`
        : `Your appointment at ${company.name} has been cancelled.`;

  const lines: [string, string][] = [
    ['What', services],
    ['When', when],
  ];
  if (input.kind !== 'cancellation') lines.push(['Duration', `${minutes} minutes`]);
  if (input.kind === 'reschedule' && input.previousStart) lines.push(['Previously', formatForPeople(input.previousStart, tz)]);
  if (input.employeeName) lines.push(['With', input.employeeName]);
  if (appointment.description && input.kind !== 'cancellation') lines.push(['Notes', appointment.description]);

  const closing =
    input.kind === 'cancellation'
      ? `If this is a mistake or you would like a new time, contact ${company.name}${company.email ? ` at ${company.email}` : ''}.`
      : `${contact}\nThe attached invitation adds it to your calendar.`;

  const text = [`Hello ${customer.name},`, '', intro, '', ...lines.map(([k, v]) => `${k}: ${v}`), '', closing, '', company.name, ''].join(
    '\n',
  );

  const html = [
    `<p>Hello ${escapeHtml(customer.name)},</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    '<table>',
    ...lines.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`),
    '</table>',
    ...closing.split('\n').map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p>${escapeHtml(company.name)}</p>`,
  ].join('\n');

  const method = input.kind === 'cancellation' ? 'CANCEL' : 'REQUEST';
  return {
    subject,
    text,
    html,
    attachments: [
      {
        filename: input.kind === 'cancellation' ? 'cancellation.ics' : 'invite.ics',
        contentType: `text/calendar; charset=utf-8; method=${method}`,
        content: appointmentIcs(input, now),
      },
    ],
  };
}

interface AppointmentRender {
  template: 'appointment';
  input: AppointmentEmailInput;
  /** The moment of the change (the invitation's DTSTAMP). */
  at: string;
}

/**
 * Queues the email in the caller's transaction; the caller nudges the dispatcher after commit. The
 * row holds a snapshot of everything the email says (the appointment as this transaction wrote
 * it), and the dispatcher renders it when sending: text, HTML and invitation are the same as if
 * rendered now, but the work (a tenth of a booking) is done outside the write lock.
 */
export async function queueAppointmentEmail(db: DbOrTx, input: AppointmentEmailInput, now: Date): Promise<void> {
  const render: AppointmentRender = { template: 'appointment', input, at: now.toISOString() };
  await enqueueEmail(
    db,
    {
      to: input.customer.email,
      // The kind names of DECISIONS 10 (the admins' message list filters on them).
      kind: input.kind,
      companyId: input.company.id,
      appointmentId: input.appointment.id,
      subject: appointmentEmailSubject(input),
      text: '',
      render: JSON.stringify(render),
    },
    now,
  );
}

/** The email an outbox row's `render` snapshot describes; throws on a snapshot it cannot read. */
export function renderQueuedEmail(render: string): RenderedEmail {
  const r = JSON.parse(render) as AppointmentRender;
  if (r?.template !== 'appointment' || !r.input || typeof r.at !== 'string') throw new Error('unknown outbox render snapshot');
  return renderAppointmentEmail(r.input, new Date(r.at));
}
