// Customer self-service through the link in the email they received (docs/decisions/09-customer-self-service.md):
// the link read from a real SMTP server cancels and moves the appointment; unknown, ended, late,
// taken and off-grid requests get 404, 403 too_late, 409 slot_taken and 400; on every test dialect.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { startTestSmtp, type TestSmtp } from '../../testing/smtp.ts';
import { mailHtml, mailText, manageLinkIn } from '../../testing/mime.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { manageLinkKey, manageToken, manageTokenHash, newManageNonce } from '../../lib/manage-token.ts';
import { renderQueuedEmail, type AppointmentEmailInput } from '../notifications/appointment-emails.ts';

// Monday 23 November 2026, 08:00 in London (UTC in winter); the company is open 09:00-17:00 every day.
const NOW = new Date('2026-11-23T08:00:00.000Z');
const APP_URL = 'https://book.example.com';

describe.each(testDialects())('self-service link on %s', (dialect) => {
  let t: TestServer;
  let smtp: TestSmtp;
  let co: BookableCompany;
  let now = NOW;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await startTestServer(dialect, {
      now: () => now,
      env: { SMTP_URL: smtp.url, DISABLE_SCHEDULER: 'false', APP_URL },
    });
    co = await bookableCompany(t, { name: 'Link Salon', email: 'desk@link-salon.example' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  beforeEach(async () => {
    now = NOW;
    await t.db.updateTable('companies').set({ cancellation_notice_hours: 0 }).where('id', '=', co.companyId).execute();
  });

  /** Books on the public page's endpoint and answers the token of the link in the confirmation received. */
  async function book(start: string, extra: { employee_id?: number } = {}) {
    const who = customerContact('Lena Link');
    const res = await t.call('POST', '/appointments', {
      body: { company_id: co.companyId, service_type_ids: [co.serviceId], start_time: start, customer: who, ...extra },
    });
    expect(res.status, res.text).toBe(201);
    const mail = await smtp.waitFor((m) => m.to.includes(who.email) && /Booking confirmed/.test(m.raw));
    const link = manageLinkIn(mailText(mail));
    return { id: res.body.id as number, who, link, mail };
  }

  it('the link from the confirmation shows the appointment, moves it and cancels it; each email carries the same link', async () => {
    const { id, who, link, mail } = await book('2026-11-24T10:00:00Z');
    expect(link.url).toBe(`${APP_URL}/manage/${link.token}`);
    expect(mailHtml(mail)).toContain(`<a href="${link.url}">`);

    const seen = await t.call('GET', `/manage/${link.token}`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).toMatchObject({
      id,
      start_time: '2026-11-24T10:00:00.000Z',
      end_time: '2026-11-24T10:30:00.000Z',
      status: 'booked',
      version: 1,
      services: [{ id: co.serviceId, name: 'Haircut', duration_minutes: 30 }],
      employee_name: 'Owner', // the employee the server chose (docs/decisions/27-scheduling-rules.md)
      company: { id: co.companyId, name: 'Link Salon', timezone: 'Europe/London' },
      company_name: 'Link Salon',
      timezone: 'Europe/London',
      deadline: '2026-11-24T10:00:00.000Z',
      can_cancel: true,
      can_reschedule: true,
    });
    expect(seen.headers.get('cache-control')).toBe('no-store');

    const moved = await t.call('POST', `/manage/${link.token}/reschedule`, { body: { start_time: '2026-11-24T14:30:00Z' } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ start_time: '2026-11-24T14:30:00.000Z', end_time: '2026-11-24T15:00:00.000Z', version: 2 });
    const notice = await smtp.waitFor((m) => m.to.includes(who.email) && /Appointment moved/.test(m.raw));
    expect(mailText(notice)).toContain('Tuesday, 24 November 2026 at 2:30 PM (Europe/London)');
    expect(manageLinkIn(mailText(notice)).token).toBe(link.token);

    const cancelled = await t.call('POST', `/manage/${link.token}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', version: 3, can_cancel: false, can_reschedule: false });
    await smtp.waitFor((m) => m.to.includes(who.email) && /Appointment cancelled/.test(m.raw));
    const again = await t.call('POST', `/manage/${link.token}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(cancelled.body);
    const row = await t.db.selectFrom('appointments').select(['status', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'cancelled', version: 3 });
    // A cancelled appointment cannot be moved back through the link.
    expect((await t.call('POST', `/manage/${link.token}/reschedule`, { body: { start_time: '2026-11-24T15:00:00Z' } })).status).toBe(409);

    // The database holds the token's hash only: not the token, not the link (emails are kept without it).
    const stored = await t.db.selectFrom('appointments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.manage_token_hash).toBe(manageTokenHash(link.token));
    expect(JSON.stringify(stored)).not.toContain(link.token);
    const outbox = await t.db.selectFrom('outbox_messages').selectAll().where('appointment_id', '=', id).execute();
    expect(outbox.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(outbox)).not.toContain(link.token);
    expect(outbox.find((m) => m.kind === 'confirmation')?.body_text).toContain(`${APP_URL}/manage/`);
  });

  it('answers 404 for an unknown or malformed token, and once the appointment has ended', async () => {
    const { link } = await book('2026-11-25T09:00:00Z');
    expect((await t.call('GET', `/manage/${'A'.repeat(43)}`)).status).toBe(404);
    expect((await t.call('GET', '/manage/not-a-token')).status).toBe(404);
    // However long: a pasted link with junk after it is still an unknown link, not a bad request.
    expect((await t.call('GET', `/manage/${'C'.repeat(300)}`)).status).toBe(404);
    expect(
      (await t.call('POST', `/manage/${'D'.repeat(300)}/reschedule`, { body: { start_time: '2026-11-25T10:00:00.000Z' } })).status,
    ).toBe(404);
    expect((await t.call('POST', `/manage/${'B'.repeat(43)}/cancel`)).status).toBe(404);
    const unknown = await t.call('POST', `/manage/${'C'.repeat(43)}/reschedule`, { body: { start_time: '2026-11-25T10:00:00Z' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');

    now = new Date('2026-11-25T09:29:00.000Z'); // during the appointment: the link still opens it (too late to change)
    const during = await t.call('GET', `/manage/${link.token}`);
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({ can_cancel: false, can_reschedule: false });
    now = new Date('2026-11-25T09:30:00.000Z'); // it ended
    expect((await t.call('GET', `/manage/${link.token}`)).status).toBe(404);
    expect((await t.call('POST', `/manage/${link.token}/cancel`)).status).toBe(404);
  });

  it("enforces the company's cancellation notice with 403 too_late naming the deadline; staff are not bound", async () => {
    const { id, link } = await book('2026-11-24T16:00:00Z'); // 32 hours ahead
    const set = await t.call('PUT', `/companies/${co.companyId}`, { token: co.admin.token, body: { cancellation_notice_hours: 48 } });
    expect(set.status, set.text).toBe(200);

    const seen = await t.call('GET', `/manage/${link.token}`);
    expect(seen.body).toMatchObject({ deadline: '2026-11-22T16:00:00.000Z', can_cancel: false, can_reschedule: false });
    const late = await t.call('POST', `/manage/${link.token}/cancel`);
    expect(late.status).toBe(403);
    expect(late.body.code).toBe('too_late');
    expect(late.body.error).toContain('Sunday, 22 November 2026 at 4:00 PM (Europe/London)');
    // ...and how to reach the business instead, as the confirmation email does.
    expect(late.body.error).toContain('Please contact Link Salon at desk@link-salon.example.');
    expect(seen.body).toMatchObject({ company_email: 'desk@link-salon.example' });
    const lateMove = await t.call('POST', `/manage/${link.token}/reschedule`, { body: { start_time: '2026-11-24T15:00:00Z' } });
    expect(lateMove.status).toBe(403);
    expect(lateMove.body.code).toBe('too_late');
    expect((await t.db.selectFrom('appointments').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('booked');

    // 24 hours of notice: 32 hours ahead is early enough.
    await t.call('PUT', `/companies/${co.companyId}`, { token: co.admin.token, body: { cancellation_notice_hours: 24 } });
    expect((await t.call('GET', `/manage/${link.token}`)).body).toMatchObject({ deadline: '2026-11-23T16:00:00.000Z', can_cancel: true });

    await t.call('PUT', `/companies/${co.companyId}`, { token: co.admin.token, body: { cancellation_notice_hours: 48 } });
    const staff = await t.call('PUT', `/appointments/${id}`, { token: co.employee.token, body: { status: 'cancelled' } });
    expect(staff.status, staff.text).toBe(200);
  });

  it('binds a signed-in customer cancelling in the app by the same notice as the link', async () => {
    const mine = await t.call('POST', '/appointments', {
      token: co.customer.token,
      body: { company_id: co.companyId, service_type_ids: [co.serviceId], start_time: '2026-11-24T15:00:00Z' },
    });
    expect(mine.status, mine.text).toBe(201);
    await t.call('PUT', `/companies/${co.companyId}`, { token: co.admin.token, body: { cancellation_notice_hours: 48 } });
    const late = await t.call('PUT', `/appointments/${mine.body.id}`, { token: co.customer.token, body: { status: 'cancelled' } });
    expect(late.status, late.text).toBe(403);
    expect(late.body).toMatchObject({ code: 'too_late', deadline: '2026-11-22T15:00:00.000Z' });
    expect(late.body.error).toContain('Please contact Link Salon at desk@link-salon.example.');
    // Inside the notice it cancels as before.
    await t.call('PUT', `/companies/${co.companyId}`, { token: co.admin.token, body: { cancellation_notice_hours: 24 } });
    const ok = await t.call('PUT', `/appointments/${mine.body.id}`, { token: co.customer.token, body: { status: 'cancelled' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.status).toBe('cancelled');
  });

  it('moves only to an offered slot: a taken one is 409 slot_taken; off the grid, outside hours, past or beyond the window is 400', async () => {
    const first = await book('2026-11-26T10:00:00Z');
    await book('2026-11-26T11:00:00Z');
    const move = (start_time: string) => t.call('POST', `/manage/${first.link.token}/reschedule`, { body: { start_time } });

    const taken = await move('2026-11-26T11:00:00Z');
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('slot_taken');
    for (const start of [
      '2026-11-26T10:10:00Z', // off the 30-minute grid
      '2026-11-26T20:00:00Z', // after closing
      '2026-11-26T16:45:00Z', // would end after closing
      '2026-11-22T10:00:00Z', // past
      '2027-01-20T10:00:00Z', // beyond the 30-day window
    ]) {
      const res = await move(start);
      expect(res.status, `${start}: ${res.text}`).toBe(400);
      expect(res.body.code).toBe('validation');
    }
    expect((await move('not a time')).status).toBe(400);
    expect((await t.call('POST', `/manage/${first.link.token}/reschedule`, { body: {} })).status).toBe(400);
    // Nothing moved; a free slot still works.
    const row = await t.db
      .selectFrom('appointments')
      .select(['start_time', 'version'])
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(row.version).toBe(1);
    const ok = await move('2026-11-26T12:00:00Z');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ start_time: '2026-11-26T12:00:00.000Z', version: 2 });
  });

  it('counts against the public rate limit', async () => {
    const { link } = await book('2026-11-27T10:00:00Z');
    const hits = async () =>
      Number(
        (
          await t.db
            .selectFrom('rate_limit_hits')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('bucket', '=', 'public')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await hits();
    await t.call('GET', `/manage/${link.token}`);
    await t.call('POST', `/manage/${'D'.repeat(43)}/cancel`);
    expect(await hits()).toBe(before + 2);
  });

  it('two links racing for the same free time: one moves, the other gets 409 slot_taken', async () => {
    const [a, b] = [await book('2026-11-30T10:00:00Z'), await book('2026-11-30T11:00:00Z')];
    const race = await Promise.all(
      [a, b].map((x) => t.call('POST', `/manage/${x.link.token}/reschedule`, { body: { start_time: '2026-11-30T14:00:00Z' } })),
    );
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    const there = await t.db
      .selectFrom('appointments')
      .select('id')
      .where('start_time', '=', '2026-11-30T14:00:00.000Z')
      .where('status', '=', 'booked')
      .execute();
    expect(there).toHaveLength(1);
  });

  it('an appointment made before links existed gets one with its next email', async () => {
    const { id } = await book('2026-12-01T10:00:00Z');
    await t.db.updateTable('appointments').set({ manage_nonce: null, manage_token_hash: null }).where('id', '=', id).execute();
    const moved = await t.call('PUT', `/appointments/${id}`, { token: co.admin.token, body: { start_time: '2026-12-01T12:00:00Z' } });
    expect(moved.status, moved.text).toBe(200);
    const row = await t.db
      .selectFrom('appointments')
      .select(['manage_token_hash', 'customer_email'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.manage_token_hash).toMatch(/^[0-9a-f]{64}$/);
    const notice = await smtp.waitFor((m) => m.to.includes(row.customer_email!) && /Appointment moved/.test(m.raw));
    const link = manageLinkIn(mailText(notice));
    expect(manageTokenHash(link.token)).toBe(row.manage_token_hash);
    expect((await t.call('GET', `/manage/${link.token}`)).body).toMatchObject({ id, start_time: '2026-12-01T12:00:00.000Z' });
  });

  it('the reminder carries the same link, and a change through it tells the assigned employee', async () => {
    await t.db.updateTable('companies').set({ enable_employee_booking: 1 }).where('id', '=', co.companyId).execute();
    const employee = await t.db.selectFrom('users').select(['email']).where('id', '=', co.employee.id).executeTakeFirstOrThrow();
    const { who, link } = await book('2026-11-28T10:00:00Z', { employee_id: co.employee.id });
    await t.db.updateTable('companies').set({ enable_employee_booking: 0 }).where('id', '=', co.companyId).execute();

    now = new Date('2026-11-27T10:30:00.000Z'); // the reminder (24 hours before) is due
    await t.server.dispatcher.runOnce();
    const reminder = await smtp.waitFor((m) => m.to.includes(who.email) && /Reminder:/.test(m.raw));
    expect(manageLinkIn(mailText(reminder)).token).toBe(link.token);

    const moved = await t.call('POST', `/manage/${link.token}/reschedule`, { body: { start_time: '2026-11-28T13:00:00Z' } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ employee_id: co.employee.id, start_time: '2026-11-28T13:00:00.000Z' });
    const notice = await smtp.waitFor((m) => m.to.includes(employee.email!) && /Booking moved/.test(m.raw));
    expect(() => manageLinkIn(mailText(notice))).toThrow(); // the employee's email has no customer link
  });
});

describe('the manage link in rendered emails', () => {
  const key = manageLinkKey(new TextEncoder().encode('test signing key'));
  const nonce = newManageNonce();
  const token = manageToken(key, nonce);
  const input: AppointmentEmailInput = {
    kind: 'confirmation',
    appointment: { id: 7, start_time: '2026-11-24T09:30:00.000Z', end_time: '2026-11-24T10:00:00.000Z', version: 1, description: null },
    company: { id: 1, name: 'Link Salon', email: 'desk@link-salon.example', timezone: 'Europe/London' },
    serviceNames: ['Haircut'],
    customer: { name: 'Lena', email: 'lena@example.test' },
    appUrl: APP_URL,
    mailFrom: 'no-reply@book.example.com',
    manageNonce: nonce,
  };
  const snapshot = (over: Partial<AppointmentEmailInput>) =>
    JSON.stringify({ template: 'appointment', input: { ...input, ...over }, at: NOW.toISOString() });

  it('confirmation, reschedule notice and reminder carry it in text and HTML; the kept copy does not', () => {
    for (const kind of ['confirmation', 'reschedule', 'reminder'] as const) {
      const email = renderQueuedEmail(snapshot({ kind }), { manageKey: key });
      expect(email.text).toContain(`To change or cancel it, open your booking page (no account needed):\n${APP_URL}/manage/${token}\n`);
      expect(email.text).not.toContain('To change or cancel it, contact');
      expect(email.html).toContain(`<a href="${APP_URL}/manage/${token}">`);
      expect(JSON.stringify(email.record)).not.toContain(token);
      expect(email.record!.text).toContain(`${APP_URL}/manage/(personal link, not kept)`);
    }
  });

  it("past the company's notice the link only shows the appointment, and the email says whom to ask instead", () => {
    const company = { ...input.company, cancellation_notice_hours: 48 };
    // The appointment starts at 09:30 on 24 November: changes online end at 09:30 on the 22nd.
    const late = renderQueuedEmail(snapshot({ kind: 'reminder', company }), {
      manageKey: key,
      sendingAt: new Date('2026-11-23T09:30:00Z'),
    });
    expect(late.text).toContain(
      `Your booking page (no account needed):\n${APP_URL}/manage/${token}\nIt is too late to change or cancel it online: to do so, contact Link Salon at desk@link-salon.example.`,
    );
    expect(late.text).not.toContain('open your booking page');
    expect(late.html).toContain(`<a href="${APP_URL}/manage/${token}">`);
    const early = renderQueuedEmail(snapshot({ kind: 'reminder', company }), {
      manageKey: key,
      sendingAt: new Date('2026-11-22T09:00:00Z'),
    });
    expect(early.text).toContain(`To change or cancel it, open your booking page (no account needed):\n${APP_URL}/manage/${token}\n`);
  });

  it('is left out of cancellations and staff notices, and without the key the customer is told to contact the business', () => {
    expect(renderQueuedEmail(snapshot({ kind: 'cancellation' }), { manageKey: key }).text).not.toContain('/manage/');
    const notice = renderQueuedEmail(snapshot({ kind: 'staff_notice', staffNotice: { change: 'booked', recipientName: 'Emma' } }), {
      manageKey: key,
    });
    expect(notice.text + notice.html).not.toContain('/manage/');
    const keyless = renderQueuedEmail(snapshot({}));
    expect(keyless.text).toContain('To change or cancel it, contact Link Salon at desk@link-salon.example.');
    expect(keyless.text).not.toContain('/manage/');
    expect(keyless.record).toBeUndefined();
  });
});
