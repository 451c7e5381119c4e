// Self-service moves under the scheduling rules (docs/decisions/27-scheduling-rules.md): through the link a
// customer cannot move onto a company closure, the employee's time off, hours a special day does not
// have, inside the minimum notice or past the booking window; the dates and times the manage page
// offers (the public availability endpoints, asked as the page asks) skip those days; and the link's
// answer names the window the page speaks of. On every test dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { manageLinkKey, manageToken } from '../../lib/manage-token.ts';

// Monday 23 November 2026, 08:00 in London (UTC in winter); open 09:00-17:00 every day.
const NOW = new Date('2026-11-23T08:00:00.000Z');
const CLOSURE = '2026-11-26';
const TIME_OFF = '2026-11-27';
const SPECIAL = '2026-11-28'; // open 13:00-15:00 only
const LAST_DAY = '2026-12-02'; // a 10-day window from the 23rd

describe.each(testDialects())('self-service moves under the scheduling rules on %s', (dialect) => {
  let t: TestServer;
  let co: BookableCompany;
  let id: number;
  let token: string;

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW });
    co = await bookableCompany(t, { name: 'Rules Link Salon', employeeBooking: true });
    const settings = await t.call('PUT', `/companies/${co.companyId}`, {
      token: co.admin.token,
      body: { booking_window_days: 10, min_notice_minutes: 120 },
    });
    expect(settings.status, settings.text).toBe(200);
    const overrides = [
      { company_id: co.companyId, date: CLOSURE, is_closed: true, note: 'Holiday' },
      { company_id: co.companyId, user_id: co.employee.id, date: TIME_OFF, is_closed: true },
      { company_id: co.companyId, date: SPECIAL, is_closed: false, intervals: [{ open_time: '13:00', close_time: '15:00' }] },
    ];
    for (const body of overrides) {
      const res = await t.call('POST', '/date-overrides', { token: co.admin.token, body });
      expect(res.status, res.text).toBe(201);
    }
    ({ id, token } = await bookWithLink(co, customerContact('Rita Rules')));
  });
  afterAll(async () => t?.close());

  /** A public booking with the company's employee on Tuesday 10:00, and the link its confirmation carries. */
  async function bookWithLink(c: BookableCompany, customer: ReturnType<typeof customerContact>) {
    const booked = await t.call('POST', '/appointments', {
      body: {
        company_id: c.companyId,
        service_type_ids: [c.serviceId],
        employee_id: c.employee.id,
        start_time: '2026-11-24T10:00:00Z',
        customer,
      },
    });
    expect(booked.status, booked.text).toBe(201);
    // The token of the appointment's stored nonce, as the email renderer makes it.
    const row = await t.db.selectFrom('appointments').select('manage_nonce').where('id', '=', booked.body.id).executeTakeFirstOrThrow();
    return { id: booked.body.id as number, token: manageToken(manageLinkKey(t.server.deps.jwtKey), row.manage_nonce!) };
  }

  const move = (start_time: string) => t.call('POST', `/manage/${token}/reschedule`, { body: { start_time } });
  const version = async () =>
    (await t.db.selectFrom('appointments').select('version').where('id', '=', id).executeTakeFirstOrThrow()).version;
  /** Asked as the manage page asks: the appointment's service and employee. */
  const offeredDates = async () => {
    const res = await t.call(
      'GET',
      `/appointments/available-dates?company_id=${co.companyId}&service_type_id=${co.serviceId}&employee_id=${co.employee.id}`,
    );
    expect(res.status, res.text).toBe(200);
    return res.body.dates as string[];
  };
  const offeredTimes = async (date: string) => {
    const res = await t.call(
      'GET',
      `/appointments/available-slots?company_id=${co.companyId}&service_type_id=${co.serviceId}&employee_id=${co.employee.id}&date=${date}`,
    );
    expect(res.status, res.text).toBe(200);
    return (res.body.slots as { value: string }[]).map((s) => s.value);
  };

  it('the link answers the booking window the page speaks of', async () => {
    const seen = await t.call('GET', `/manage/${token}`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).toMatchObject({ id, employee_id: co.employee.id, booking_window_days: 10, can_reschedule: true });
  });

  it('offers no closure, no time off, only the special hours, nothing inside the notice and nothing past the window', async () => {
    const dates = await offeredDates();
    expect(dates).not.toContain(CLOSURE);
    expect(dates).not.toContain(TIME_OFF);
    expect(dates).toContain(SPECIAL);
    expect(dates[0]).toBe('2026-11-23');
    expect(dates[dates.length - 1]).toBe(LAST_DAY);
    expect(await offeredTimes(CLOSURE)).toEqual([]);
    expect(await offeredTimes(TIME_OFF)).toEqual([]);
    expect(await offeredTimes(SPECIAL)).toEqual(['13:00', '13:30', '14:00', '14:30']);
    expect(await offeredTimes('2026-12-03')).toEqual([]);
    // 120 minutes of notice from 08:00: nothing before 10:00 today.
    expect((await offeredTimes('2026-11-23'))[0]).toBe('10:00');
  });

  it('refuses with 400 a move onto a closure, time off, hours a special day lacks, inside the notice or past the window, and moves nothing', async () => {
    for (const [start, why] of [
      [`${CLOSURE}T10:00:00Z`, 'company closure'],
      [`${TIME_OFF}T10:00:00Z`, "the employee's time off"],
      [`${SPECIAL}T10:00:00Z`, 'outside the special hours'],
      ['2026-11-23T09:00:00Z', 'inside the minimum notice'],
      ['2026-12-03T10:00:00Z', 'past the booking window'],
    ]) {
      const res = await move(start);
      expect(res.status, `${why}: ${res.text}`).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation', details: [{ path: 'start_time' }] });
    }
    expect(await version()).toBe(1);

    // Times the page offers move it: the special day's hours, and the window's last day.
    const special = await move(`${SPECIAL}T13:00:00Z`);
    expect(special.status, special.text).toBe(200);
    expect(special.body).toMatchObject({ start_time: `${SPECIAL}T13:00:00.000Z`, version: 2 });
    const last = await move(`${LAST_DAY}T16:30:00Z`);
    expect(last.status, last.text).toBe(200);
    expect(last.body).toMatchObject({ start_time: `${LAST_DAY}T16:30:00.000Z`, version: 3 });
  });

  it('cannot move online what the booking page no longer offers: a service withdrawn, an employee removed or taken off it', async () => {
    // Each its own company, booked with its employee, then one thing changes.
    const cases: [string, (c: BookableCompany, serviceId: number) => Promise<unknown>][] = [
      [
        'employee taken off the service',
        (c, serviceId) => t.call('PUT', `/service-types/${serviceId}`, { token: c.admin.token, body: { employee_ids: [c.manager.id] } }),
      ],
      ['employee removed', (c) => t.call('DELETE', `/users/${c.employee.id}`, { token: c.admin.token })],
      ['service withdrawn', (c, serviceId) => t.call('DELETE', `/service-types/${serviceId}`, { token: c.admin.token })],
    ];
    for (const [why, change] of cases) {
      const c = await bookableCompany(t, { name: `Changed ${why}`, employeeBooking: true });
      const { token: link } = await bookWithLink(c, customerContact());
      expect((await t.call('GET', `/manage/${link}`)).body.can_reschedule, why).toBe(true);

      const changed = (await change(c, c.serviceId)) as { status: number; text: string };
      expect(changed.status, `${why}: ${changed.text}`).toBeLessThan(300);
      const seen = await t.call('GET', `/manage/${link}`);
      expect(seen.body, why).toMatchObject({ can_reschedule: false, can_cancel: true });
      const res = await t.call('POST', `/manage/${link}/reschedule`, { body: { start_time: '2026-11-24T11:00:00Z' } });
      expect(res.status, `${why}: ${res.text}`).toBe(409);
      expect(res.body.error).toBe(`This appointment cannot be moved online. Please contact Changed ${why}.`);
      // Cancelling still works.
      expect((await t.call('POST', `/manage/${link}/cancel`)).status, why).toBe(200);
    }
  });
});
