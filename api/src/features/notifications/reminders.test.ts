// Reminders and staff notices on every test dialect, with an injected clock: the reminder's due time,
// the skip rule, moves, cancellations and deletions, the company setting re-timing it, delivery by a
// real SMTP server at its time (and not before), once with two dispatchers on two connections; the
// SMS reminder row (consent + phone + SMS configured); the employee's notice of a customer's change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type OutboxMessageRow } from '@bookwell/db';
import { createTestDatabase, testDialects, type TestDatabase } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { decodeQuotedPrintable, startTestSmtp, type TestSmtp } from '../../testing/smtp.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { createLogger } from '../../lib/logger.ts';
import { manageLinkKey, manageToken } from '../../lib/manage-token.ts';
import { createDispatcher } from './dispatcher.service.ts';
import { renderAppointmentEmail, type AppointmentEmailInput } from './appointment-emails.ts';
import { queueStaffNotice, reminderDueAt, reminderKey, reminderSmsText } from './reminders.ts';

// Monday 23 November 2026, 08:00 in London (GMT = UTC in November).
const NOW = new Date('2026-11-23T08:00:00.000Z');
const HOUR = 3600_000;
const at = (iso: string, hoursBefore = 0) => new Date(Date.parse(iso) - hoursBefore * HOUR).toISOString();

const sample: AppointmentEmailInput = {
  kind: 'reminder',
  appointment: { id: 7, start_time: '2026-11-24T09:30:00.000Z', end_time: '2026-11-24T10:00:00.000Z', version: 2, description: null },
  company: { id: 1, name: 'Hair & Co', email: 'desk@hair.example', timezone: 'Europe/London' },
  serviceNames: ['Cut'],
  customer: { name: 'Ann', email: 'ann@example.test' },
  employeeName: 'Bea',
  appUrl: 'https://book.example.com',
  mailFrom: 'Bookwell <no-reply@book.example.com>',
};

describe('reminder and staff notice texts', () => {
  it('a reminder names the services, the business and the time, with no invitation attached', () => {
    const m = renderAppointmentEmail(sample, NOW);
    expect(m.subject).toBe('Reminder: Cut at Hair & Co');
    expect(m.text).toContain('This is a reminder of your appointment at Hair & Co.');
    expect(m.text).toContain('When: Tuesday, 24 November 2026 at 9:30 AM (Europe/London)');
    expect(m.attachments).toEqual([]);
  });

  it('a staff notice tells the employee who did what, and when it was before a move', () => {
    const m = renderAppointmentEmail(
      {
        ...sample,
        kind: 'staff_notice',
        previousStart: '2026-11-24T08:00:00.000Z',
        staffNotice: { change: 'rescheduled', recipientName: 'Bea', customerPhone: '+442079460000' },
      },
      NOW,
    );
    expect(m.subject).toBe('Booking moved: Cut with Ann');
    expect(m.text).toContain('Hello Bea,');
    expect(m.text).toContain('Ann moved their appointment with you to a new time.');
    expect(m.text).toContain('Previously: Tuesday, 24 November 2026 at 8:00 AM (Europe/London)');
    expect(m.text).toContain('Phone: +442079460000');
    expect(m.attachments).toEqual([]);
  });

  it('the SMS reminder is one short text without the zone name', () => {
    const text = reminderSmsText(sample);
    expect(text).toBe('Reminder: Cut at Hair & Co on Tuesday, 24 November 2026 at 9:30 AM. Reply STOP to opt out.');
    expect(text.length).toBeLessThanOrEqual(160);
  });

  it('is due the setting before the start; the key names the appointment and its start', () => {
    expect(reminderDueAt('2026-11-24T09:30:00.000Z', 24).toISOString()).toBe('2026-11-23T09:30:00.000Z');
    expect(reminderKey('email', 12, '2026-11-24T09:30:00Z')).toBe('reminder:email:12:2026-11-24T09:30:00.000Z');
  });
});

