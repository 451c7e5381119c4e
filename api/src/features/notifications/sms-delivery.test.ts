// SMS end to end on every test dialect: a server with SMS_PROVIDER=twilio whose TWILIO_API_URL is a
// local fake of Twilio's API (real HTTP). A consented booking's reminder reaches Twilio with the right
// form fields and Basic auth; a 500 is retried with backoff and then sent; a 400 makes the message dead
// with Twilio's reason; error 21610 (the customer replied STOP) records the opt-out on the customer,
// and no further SMS goes to them (docs/decisions/22-messaging.md).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import type { OutboxMessageRow } from '@bookwell/db';
import { startTestServer, uniqueEmail, type TestServer } from '../../testing/harness.ts';
import { bookableCompany, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { startFakeTwilio, twilioAnswers, type FakeTwilio } from '../../testing/fake-twilio.ts';

const SID = 'AC11111111111111111111111111111111';
const TOKEN = 'sms-delivery-test-token';
const FROM = '+15005550006';

// Monday 23 November 2026, 08:00 in London: bookings from Tuesday on have a 24-hour reminder ahead.
const NOW = new Date('2026-11-23T08:00:00.000Z');

describe.each(testDialects())('SMS through Twilio on %s', (dialect) => {
  let twilio: FakeTwilio;
  let t: TestServer;
  let a: BookableCompany;
  let clock = NOW;
  let phoneCounter = 0;

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestServer(dialect, {
      now: () => clock,
      env: {
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_FROM: FROM,
        TWILIO_API_URL: twilio.url,
      },
    });
    a = await bookableCompany(t, { name: 'Text Salon', capacity: 50 });
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });
  beforeEach(() => {
    clock = NOW;
  });

  /** A US number typed as people do, and its E.164 form; a new one each time (opt-outs are per number). */
  const newPhone = () => {
    phoneCounter += 1;
    const last4 = String(1000 + phoneCounter);
    return { typed: `(415) 555-${last4}`, e164: `+1415555${last4}` };
  };

  /** A public booking with SMS consent; answers the appointment id and its SMS reminder row. */
  const bookWithSms = async (start: string, phone: string, email = uniqueEmail('texted')) => {
    const res = await t.call('POST', '/appointments', {
      body: {
        company_id: a.companyId,
        service_type_ids: [a.serviceId],
        start_time: start,
        customer: { name: 'Terry Texted', email, phone },
        sms_consent: true,
      },
    });
    expect(res.status, res.text).toBe(201);
    const id = res.body.id as number;
    const sms = await smsRowsOf(id);
    return { id, email, userId: res.body.user_id as number, sms };
  };

  const smsRowsOf = (appointmentId: number): Promise<OutboxMessageRow[]> =>
    t.db.selectFrom('outbox_messages').selectAll().where('appointment_id', '=', appointmentId).where('channel', '=', 'sms').execute();

  const row = (id: number) => t.db.selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** Moves the clock to `at` and lets the dispatcher send what is due then. */
  const sendDueAt = async (at: string | Date) => {
    clock = new Date(at);
    await t.server.dispatcher.runOnce();
  };

  const requestsTo = (to: string) => twilio.requests.filter((r) => r.form.To === to);

  it('a consented booking gets its reminder by SMS at the due time: To in E.164, From, Body, Basic auth', async () => {
    const phone = newPhone();
    const b = await bookWithSms('2026-11-25T09:30:00.000Z', phone.typed);
    expect(b.sms.map((r) => [r.kind, r.to_address, r.state, r.due_at])).toEqual([
      ['reminder', phone.e164, 'pending', new Date('2026-11-24T09:30:00.000Z').toISOString()],
    ]);

    await sendDueAt('2026-11-24T09:29:00.000Z');
    expect(requestsTo(phone.e164)).toEqual([]); // not due yet

    await sendDueAt('2026-11-24T09:30:00.000Z');
    const [req, ...more] = requestsTo(phone.e164);
    expect(more).toEqual([]);
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(req.contentType).toBe('application/x-www-form-urlencoded');
    expect(req.basic).toEqual({ user: SID, password: TOKEN });
    expect(Object.keys(req.form).sort()).toEqual(['Body', 'From', 'To']);
    expect(req.form.To).toBe(phone.e164);
    expect(req.form.From).toBe(FROM);
    expect(req.form.Body).toMatch(/^Reminder: Haircut at Text Salon on .*Wednesday, 25 November 2026 at 9:30 AM.*Reply STOP to opt out\.$/);
    expect(await row(b.sms[0].id)).toMatchObject({ state: 'sent', attempts: 1, last_error: null });

    // Sent once: later passes leave it alone.
    await sendDueAt('2026-11-24T10:30:00.000Z');
    expect(requestsTo(phone.e164)).toHaveLength(1);
  });

  it('a 500 from Twilio is retried with backoff, then sent', async () => {
    const phone = newPhone();
    const b = await bookWithSms('2026-11-26T10:00:00.000Z', phone.typed);
    const id = b.sms[0].id;
    twilio.answerFor(phone.e164, twilioAnswers.serverError);

    await sendDueAt('2026-11-25T10:00:00.000Z');
    const failed = await row(id);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed.last_error).toContain('Twilio answered 500, error 20500');
    const retryAt = Date.parse(failed.due_at);
    expect(retryAt).toBeGreaterThan(clock.getTime());

    // Not before its retry time, even if Twilio is fine again.
    twilio.answerFor(phone.e164, twilioAnswers.ok);
    await sendDueAt(new Date(retryAt - 1000));
    expect(requestsTo(phone.e164)).toHaveLength(1);

    await sendDueAt(new Date(retryAt));
    expect(requestsTo(phone.e164)).toHaveLength(2);
    expect(twilio.sent.filter((r) => r.form.To === phone.e164)).toHaveLength(1);
    expect(await row(id)).toMatchObject({ state: 'sent', attempts: 2, last_error: null });
  });

  it("a 400 from Twilio makes the message dead at once, with Twilio's reason, and it is not tried again", async () => {
    const phone = newPhone();
    const b = await bookWithSms('2026-11-27T10:00:00.000Z', phone.typed);
    const id = b.sms[0].id;
    twilio.answerFor(phone.e164, twilioAnswers.invalidNumber);

    await sendDueAt('2026-11-26T10:00:00.000Z');
    const dead = await row(id);
    expect(dead).toMatchObject({ state: 'dead', attempts: 1 });
    expect(dead.last_error).toContain("error 21211: The 'To' number is not a valid phone number.");

    // The admins' outbox list shows it dead with the reason.
    const list = await t.call('GET', `/companies/${a.companyId}/messages?appointment_id=${b.id}&kind=reminder`, { token: a.admin.token });
    expect(list.status, list.text).toBe(200);
    expect(list.body.filter((m: { channel: string }) => m.channel === 'sms')).toEqual([
      expect.objectContaining({ id, channel: 'sms', to: phone.e164, state: 'dead', last_error: dead.last_error }),
    ]);

    await sendDueAt('2026-11-27T09:00:00.000Z');
    expect(requestsTo(phone.e164)).toHaveLength(1);
  });

  it('error 21610 (replied STOP) records the opt-out on the customer, and no further SMS goes to them', async () => {
    const phone = newPhone();
    const email = uniqueEmail('stopper');
    const first = await bookWithSms('2026-11-28T10:00:00.000Z', phone.typed, email);
    const second = await bookWithSms('2026-11-29T10:00:00.000Z', phone.typed, email);
    expect(second.userId).toBe(first.userId);
    expect(second.sms).toHaveLength(1);
    twilio.answerFor(phone.e164, twilioAnswers.unsubscribed);

    const before = await t.db.selectFrom('users').select('sms_opted_out_at').where('id', '=', first.userId).executeTakeFirstOrThrow();
    expect(before.sms_opted_out_at).toBeNull();

    await sendDueAt('2026-11-27T10:00:00.000Z');
    const dead = await row(first.sms[0].id);
    expect(dead).toMatchObject({ state: 'dead', attempts: 1 });
    expect(dead.last_error).toContain('21610');
    const customer = await t.db.selectFrom('users').select('sms_opted_out_at').where('id', '=', first.userId).executeTakeFirstOrThrow();
    expect(customer.sms_opted_out_at).not.toBeNull();

    // The reminder already queued for their other appointment never goes out...
    twilio.answerFor(phone.e164, twilioAnswers.ok);
    await sendDueAt('2026-11-28T10:00:00.000Z');
    await sendDueAt('2026-11-29T10:00:00.000Z');
    expect(requestsTo(phone.e164)).toHaveLength(1);
    expect((await row(second.sms[0].id)).state).not.toBe('sent');

    // ...and a new booking with consent queues no SMS for them.
    clock = NOW;
    const third = await bookWithSms('2026-11-30T10:00:00.000Z', phone.typed, email);
    expect(third.userId).toBe(first.userId);
    expect(third.sms.filter((r) => r.state === 'pending')).toEqual([]);
    await sendDueAt('2026-11-30T09:00:00.000Z');
    expect(requestsTo(phone.e164)).toHaveLength(1);
    expect(twilio.sent.filter((r) => r.form.To === phone.e164)).toEqual([]);

    // Nor by an admin's retry of the dead text.
    clock = NOW;
    const retry = await t.call('POST', `/companies/${a.companyId}/messages/${first.sms[0].id}/retry`, { token: a.admin.token });
    expect(retry.status, retry.text).toBe(409);
    expect(retry.body).toMatchObject({ code: 'conflict', state: 'dead' });
    expect(retry.body.error).toMatch(/STOP/);
    await sendDueAt('2026-11-30T09:30:00.000Z');
    expect(requestsTo(phone.e164)).toHaveLength(1);
    expect((await row(first.sms[0].id)).state).toBe('dead');
  });
});
