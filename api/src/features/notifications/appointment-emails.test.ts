// Booking emails: their text and calendar invitation, and their delivery to a real SMTP server after
// booking, moving and cancelling through the API, on every test dialect.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../../testing/smtp.ts';
import { mailText, mimeParts } from '../../testing/mime.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';
import {
  appointmentIcs,
  formatForPeople,
  renderAppointmentEmail,
  renderQueuedEmail,
  type AppointmentEmailInput,
} from './appointment-emails.ts';

const NOW = new Date('2026-11-23T08:00:00.000Z');

function calendarOf(mail: ReceivedMail): string {
  const part = mimeParts(mail.raw).find((p) => /content-type:\s*text\/calendar/i.test(p.headers) && p.body.includes('BEGIN:VCALENDAR'));
  if (!part) throw new Error('no text/calendar part');
  return part.body.replace(/\r?\n[ \t]/g, ''); // unfold
}

/** The invitation as a calendar app reads it (ical.js): method, and the one event's UID, SEQUENCE and instants. */
function parseInvite(text: string) {
  const cal = new ICAL.Component(ICAL.parse(text));
  const events = cal.getAllSubcomponents('vevent');
  expect(events).toHaveLength(1);
  const e = new ICAL.Event(events[0]!);
  return {
    method: cal.getFirstPropertyValue('method'),
    uid: e.uid,
    sequence: e.sequence,
    start: e.startDate.toJSDate().toISOString(),
    end: e.endDate.toJSDate().toISOString(),
    status: events[0]!.getFirstPropertyValue('status'),
    organizer: String(events[0]!.getFirstPropertyValue('organizer')),
  };
}

const sample: AppointmentEmailInput = {
  kind: 'confirmation',
  appointment: {
    id: 42,
    start_time: '2026-11-24T09:30:00.000Z',
    end_time: '2026-11-24T10:15:00.000Z',
    version: 1,
    description: 'Window seat',
  },
  company: { id: 1, name: 'Hair & Co', email: 'desk@hair.example', timezone: 'Europe/London' },
  serviceNames: ['Cut', 'Colour'],
  customer: { name: 'Ann <Anon>', email: 'ann@example.test' },
  employeeName: 'Bea',
  appUrl: 'https://book.example.com',
  mailFrom: 'Bookwell <no-reply@book.example.com>',
};

