// Customer self-service through the link in the email they received (docs/decisions/09-customer-self-service.md):
// the link read from a real SMTP server cancels and moves the appointment; unknown, ended, late,
// taken and off-grid requests get 404, 403 too_late, 409 slot_taken and 400; on every test dialect.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { startTestSmtp, type TestSmtp } from '../../testing/smtp.ts';
import { mailHtml, mailText, manageLinkIn } from '../../testing/mime.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { manageTokenHash } from '../../lib/manage-token.ts';

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
  async function book(start: string) {
    const who = customerContact('Lena Link');
    const res = await t.call('POST', '/appointments', {
      body: { company_id: co.companyId, service_type_ids: [co.serviceId], start_time: start, customer: who },
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
      employee_name: null,
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
});