describe.each(testDialects())('reminders on %s', (dialect) => {
  let database: TestDatabase;
  let smtp: TestSmtp;
  let t: TestServer;
  let sms: TestServer;
  let a: BookableCompany;
  let clock = NOW;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    database = await createTestDatabase(dialect);
    t = await startTestServer(dialect, { now: () => clock, database, env: { SMTP_URL: smtp.url } });
    a = await bookableCompany(t, { name: 'Reminder Salon', capacity: 20, employeeBooking: true });
    // A second server on the same database with SMS configured (nothing is sent: the scheduler is off).
    sms = await startTestServer(dialect, {
      now: () => clock,
      database,
      env: {
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000',
        TWILIO_AUTH_TOKEN: 'test-token',
        TWILIO_FROM: '+15005550006',
        TWILIO_API_URL: 'http://127.0.0.1:9',
      },
    });
  });
  afterAll(async () => {
    await sms?.close();
    await t?.close();
    await database?.drop();
    await smtp?.close();
  });

  const book = async (start: string, opts: { token?: string; server?: TestServer; extra?: Record<string, unknown> } = {}) => {
    const who = customerContact('Rita Reminded');
    const res = await (opts.server ?? t).call('POST', '/appointments', {
      token: opts.token,
      body: { company_id: a.companyId, service_type_ids: [a.serviceId], start_time: start, customer: who, ...opts.extra },
    });
    expect(res.status, res.text).toBe(201);
    return { id: res.body.id as number, email: who.email, phone: who.phone, version: res.body.version as number };
  };

  const rows = (appointmentId: number, kind = 'reminder'): Promise<OutboxMessageRow[]> =>
    t.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('appointment_id', '=', appointmentId)
      .where('kind', '=', kind)
      .orderBy('id')
      .execute();

  const move = async (id: number, start: string) => {
    const res = await t.call('PUT', `/appointments/${id}`, { token: a.admin.token, body: { start_time: start } });
    expect(res.status, res.text).toBe(200);
  };

  it('booking queues the email reminder in the same transaction, due reminder_hours_before (24) hours ahead', async () => {
    const start = '2026-11-24T09:30:00.000Z';
    const b = await book(start);
    const [r, ...more] = await rows(b.id);
    expect(more).toEqual([]);
    expect(r).toMatchObject({
      channel: 'email',
      kind: 'reminder',
      to_address: b.email,
      state: 'pending',
      due_at: at(start, 24),
      dedupe_key: `reminder:email:${b.id}:${start}`,
      company_id: a.companyId,
      subject: 'Reminder: Haircut at Reminder Salon',
    });
    // Staff bookings get one too.
    const staff = await book('2026-11-24T10:00:00.000Z', { token: a.admin.token });
    expect((await rows(staff.id)).map((x) => [x.state, x.due_at])).toEqual([['pending', at('2026-11-24T10:00:00.000Z', 24)]]);
  });

  it('is skipped when the booking is made after its due time', async () => {
    const today = '2026-11-23T15:00:00.000Z'; // 7 hours ahead: the 24-hour point is past
    expect((await rows((await book(today)).id)).length).toBe(0);
    expect((await rows((await book('2026-11-23T15:30:00.000Z', { token: a.admin.token })).id)).length).toBe(0);
  });

  it('moves with the appointment: the old start is cancelled, the new one queued; moving back revives it, once', async () => {
    const first = '2026-11-24T11:00:00.000Z';
    const second = '2026-11-25T12:00:00.000Z';
    const b = await book(first);
    await move(b.id, second);
    expect((await rows(b.id)).map((r) => [r.dedupe_key, r.state, r.due_at])).toEqual([
      [`reminder:email:${b.id}:${first}`, 'cancelled', at(first, 24)],
      [`reminder:email:${b.id}:${second}`, 'pending', at(second, 24)],
    ]);
    await move(b.id, first);
    expect((await rows(b.id)).map((r) => [r.dedupe_key, r.state])).toEqual([
      [`reminder:email:${b.id}:${first}`, 'pending'],
      [`reminder:email:${b.id}:${second}`, 'cancelled'],
    ]);
    // A move to a time whose reminder point is past drops it and queues none.
    await move(b.id, '2026-11-23T16:00:00.000Z');
    expect((await rows(b.id)).every((r) => r.state === 'cancelled')).toBe(true);
    expect(await rows(b.id)).toHaveLength(2);
  });

  it('an edit never sends a reminder twice: a sent one stays sent, one already due is left as it is, a cancelled one is revived', async () => {
    const start = '2026-11-24T13:00:00.000Z';
    const b = await book(start);
    const [queued] = await rows(b.id);
    const edit = async (description: string) => {
      const res = await t.call('PUT', `/appointments/${b.id}`, { token: a.admin.token, body: { description } });
      expect(res.status, res.text).toBe(200);
      const [r, ...more] = await rows(b.id);
      expect(more).toEqual([]);
      return r;
    };
    const set = (values: Partial<Pick<OutboxMessageRow, 'state' | 'sent_at' | 'attempts' | 'due_at' | 'subject'>>) =>
      t.db.updateTable('outbox_messages').set(values).where('id', '=', queued.id).execute();

    await set({ state: 'sent', sent_at: NOW.toISOString(), attempts: 1 });
    expect(await edit('Sent already')).toMatchObject({ state: 'sent', attempts: 1, due_at: at(start, 24) });

    // Pending and due (the dispatcher's to send): neither re-timed nor rewritten.
    const due = new Date(NOW.getTime() - 60_000).toISOString();
    await set({ state: 'pending', sent_at: null, due_at: due, subject: 'As claimed' });
    expect(await edit('Due already')).toMatchObject({ state: 'pending', due_at: due, subject: 'As claimed' });

    await set({ state: 'cancelled', due_at: at(start, 24), subject: 'Old' });
    expect(await edit('Revived')).toMatchObject({
      state: 'pending',
      due_at: at(start, 24),
      subject: 'Reminder: Haircut at Reminder Salon',
    });
  });

  it('a cancelled or deleted appointment drops its pending reminder', async () => {
    const cancelled = await book('2026-11-24T12:00:00.000Z');
    const res = await t.call('PUT', `/appointments/${cancelled.id}`, { token: a.admin.token, body: { status: 'cancelled' } });
    expect(res.status, res.text).toBe(200);
    expect((await rows(cancelled.id)).map((r) => r.state)).toEqual(['cancelled']);
    // Booked again (same start): the same row is pending again.
    const again = await t.call('PUT', `/appointments/${cancelled.id}`, { token: a.admin.token, body: { status: 'booked' } });
    expect(again.status, again.text).toBe(200);
    expect((await rows(cancelled.id)).map((r) => r.state)).toEqual(['pending']);

    const deleted = await book('2026-11-24T12:30:00.000Z');
    const del = await t.call('DELETE', `/appointments/${deleted.id}`, { token: a.admin.token });
    expect(del.status, del.text).toBe(204);
    expect((await rows(deleted.id)).map((r) => r.state)).toEqual(['cancelled']);
  });

  it("the company's reminder_hours_before re-times pending reminders; one whose new time has passed is dropped", async () => {
    const soon = '2026-11-24T13:00:00.000Z'; // 29 hours ahead
    const later = '2026-11-27T13:00:00.000Z';
    const s = await book(soon);
    const l = await book(later);
    const put = (hours: number) =>
      t.call('PUT', `/companies/${a.companyId}`, { token: a.admin.token, body: { reminder_hours_before: hours } });
    expect((await put(2)).status).toBe(200);
    expect((await rows(s.id)).map((r) => [r.state, r.due_at])).toEqual([['pending', at(soon, 2)]]);
    expect((await rows(l.id)).map((r) => [r.state, r.due_at])).toEqual([['pending', at(later, 2)]]);
    // 48 hours before `soon` is already past: skipped; `later` moves to its new time.
    expect((await put(48)).status).toBe(200);
    expect((await rows(s.id)).map((r) => r.state)).toEqual(['cancelled']);
    expect((await rows(l.id)).map((r) => [r.state, r.due_at])).toEqual([['pending', at(later, 48)]]);
    // New bookings use the new setting.
    const n = await book('2026-11-28T10:00:00.000Z');
    expect((await rows(n.id)).map((r) => r.due_at)).toEqual([at('2026-11-28T10:00:00.000Z', 48)]);
    // Shorter again: the reminder dropped under 48 hours is due ahead under 24, so it is back.
    expect((await put(24)).status).toBe(200);
    expect((await rows(s.id)).map((r) => [r.state, r.due_at])).toEqual([['pending', at(soon, 24)]]);
    expect((await rows(l.id)).map((r) => [r.state, r.due_at])).toEqual([['pending', at(later, 24)]]);

    // Booked 8 hours ahead: skipped under 24 hours; with 2 hours its reminder is ahead, so it is queued.
    const late = '2026-11-23T16:00:00.000Z';
    const k = await book(late);
    expect(await rows(k.id)).toEqual([]);
    expect((await put(2)).status).toBe(200);
    expect((await rows(k.id)).map((r) => [r.state, r.due_at, r.dedupe_key])).toEqual([
      ['pending', at(late, 2), `reminder:email:${k.id}:${late}`],
    ]);
    expect((await put(24)).status).toBe(200);
    expect((await rows(k.id)).map((r) => r.state)).toEqual(['cancelled']);
  });

  it('reaches the real SMTP server at its time and not before, once, with two dispatchers on two connections', async () => {
    const start = '2026-11-25T14:00:00.000Z';
    const b = await book(start);
    const due = Date.parse(at(start, 24));
    const isReminder = (m: { to: string[]; raw: string }) =>
      m.to.includes(b.email) && /Subject: Reminder: Haircut at Reminder Salon/.test(m.raw);
    const log = createLogger('silent');
    const config = t.server.deps.config;
    const handles = [connect(database.url), connect(database.url)];
    const manageKey = manageLinkKey(t.server.deps.jwtKey);
    const dispatchers = handles.map((h) => createDispatcher({ db: h.db, config, log, now: () => clock, manageKey }));
    try {
      // Now: the confirmation goes, the reminder stays.
      await Promise.all(dispatchers.map((d) => d.runOnce()));
      await smtp.waitFor((m) => m.to.includes(b.email) && /Subject: Booking confirmed/.test(m.raw));
      expect(smtp.messages.filter(isReminder)).toEqual([]);
      // A minute before it is due: still nothing.
      clock = new Date(due - 60_000);
      await Promise.all(dispatchers.map((d) => d.runOnce()));
      expect(smtp.messages.filter(isReminder)).toEqual([]);
      expect((await rows(b.id)).map((r) => r.state)).toEqual(['pending']);
      // Due: both dispatchers run at once; exactly one copy arrives.
      clock = new Date(due);
      await Promise.all(dispatchers.map((d) => d.runOnce()));
      const mail = await smtp.waitFor(isReminder);
      const text = decodeQuotedPrintable(mail.raw);
      expect(text).toContain('This is a reminder of your appointment at Reminder Salon.');
      expect(text).toContain('Wednesday, 25 November 2026 at 2:00 PM (Europe/London)');
      // The self-service link (docs/decisions/23-self-service.md), as in the confirmation.
      expect(text).toMatch(new RegExp(`${config.APP_URL}/manage/[A-Za-z0-9_-]{22,}`));
      await Promise.all(dispatchers.map((d) => d.runOnce()));
      clock = new Date(due + 10 * 60_000);
      await Promise.all(dispatchers.map((d) => d.runOnce()));
      expect(smtp.messages.filter(isReminder)).toHaveLength(1);
      expect((await rows(b.id)).map((r) => [r.state, r.sent_at !== null])).toEqual([['sent', true]]);
      // Changing the appointment after it was sent never queues the same start's reminder again.
      await t.call('PUT', `/appointments/${b.id}`, { token: a.admin.token, body: { description: 'Bring the photo' } });
      expect((await rows(b.id)).map((r) => r.state)).toEqual(['sent']);
    } finally {
      clock = NOW;
      for (const d of dispatchers) await d.stop();
      for (const h of handles) await h.db.destroy();
    }
  });

  it('GET /reminder-channels tells anyone (the booking form) whether SMS reminders go out: only where SMS is configured', async () => {
    for (const [server, texts] of [
      [t, false],
      [sms, true],
    ] as const) {
      const res = await server.call('GET', '/reminder-channels');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ email: true, sms: texts });
    }
  });

  it('queues an SMS reminder only when SMS is configured, the customer consented, gave a phone and did not opt out', async () => {
    const start = '2026-11-26T09:00:00.000Z';
    const consented = await book(start, { server: sms, extra: { sms_consent: true } });
    const smsRows = (await rows(consented.id)).filter((r) => r.channel === 'sms');
    expect(smsRows.map((r) => [r.to_address, r.due_at, r.dedupe_key, r.state])).toEqual([
      [consented.phone, at(start, 24), `reminder:sms:${consented.id}:${start}`, 'pending'],
    ]);
    expect(smsRows[0].body_text).toContain('Reminder: Haircut at Reminder Salon on Thursday, 26 November 2026 at 9:00 AM.');
    // Its email reminder is there too, same due time.
    expect((await rows(consented.id)).filter((r) => r.channel === 'email').map((r) => r.due_at)).toEqual([at(start, 24)]);

    const noConsent = await book('2026-11-26T09:30:00.000Z', { server: sms, extra: { sms_consent: false } });
    expect((await rows(noConsent.id)).map((r) => r.channel)).toEqual(['email']);
    const notConfigured = await book('2026-11-26T10:00:00.000Z', { extra: { sms_consent: true } });
    expect((await rows(notConfigured.id)).map((r) => r.channel)).toEqual(['email']);

    // A move re-queues both; an opted-out customer gets no SMS at the new time.
    const customer = await t.db.selectFrom('appointments').select('user_id').where('id', '=', consented.id).executeTakeFirstOrThrow();
    await t.db.updateTable('users').set({ sms_opted_out_at: NOW.toISOString() }).where('id', '=', customer.user_id!).execute();
    await move(consented.id, '2026-11-26T11:00:00.000Z');
    expect((await rows(consented.id)).map((r) => [r.channel, r.state])).toEqual([
      ['email', 'cancelled'],
      ['sms', 'cancelled'],
      ['email', 'pending'],
    ]);
  });

  it("a customer's move through their link re-queues the SMS reminder too, at the new time", async () => {
    const first = '2026-11-27T09:00:00.000Z';
    const second = '2026-11-27T11:00:00.000Z';
    // A phone of its own: the customer of the test above opted out of texts on the shared test number.
    const customer = { ...customerContact('Tess Texted'), phone: '+442079460001' };
    const b = await book(first, { server: sms, extra: { sms_consent: true, customer } });
    const { manage_nonce } = await t.db.selectFrom('appointments').select('manage_nonce').where('id', '=', b.id).executeTakeFirstOrThrow();
    const token = manageToken(manageLinkKey(sms.server.deps.jwtKey), manage_nonce!);
    const moved = await sms.call('POST', `/manage/${token}/reschedule`, { body: { start_time: second } });
    expect(moved.status, moved.text).toBe(200);
    expect((await rows(b.id)).map((r) => [r.dedupe_key, r.state])).toEqual([
      [`reminder:email:${b.id}:${first}`, 'cancelled'],
      [`reminder:sms:${b.id}:${first}`, 'cancelled'],
      [`reminder:email:${b.id}:${second}`, 'pending'],
      [`reminder:sms:${b.id}:${second}`, 'pending'],
    ]);
  });

  describe('staff notices', () => {
    const notices = (appointmentId: number) => rows(appointmentId, 'staff_notice');
    const employeeEmail = async (id: number) =>
      (await t.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;

    it("the employee's setting is on by default, readable and editable by them (GET /me, PUT /users/{id})", async () => {
      const me = await t.call('GET', '/me', { token: a.employee.token });
      expect(me.body.booking_notices).toBe(true);
      const off = await t.call('PUT', `/users/${a.employee.id}`, { token: a.employee.token, body: { booking_notices: false } });
      expect(off.status, off.text).toBe(200);
      expect(off.body.booking_notices).toBe(false);
      expect((await t.call('GET', `/users/${a.employee.id}`, { token: a.employee.token })).body.booking_notices).toBe(false);
      const on = await t.call('PUT', `/users/${a.employee.id}`, { token: a.employee.token, body: { booking_notices: true } });
      expect(on.body.booking_notices).toBe(true);
      const bad = await t.call('PUT', `/users/${a.employee.id}`, { token: a.employee.token, body: { booking_notices: 'no' } });
      expect(bad.status).toBe(400);
      // Customers have no such setting.
      expect((await t.call('GET', '/me', { token: a.customer.token })).body).not.toHaveProperty('booking_notices');
    });

    it('a customer booking or cancelling with an employee emails the employee; staff changes do not', async () => {
      const to = await employeeEmail(a.employee.id);
      const b = await book('2026-11-30T09:00:00.000Z', { extra: { employee_id: a.employee.id } });
      expect((await notices(b.id)).map((r) => [r.to_address, r.subject, r.state, r.channel])).toEqual([
        [to, 'New booking: Haircut with Rita Reminded', 'pending', 'email'],
      ]);
      // Staff moving it: no notice.
      await move(b.id, '2026-11-30T10:00:00.000Z');
      expect(await notices(b.id)).toHaveLength(1);
      // Staff booking with the employee: no notice.
      const staff = await book('2026-11-30T11:00:00.000Z', { token: a.admin.token, extra: { employee_id: a.employee.id } });
      expect(await notices(staff.id)).toHaveLength(0);

      // A signed-in customer books and then cancels their own appointment.
      const own = await t.call('POST', '/appointments', {
        token: a.customer.token,
        body: {
          company_id: a.companyId,
          service_type_ids: [a.serviceId],
          start_time: '2026-11-30T12:00:00.000Z',
          employee_id: a.employee.id,
        },
      });
      expect(own.status, own.text).toBe(201);
      const cancel = await t.call('PUT', `/appointments/${own.body.id}`, { token: a.customer.token, body: { status: 'cancelled' } });
      expect(cancel.status, cancel.text).toBe(200);
      expect((await notices(own.body.id)).map((r) => r.subject)).toEqual([
        'New booking: Haircut with customer person',
        'Booking cancelled: Haircut with customer person',
      ]);
    });

    it("the customer's self-service link moves the reminder and tells the employee of the move and the cancellation", async () => {
      const first = '2026-12-03T09:00:00.000Z';
      const second = '2026-12-03T11:00:00.000Z';
      const b = await book(first, { extra: { employee_id: a.employee.id } });
      const { manage_nonce } = await t.db
        .selectFrom('appointments')
        .select('manage_nonce')
        .where('id', '=', b.id)
        .executeTakeFirstOrThrow();
      const token = manageToken(manageLinkKey(t.server.deps.jwtKey), manage_nonce!);
      const moved = await t.call('POST', `/manage/${token}/reschedule`, { body: { start_time: second } });
      expect(moved.status, moved.text).toBe(200);
      expect((await rows(b.id)).map((r) => [r.dedupe_key, r.state])).toEqual([
        [`reminder:email:${b.id}:${first}`, 'cancelled'],
        [`reminder:email:${b.id}:${second}`, 'pending'],
      ]);
      const cancelled = await t.call('POST', `/manage/${token}/cancel`);
      expect(cancelled.status, cancelled.text).toBe(200);
      expect((await rows(b.id)).map((r) => r.state)).toEqual(['cancelled', 'cancelled']);
      expect((await notices(b.id)).map((r) => r.subject)).toEqual([
        'New booking: Haircut with Rita Reminded',
        'Booking moved: Haircut with Rita Reminded',
        'Booking cancelled: Haircut with Rita Reminded',
      ]);
    });

    it('nothing is queued for an employee who turned notices off; the same change queued twice is one email', async () => {
      await t.db.updateTable('users').set({ booking_notices: 0 }).where('id', '=', a.manager.id).execute();
      const off = await book('2026-12-01T09:00:00.000Z', { extra: { employee_id: a.manager.id } });
      expect(await notices(off.id)).toHaveLength(0);
      await t.db.updateTable('users').set({ booking_notices: 1 }).where('id', '=', a.manager.id).execute();

      // The self-service link calls queueStaffNotice: a second call for the same change adds nothing.
      const b = await book('2026-12-01T10:00:00.000Z', { extra: { employee_id: a.user.id } });
      const details: AppointmentEmailInput = { ...sample, appointment: { ...sample.appointment, id: b.id, version: 1 } };
      await queueStaffNotice(t.db, { change: 'booked', employeeId: a.user.id, details }, NOW);
      expect(await notices(b.id)).toHaveLength(1);
    });

    it('"any employee": the chosen employee is told, unless they turned notices off (their row read with the performers)', async () => {
      const first = await book('2026-12-04T09:00:00.000Z');
      const chosen = await t.db.selectFrom('appointments').select('employee_id').where('id', '=', first.id).executeTakeFirstOrThrow();
      expect(chosen.employee_id).not.toBeNull();
      expect((await notices(first.id)).map((r) => r.to_address)).toEqual([await employeeEmail(chosen.employee_id!)]);
      // Another day nobody works yet: the same one is chosen (fewest that day, then lowest id), now with notices off.
      await t.db.updateTable('users').set({ booking_notices: 0 }).where('id', '=', chosen.employee_id!).execute();
      try {
        const second = await book('2026-12-07T09:00:00.000Z');
        const again = await t.db.selectFrom('appointments').select('employee_id').where('id', '=', second.id).executeTakeFirstOrThrow();
        expect(again.employee_id).toBe(chosen.employee_id);
        expect(await notices(second.id)).toHaveLength(0);
      } finally {
        await t.db.updateTable('users').set({ booking_notices: 1 }).where('id', '=', chosen.employee_id!).execute();
      }
    });

    it('the notice reaches the employee through the real SMTP server', async () => {
      const to = await employeeEmail(a.employee.id);
      const b = await book('2026-12-02T09:00:00.000Z', { extra: { employee_id: a.employee.id } });
      await t.server.dispatcher.runOnce();
      const mail = await smtp.waitFor((m) => m.to.includes(to) && /Subject: New booking/.test(m.raw) && m.raw.includes('2 December 2026'));
      expect(decodeQuotedPrintable(mail.raw)).toContain('Rita Reminded booked an appointment with you.');
      expect((await notices(b.id)).map((r) => r.state)).toEqual(['sent']);
    });
  });
});
