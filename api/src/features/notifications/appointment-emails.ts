// The customer's booking emails (confirmation, reschedule, cancellation) with their iCalendar invitation,
// queued through the outbox inside the transaction that changed the appointment.
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { DbOrTx } from '@bookwell/db';
import { issueManageNonce, manageToken, manageUrl } from '../../lib/manage-token.ts';
import { assignManageNonce } from '../self-service/self-service.repository.ts';
import { queueEmail, type Attachment } from './outbox.repository.ts';

export type AppointmentEmailKind = 'confirmation' | 'reschedule' | 'cancellation' | 'reminder' | 'staff_notice';

/** A staff notice (kind 'staff_notice'): what the customer did, told to the assigned employee (reminders.ts). */
export interface StaffNoticeDetails {
  change: 'booked' | 'rescheduled' | 'cancelled';
  /** The employee the notice goes to. */
  recipientName: string;
  customerPhone?: string | null;
}

export interface AppointmentEmailInput {
  kind: AppointmentEmailKind;
  appointment: { id: number; start_time: string; end_time: string; version: number; description: string | null };
  /** The start before a reschedule, so the notice can say what moved. */
  previousStart?: string | null;
  /** cancellation_notice_hours: absent from emails queued before it was recorded (then 0, as the setting's default). */
  company: { id: number; name: string; email: string | null; timezone: string; cancellation_notice_hours?: number };
  serviceNames: string[];
  customer: { name: string; email: string };
  employeeName?: string | null;
  /** APP_URL: its host names the calendar UID. */
  appUrl: string;
  /** MAIL_FROM: the organiser's address when the business has no email of its own. */
  mailFrom: string;
  /** Only for kind 'staff_notice'. */
  staffNotice?: StaffNoticeDetails;
  /**
   * The appointment's self-service nonce: the dispatcher turns it into the customer's manage link
   * when it sends (docs/decisions/23-self-service.md); the link itself is never stored.
   */
  manageNonce?: string | null;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  attachments: Attachment[];
  /** The same text and HTML without the personal manage link: what the outbox row keeps after sending. */
  record?: { text: string; html: string };
}

/** The customer's emails about an appointment they can still change carry the manage link (docs/decisions/09-customer-self-service.md). */
function carriesManageLink(kind: string): boolean {
  return kind === 'confirmation' || kind === 'reschedule' || kind === 'reminder';
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
  if (input.kind === 'reminder') return `Reminder: ${services} at ${input.company.name}`;
  if (input.kind === 'staff_notice') return staffNoticeSubject(input, services);
  const what =
    input.kind === 'confirmation' ? 'Booking confirmed' : input.kind === 'reschedule' ? 'Appointment moved' : 'Appointment cancelled';
  return `${what}: ${services} at ${input.company.name}`;
}

/**
 * `now` is when the email was queued (its invitation's stamp); `sendingAt`, when it goes out (a
 * reminder goes days later), decides whether the manage link can still change the appointment.
 */
export function renderAppointmentEmail(
  input: AppointmentEmailInput,
  now: Date,
  manageLink?: string | null,
  sendingAt: Date = now,
): RenderedEmail {
  if (input.kind === 'staff_notice') return renderStaffNotice(input);
  const { company, appointment, customer } = input;
  const tz = company.timezone;
  const when = formatForPeople(appointment.start_time, tz);
  const services = input.serviceNames.length ? input.serviceNames.join(', ') : 'Appointment';
  const minutes = Math.round((Date.parse(appointment.end_time) - Date.parse(appointment.start_time)) / 60_000);
  // With the manage link the customer changes or cancels it themselves (docs/decisions/23-self-service.md);
  // rendered without the link key, they are told to contact the business.
  const link = manageLink && carriesManageLink(input.kind) ? manageLink : null;
  const reach = `${company.name}${company.email ? ` at ${company.email}` : ''}`;
  // Past the company's notice the link only shows the appointment: promising changes there sent
  // the customer to a page that refused them.
  const changesUntil = Date.parse(appointment.start_time) - (company.cancellation_notice_hours ?? 0) * 3_600_000;
  const contact = !link
    ? `To change or cancel it, contact ${reach}.`
    : sendingAt.getTime() < changesUntil
      ? `To change or cancel it, open your booking page (no account needed):\n${link}\nFor anything else, contact ${reach}.`
      : `Your booking page (no account needed):\n${link}\nIt is too late to change or cancel it online: to do so, contact ${reach}.`;

  const subject = appointmentEmailSubject(input);
  const intro =
    input.kind === 'confirmation'
      ? `Your appointment at ${company.name} is booked.`
      : input.kind === 'reschedule'
        ? `Your appointment at ${company.name} has moved to a new time.`
        : input.kind === 'reminder'
          ? `This is a reminder of your appointment at ${company.name}.`
          : `Your appointment at ${company.name} has been cancelled.`;

  const lines: [string, string][] = [
    ['What', services],
    ['When', when],
  ];
  if (input.kind !== 'cancellation') lines.push(['Duration', `${minutes} minutes`]);
  if (input.kind === 'reschedule' && input.previousStart) lines.push(['Previously', formatForPeople(input.previousStart, tz)]);
  if (input.employeeName) lines.push(['With', input.employeeName]);
  if (appointment.description && input.kind !== 'cancellation') lines.push(['Notes', appointment.description]);

  // The reminder carries the same change-or-cancel sentence as the confirmation (where the manage
  // link goes), but no invitation: the confirmation already put the event in the calendar.
  const closing =
    input.kind === 'cancellation'
      ? `If this is a mistake or you would like a new time, contact ${company.name}${company.email ? ` at ${company.email}` : ''}.`
      : input.kind === 'reminder'
        ? contact
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
    ...closing.split('\n').map((l) => (l === link ? `<p><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></p>` : `<p>${escapeHtml(l)}</p>`)),
    `<p>${escapeHtml(company.name)}</p>`,
  ].join('\n');

  // The outbox row keeps the body without the link: a stored link would be a stored token.
  const hidden = `${manageUrl(input.appUrl, '')}(personal link, not kept)`;
  const record = link ? { text: text.split(link).join(hidden), html: html.split(escapeHtml(link)).join(escapeHtml(hidden)) } : undefined;
  const method = input.kind === 'cancellation' ? 'CANCEL' : 'REQUEST';
  if (input.kind === 'reminder') return { subject, text, html, attachments: [], record };
  return {
    subject,
    text,
    html,
    record,
    attachments: [
      {
        filename: input.kind === 'cancellation' ? 'cancellation.ics' : 'invite.ics',
        contentType: `text/calendar; charset=utf-8; method=${method}`,
        content: appointmentIcs(input, now),
      },
    ],
  };
}