describe('booking email content', () => {
  it('writes the time for people in the company zone', () => {
    expect(formatForPeople('2026-11-24T09:30:00.000Z', 'Europe/London')).toBe('Tuesday, 24 November 2026 at 9:30 AM (Europe/London)');
    expect(formatForPeople('2026-07-01T16:05:00.000Z', 'America/New_York')).toBe('Wednesday, 1 July 2026 at 12:05 PM (America/New_York)');
    // Midnight is 12 AM, and a zone east of UTC can be on the next calendar day.
    expect(formatForPeople('2026-07-01T04:00:00.000Z', 'America/New_York')).toBe('Wednesday, 1 July 2026 at 12:00 AM (America/New_York)');
    expect(formatForPeople('2026-12-31T13:45:00.000Z', 'Pacific/Auckland')).toBe('Friday, 1 January 2027 at 2:45 AM (Pacific/Auckland)');
  });

  it('names the business, the services, the time and the address to contact, with an escaped HTML version', () => {
    const m = renderAppointmentEmail(sample, NOW);
    expect(m.subject).toBe('Booking confirmed: Cut, Colour at Hair & Co');
    expect(m.text).toContain('Hello Ann <Anon>,');
    expect(m.text).toContain('When: Tuesday, 24 November 2026 at 9:30 AM (Europe/London)');
    expect(m.text).toContain('Duration: 45 minutes');
    expect(m.text).toContain('With: Bea');
    expect(m.text).toContain('contact Hair & Co at desk@hair.example');
    expect(m.html).toContain('Ann &lt;Anon&gt;');
    expect(m.html).not.toContain('<Anon>');
    expect(m.attachments).toEqual([
      { filename: 'invite.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST', content: expect.any(String) },
    ]);
  });

  it('gives calendar apps the right instants either side of a DST change, with a stable UID, a rising SEQUENCE and CANCEL', () => {
    // New York leaves daylight time at 2:00 on Sunday 1 November 2026: 10:00 local is 14:00Z the day
    // before, 15:00Z that day and after.
    const ny = { ...sample.company, timezone: 'America/New_York' };
    const at = (start: string, end: string, version: number) => ({ ...sample.appointment, start_time: start, end_time: end, version });
    const saturday = parseInvite(
      appointmentIcs({ ...sample, company: ny, appointment: at('2026-10-31T14:00:00.000Z', '2026-10-31T14:45:00.000Z', 1) }, NOW),
    );
    expect(saturday).toMatchObject({
      method: 'REQUEST',
      uid: 'appointment-42@book.example.com',
      sequence: 1,
      start: '2026-10-31T14:00:00.000Z',
      end: '2026-10-31T14:45:00.000Z',
      status: 'CONFIRMED',
      organizer: 'mailto:desk@hair.example',
    });
    const moved = {
      ...sample,
      kind: 'reschedule' as const,
      company: ny,
      appointment: at('2026-11-01T15:00:00.000Z', '2026-11-01T15:45:00.000Z', 2),
    };
    const sunday = parseInvite(renderAppointmentEmail(moved, NOW).attachments[0]!.content);
    expect(sunday).toMatchObject({ method: 'REQUEST', uid: saturday.uid, sequence: 2, start: '2026-11-01T15:00:00.000Z' });
    expect(renderAppointmentEmail(moved, NOW).text).toContain('Sunday, 1 November 2026 at 10:00 AM (America/New_York)');
    const cancelled = parseInvite(
      appointmentIcs({ ...moved, kind: 'cancellation', appointment: at(moved.appointment.start_time, moved.appointment.end_time, 3) }, NOW),
    );
    expect(cancelled).toMatchObject({
      method: 'CANCEL',
      uid: saturday.uid,
      sequence: 3,
      start: '2026-11-01T15:00:00.000Z',
      status: 'CANCELLED',
    });
  });

  it('renders a queued snapshot exactly as it would have been rendered when queued', () => {
    const snapshot = JSON.stringify({ template: 'appointment', input: sample, at: NOW.toISOString() });
    expect(renderQueuedEmail(snapshot)).toEqual(renderAppointmentEmail(sample, NOW));
    expect(() => renderQueuedEmail('{"template":"other"}')).toThrow(/unknown outbox render snapshot/);
    expect(() => renderQueuedEmail('not json')).toThrow();
  });

  it('invites with METHOD:REQUEST, the business as organiser, a stable UID and the version as SEQUENCE; cancels with METHOD:CANCEL', () => {
    const ics = appointmentIcs(sample, NOW).replace(/\r?\n[ \t]/g, '');
    expect(ics).toContain('METHOD:REQUEST');
    expect(ics).toContain('UID:appointment-42@book.example.com');
    expect(ics).toContain('SEQUENCE:1');
    expect(ics).toMatch(/ORGANIZER;CN="?Hair & Co"?:mailto:desk@hair.example/);
    expect(ics).toMatch(/ATTENDEE;.*:MAILTO:ann@example.test/i);
    expect(ics).toContain('DTSTART:20261124T093000Z');
    expect(ics).toContain('DTEND:20261124T101500Z');
    const cancel = appointmentIcs({ ...sample, kind: 'cancellation', appointment: { ...sample.appointment, version: 3 } }, NOW);
    expect(cancel).toContain('METHOD:CANCEL');
    expect(cancel).toContain('UID:appointment-42@book.example.com');
    expect(cancel).toContain('SEQUENCE:3');
    expect(cancel).toContain('STATUS:CANCELLED');
    // Without a business email the organiser is the sending address.
    expect(appointmentIcs({ ...sample, company: { ...sample.company, email: null } }, NOW)).toContain('mailto:no-reply@book.example.com');
  });
});

