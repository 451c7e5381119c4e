// Issue 12's contracts that the feature suites leave implicit, checked word by word against
// docs/decisions/22-messaging.md and 23-self-service.md, over HTTP on every test dialect with a real
// SMTP server and the real scheduler: the writer's nudge (not the minute tick) sends a message due
// now; the outbox list's exact fields for an appointment's messages, its appointment and kind
// filters, and the retry of a failed (not only a dead) message; the self-service answer's employee
// name, company slug and timezone; the self-service calls counted against RATE_LIMIT_PUBLIC up to
// 429; and sms_consent as a boolean at the top level of the booking body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { startTestSmtp, type TestSmtp } from '../../testing/smtp.ts';
import { mailText, manageLinkIn } from '../../testing/mime.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';

// Monday 23 November 2026, 08:00 in London; the company is open 09:00-17:00 every day.
const NOW = new Date('2026-11-23T08:00:00.000Z');
const APP_URL = 'https://book.example.com';
const MESSAGE_FIELDS = ['id', 'kind', 'channel', 'to', 'state', 'due_at', 'sent_at', 'attempts', 'last_error', 'appointment_id'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `read` answers something `done` accepts (the dispatcher works on its own here). */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await sleep(50);
  }
}

describe.each(testDialects())('issue 12 contracts on %s', (dialect) => {
  let t: TestServer;
  let smtp: TestSmtp;
  let co: BookableCompany;
  const tag = Math.random().toString(36).slice(2, 8);

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await startTestServer(dialect, {
      now: () => NOW,
      // The real scheduler: the minute tick and the nudge after each commit, as in production.
      env: { SMTP_URL: smtp.url, DISABLE_SCHEDULER: 'false', APP_URL },
    });
    co = await bookableCompany(t, { name: 'Contract Salon', employeeBooking: true, capacity: 5 });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const book = async (start: string, customer = customerContact('Cora Contract'), extra: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/appointments', {
      body: { company_id: co.companyId, service_type_ids: [co.serviceId], start_time: start, customer, ...extra },
    });
    expect(res.status, res.text).toBe(201);
    return { id: res.body.id as number, customer };
  };

  it('a message due now is sent by the nudge after the commit, before the minute tick could send it', async () => {
    // The tick runs at the start of each wall-clock minute: book well before the next one, so a mail
    // that arrives before it was sent by the writer's nudge. (No runOnce is called here.) Up to 25.5 s
    // waiting for a fresh minute, then up to the tick for the mail: more than the suite's 30 s when
    // the mail is slow under load, which would end the test before its own wait could say why.
    const toTick = () => 60_000 - (Date.now() % 60_000);
    if (toTick() < 25_000) await sleep(toTick() + 500);
    const tickAt = Date.now() + toTick();
    const { customer } = await book('2026-11-24T10:00:00Z');
    const mail = await smtp.waitFor((m) => m.to.includes(customer.email) && /Booking confirmed/.test(m.raw), tickAt - Date.now() - 500);
    expect(Date.now()).toBeLessThan(tickAt);
    expect(manageLinkIn(mailText(mail)).url).toMatch(`${APP_URL}/manage/`);
  }, 75_000);

  it("lists an appointment's messages with exactly the contract's fields, filtered by appointment and kind, without body or link", async () => {
    const { id, customer } = await book('2026-11-25T10:00:00Z');
    await smtp.waitFor((m) => m.to.includes(customer.email) && /Booking confirmed/.test(m.raw));
    const all = await t.call('GET', `/companies/${co.companyId}/messages?appointment_id=${id}`, { token: co.admin.token });
    expect(all.status, all.text).toBe(200);
    // The confirmation (sent) and the reminder 24 hours before (pending) to the customer, and the notice
    // to the employee the server chose for this "any employee" booking, all of this appointment.
    expect(all.body.map((m: { kind: string }) => m.kind).sort()).toEqual(['confirmation', 'reminder', 'staff_notice']);
    for (const m of all.body) {
      expect(Object.keys(m).sort()).toEqual([...MESSAGE_FIELDS].sort());
      expect(m).toMatchObject({ channel: 'email', appointment_id: id });
      if (m.kind !== 'staff_notice') expect(m.to).toBe(customer.email);
    }
    expect(all.text).not.toContain('/manage/');
    expect(all.text).not.toContain('Contract Salon'); // no subject or body text

    const confirmation = await t.call('GET', `/companies/${co.companyId}/messages?appointment_id=${id}&kind=confirmation`, {
      token: co.manager.token,
    });
    expect(confirmation.body).toEqual([
      {
        id: expect.any(Number),
        kind: 'confirmation',
        channel: 'email',
        to: customer.email,
        state: 'sent',
        due_at: NOW.toISOString(),
        sent_at: expect.any(String),
        attempts: 1,
        last_error: null,
        appointment_id: id,
      },
    ]);
    const reminder = await t.call('GET', `/companies/${co.companyId}/messages?appointment_id=${id}&state=pending`, {
      token: co.admin.token,
    });
    expect(reminder.body).toEqual([expect.objectContaining({ kind: 'reminder', due_at: '2026-11-24T10:00:00.000Z', sent_at: null })]);
  });

  it('retries a failed message (a temporary refusal, another attempt scheduled): 200 and pending again', async () => {
    const customer = { ...customerContact('Tess Tempfail'), email: `tempfail.${tag}@example.test` };
    const { id } = await book('2026-11-26T10:00:00Z', customer);
    const list = () =>
      t.call('GET', `/companies/${co.companyId}/messages?appointment_id=${id}&kind=confirmation`, { token: co.admin.token });
    const failed = (await until(list, (r) => r.body[0]?.state === 'failed')).body[0];
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, last_error: expect.stringContaining('451'), sent_at: null });

    const retry = await t.call('POST', `/companies/${co.companyId}/messages/${failed.id}/retry`, { token: co.admin.token });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body).toMatchObject({ id: failed.id, state: 'pending', attempts: 0, due_at: NOW.toISOString() });
    expect(Object.keys(retry.body).sort()).toEqual([...MESSAGE_FIELDS].sort());
    // The nudge after the retry tries it again at once; the server refuses it again, so it fails again.
    const again = (await until(list, (r) => r.body[0]?.state === 'failed' && r.body[0]?.attempts === 1)).body[0];
    expect(again).toMatchObject({ state: 'failed', attempts: 1 });
  });

  it("the self-service answer names the employee, the company's name, slug and timezone", async () => {
    const { customer } = await book('2026-11-27T10:00:00Z', customerContact('Sally Slug'), { employee_id: co.employee.id });
    const mail = await smtp.waitFor((m) => m.to.includes(customer.email) && /Booking confirmed/.test(m.raw));
    const { token } = manageLinkIn(mailText(mail));
    const company = await t.db
      .selectFrom('companies')
      .select(['name', 'slug', 'timezone'])
      .where('id', '=', co.companyId)
      .executeTakeFirstOrThrow();
    const employee = await t.db.selectFrom('users').select('name').where('id', '=', co.employee.id).executeTakeFirstOrThrow();

    const res = await t.call('GET', `/manage/${token}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      start_time: '2026-11-27T10:00:00.000Z',
      end_time: '2026-11-27T10:30:00.000Z',
      status: 'booked',
      services: [{ id: co.serviceId, name: 'Haircut', duration_minutes: 30 }],
      employee_id: co.employee.id,
      employee_name: employee.name,
      company: { id: co.companyId, name: company.name, slug: company.slug, timezone: 'Europe/London' },
      company_name: company.name,
      company_slug: company.slug,
      timezone: 'Europe/London',
      deadline: '2026-11-27T10:00:00.000Z',
      can_cancel: true,
      can_reschedule: true,
    });
    expect(typeof res.body.version).toBe('number');
  });

  it('sms_consent is a boolean at the top level of the booking body', async () => {
    for (const bad of ['yes', 1, null]) {
      const res = await t.call('POST', '/appointments', {
        body: {
          company_id: co.companyId,
          service_type_ids: [co.serviceId],
          start_time: '2026-11-28T10:00:00Z',
          customer: customerContact('Bad Consent'),
          sms_consent: bad,
        },
      });
      expect(res.status, `${JSON.stringify(bad)}: ${res.text}`).toBe(400);
      expect(JSON.stringify(res.body)).toContain('sms_consent');
    }
    const { id } = await book('2026-11-28T10:00:00Z', customerContact('Good Consent'), { sms_consent: true });
    const row = await t.db.selectFrom('appointments').select('sms_consent').where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(row.sms_consent)).toBe(1);
    // SMS is not configured on this server: no SMS row is queued, consent or not.
    const sms = await t.db
      .selectFrom('outbox_messages')
      .select('id')
      .where('appointment_id', '=', id)
      .where('channel', '=', 'sms')
      .execute();
    expect(sms).toEqual([]);
  });
});

describe.each(testDialects())('self-service calls against RATE_LIMIT_PUBLIC on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW, env: { RATE_LIMIT_PUBLIC: '3' } });
  });
  afterAll(async () => t?.close());

  it('reading, cancelling and moving each count; past the limit the answer is 429 with Retry-After', async () => {
    const token = 'Z'.repeat(43);
    const statuses = [
      (await t.call('GET', `/manage/${token}`)).status,
      (await t.call('POST', `/manage/${token}/cancel`)).status,
      (await t.call('POST', `/manage/${token}/reschedule`, { body: { start_time: '2026-11-24T10:00:00Z' } })).status,
    ];
    expect(statuses).toEqual([404, 404, 404]);
    const limited = await t.call('GET', `/manage/${token}`);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toBe('60');
  });
});