function staffNoticeSubject(input: AppointmentEmailInput, services: string): string {
  const change = input.staffNotice?.change ?? 'booked';
  const what = change === 'booked' ? 'New booking' : change === 'rescheduled' ? 'Booking moved' : 'Booking cancelled';
  return `${what}: ${services} with ${input.customer.name}`;
}

/**
 * The assigned employee's notice of a customer's booking, move or cancellation (docs/decisions/22-messaging.md).
 * No invitation: the customer is the attendee of the appointment's calendar event, and staff follow their
 * calendar in the app or through their feed.
 */
function renderStaffNotice(input: AppointmentEmailInput): RenderedEmail {
  const { company, appointment, customer } = input;
  const notice = input.staffNotice ?? { change: 'booked' as const, recipientName: 'there' };
  const tz = company.timezone;
  const services = input.serviceNames.length ? input.serviceNames.join(', ') : 'Appointment';
  const subject = staffNoticeSubject(input, services);
  const intro =
    notice.change === 'booked'
      ? `${customer.name} booked an appointment with you.`
      : notice.change === 'rescheduled'
        ? `${customer.name} moved their appointment with you to a new time.`
        : `${customer.name} cancelled their appointment with you.`;
  const lines: [string, string][] = [
    ['What', services],
    ['When', formatForPeople(appointment.start_time, tz)],
  ];
  if (notice.change === 'rescheduled' && input.previousStart) lines.push(['Previously', formatForPeople(input.previousStart, tz)]);
  lines.push(['Customer', customer.name]);
  if (customer.email) lines.push(['Email', customer.email]);
  if (notice.customerPhone) lines.push(['Phone', notice.customerPhone]);
  if (appointment.description && notice.change !== 'cancelled') lines.push(['Notes', appointment.description]);
  const closing = 'You get these emails because booking notices are on in your Settings; turn them off there.';

  const text = [
    `Hello ${notice.recipientName},`,
    '',
    intro,
    '',
    ...lines.map(([k, v]) => `${k}: ${v}`),
    '',
    closing,
    '',
    company.name,
    '',
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(notice.recipientName)},</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    '<table>',
    ...lines.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`),
    '</table>',
    `<p>${escapeHtml(closing)}</p>`,
    `<p>${escapeHtml(company.name)}</p>`,
  ].join('\n');
  return { subject, text, html, attachments: [] };
}

interface AppointmentRender {
  template: 'appointment';
  input: AppointmentEmailInput;
  /** The moment of the change (the invitation's DTSTAMP). */
  at: string;
}

/** The outbox `render` snapshot of an email (reminders.ts queues reminders and staff notices with it). */
export function appointmentRenderSnapshot(input: AppointmentEmailInput, now: Date): string {
  const render: AppointmentRender = { template: 'appointment', input, at: now.toISOString() };
  return JSON.stringify(render);
}

/**
 * Queues the email in the caller's transaction; the caller nudges the dispatcher after commit. The
 * row holds a snapshot of everything the email says (the appointment as this transaction wrote
 * it), and the dispatcher renders it when sending: text, HTML and invitation are the same as if
 * rendered now, but the work (a tenth of a booking) is done outside the write lock.
 */
export async function queueAppointmentEmail(
  db: DbOrTx,
  input: AppointmentEmailInput,
  now: Date,
  opts: { manageKey?: Uint8Array | null } = {},
): Promise<void> {
  if (carriesManageLink(input.kind) && !input.manageNonce && opts.manageKey) {
    // An appointment made before self-service links existed gets its nonce with its next email.
    input = { ...input, manageNonce: await assignManageNonce(db, input.appointment.id, issueManageNonce(opts.manageKey)) };
  }
  const render: AppointmentRender = { template: 'appointment', input, at: now.toISOString() };
  await queueEmail(
    db,
    {
      to: input.customer.email,
      // The kind names of docs/decisions/10-reminders-and-sms.md (the admins' message list filters on them).
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

/**
 * The email an outbox row's `render` snapshot describes; throws on a snapshot it cannot read. With the
 * link key (lib/manage-token.ts) the snapshot's nonce becomes the customer's manage link.
 */
export function renderQueuedEmail(render: string, opts: { manageKey?: Uint8Array | null; sendingAt?: Date } = {}): RenderedEmail {
  const r = JSON.parse(render) as AppointmentRender;
  if (r?.template !== 'appointment' || !r.input || typeof r.at !== 'string') throw new Error('unknown outbox render snapshot');
  const nonce = r.input.manageNonce;
  const link = nonce && opts.manageKey ? manageUrl(r.input.appUrl, manageToken(opts.manageKey, nonce)) : null;
  return renderAppointmentEmail(r.input, new Date(r.at), link, opts.sendingAt);
}