describe.each(testDialects())('booking emails through SMTP on %s', (dialect) => {
  let t: TestServer;
  let smtp: TestSmtp;
  let co: BookableCompany;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await startTestServer(dialect, {
      now: () => NOW,
      env: { SMTP_URL: smtp.url, DISABLE_SCHEDULER: 'false', APP_URL: 'https://book.example.com' },
    });
    co = await bookableCompany(t, { name: 'Mail Salon', email: 'desk@mail-salon.example' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('sends the confirmation with its .ics, then a reschedule with a higher SEQUENCE, then a cancellation with the same UID', async () => {
    const who = customerContact('Carla Customer');
    const res = await t.call('POST', '/appointments', {
      body: { company_id: co.companyId, service_type_ids: [co.serviceId], start_time: '2026-11-24T09:30:00Z', customer: who },
    });
    expect(res.status).toBe(201);
    const id = res.body.id;
    const uid = `UID:appointment-${id}@book.example.com`;

    const confirmation = await smtp.waitFor((m) => m.to.includes(who.email) && /Booking confirmed/.test(m.raw));
    const text = mailText(confirmation);
    expect(text).toContain('Mail Salon');
    expect(text).toContain('Haircut');
    expect(text).toContain('Tuesday, 24 November 2026 at 9:30 AM (Europe/London)');
    expect(text).toContain('desk@mail-salon.example');
    const invite = calendarOf(confirmation);
    expect(parseInvite(invite)).toMatchObject({ method: 'REQUEST', sequence: 1, start: '2026-11-24T09:30:00.000Z' });
    expect(invite).toContain('METHOD:REQUEST');
    expect(invite).toContain(uid);
    expect(invite).toContain('SEQUENCE:1');
    expect(invite).toContain('mailto:desk@mail-salon.example');

    const moved = await t.call('PUT', `/appointments/${id}`, { token: co.admin.token, body: { start_time: '2026-11-24T11:00:00Z' } });
    expect(moved.status).toBe(200);
    const reschedule = await smtp.waitFor((m) => m.to.includes(who.email) && /Appointment moved/.test(m.raw));
    expect(mailText(reschedule)).toContain('Tuesday, 24 November 2026 at 11:00 AM (Europe/London)');
    expect(mailText(reschedule)).toContain('Previously: Tuesday, 24 November 2026 at 9:30 AM');
    const update = calendarOf(reschedule);
    expect(update).toContain('METHOD:REQUEST');
    expect(update).toContain(uid);
    expect(update).toContain('SEQUENCE:2');

    const cancelled = await t.call('DELETE', `/appointments/${id}`, { token: co.admin.token });
    expect(cancelled.status).toBe(204);
    const cancellation = await smtp.waitFor((m) => m.to.includes(who.email) && /Appointment cancelled/.test(m.raw));
    const cancel = calendarOf(cancellation);
    expect(parseInvite(cancel)).toMatchObject({
      method: 'CANCEL',
      uid: parseInvite(invite).uid,
      sequence: 3,
      start: '2026-11-24T11:00:00.000Z',
    });
    expect(cancel).toContain('METHOD:CANCEL');
    expect(cancel).toContain(uid);
    expect(cancel).toContain('SEQUENCE:3');

    const states = () =>
      t.db
        .selectFrom('outbox_messages')
        .select(['kind', 'state'])
        .where('appointment_id', '=', id)
        // Its reminders (queued, then dropped by the move and the deletion) and the notices to the
        // employee the server chose for it are reminders.test.ts's subject.
        .where('kind', 'not in', ['reminder', 'staff_notice'])
        .orderBy('id')
        .execute();
    // The receiver has the last email a moment before the dispatcher records it as sent.
    await expect.poll(states, { timeout: 10_000 }).toEqual([
      { kind: 'confirmation', state: 'sent' },
      { kind: 'reschedule', state: 'sent' },
      { kind: 'cancellation', state: 'sent' },
    ]);
    // Rendered when sent, and recorded as sent: the rows keep what went out.
    const kept = await t.db
      .selectFrom('outbox_messages')
      .select(['subject', 'body_text', 'body_html', 'attachments', 'render'])
      .where('appointment_id', '=', id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(kept.render).toBeNull();
    expect(kept.subject).toBe('Booking confirmed: Haircut at Mail Salon');
    expect(kept.body_text).toContain('Tuesday, 24 November 2026 at 9:30 AM (Europe/London)');
    expect(kept.body_html).toContain('<table>');
    expect(kept.attachments).toContain('METHOD:REQUEST');
  });

  it('keeps a message whose snapshot cannot be rendered, marked failed with the reason, and goes on with the others', async () => {
    const { id } = await t.db
      .insertInto('outbox_messages')
      .values({
        company_id: co.companyId,
        appointment_id: null,
        channel: 'email',
        kind: 'confirmation',
        to_address: 'broken@example.test',
        subject: 'Booking confirmed',
        body_text: '',
        body_html: null,
        attachments: null,
        message_id: '<broken@test>',
        dedupe_key: null,
        state: 'pending',
        attempts: 0,
        due_at: NOW.toISOString(),
        created_at: NOW.toISOString(),
        render: '{"template":"nope"}',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.server.dispatcher.runOnce();
    const row = await t.db
      .selectFrom('outbox_messages')
      .select(['state', 'last_error', 'render'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'failed', last_error: 'unknown outbox render snapshot', render: '{"template":"nope"}' });
    const who = customerContact('After Broken');
    expect(
      (
        await t.call('POST', '/appointments', {
          body: { company_id: co.companyId, service_type_ids: [co.serviceId], start_time: '2026-11-26T09:30:00Z', customer: who },
        })
      ).status,
    ).toBe(201);
    await smtp.waitFor((m) => m.to.includes(who.email) && /Booking confirmed/.test(m.raw));
  });

  it('sends no confirmation or move notice for an appointment staff enter after it ended; one still to come gets its confirmation', async () => {
    const kindsOf = async (appointmentId: number) =>
      (
        await t.db
          .selectFrom('outbox_messages')
          .select('kind')
          .where('appointment_id', '=', appointmentId)
          .where('channel', '=', 'email')
          .where('kind', '!=', 'staff_notice')
          .execute()
      ).map((r) => r.kind);
    const enter = async (start: string, end: string) => {
      const res = await t.call('POST', '/appointments', {
        token: co.admin.token,
        body: { company_id: co.companyId, user_id: co.customer.id, service_type_ids: [co.serviceId], start_time: start, end_time: end },
      });
      expect(res.status, res.text).toBe(201);
      return res.body as { id: number; version: number };
    };
    // NOW is 08:00 on 23 November: yesterday's appointment is over.
    const past = await enter('2026-11-22T09:30:00Z', '2026-11-22T10:00:00Z');
    expect(await kindsOf(past.id)).toEqual([]);
    const moved = await t.call('PUT', `/appointments/${past.id}`, {
      token: co.admin.token,
      headers: { 'If-Match': `"${past.version}"` },
      body: { start_time: '2026-11-22T11:00:00Z', end_time: '2026-11-22T11:30:00Z' },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(await kindsOf(past.id)).toEqual([]);
    const coming = await enter('2026-11-27T13:00:00Z', '2026-11-27T13:30:00Z');
    expect(await kindsOf(coming.id)).toContain('confirmation');
  });

  it('queues the email in the booking transaction: a refused booking queues nothing', async () => {
    const before = await t.db
      .selectFrom('outbox_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const start = '2026-11-25T09:30:00Z';
    expect(
      (
        await t.call('POST', '/appointments', {
          body: { company_id: co.companyId, service_type_ids: [co.serviceId], start_time: start, customer: customerContact() },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await t.call('POST', '/appointments', {
          body: { company_id: co.companyId, service_type_ids: [co.serviceId], start_time: start, customer: customerContact() },
        })
      ).status,
    ).toBe(409);
    const after = await t.db
      .selectFrom('outbox_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    // The confirmation and the reminder of the one booking made, and the notice to the employee the
    // server chose for it (no employee was asked for).
    expect(Number(after.n)).toBe(Number(before.n) + 3);
  });
});
