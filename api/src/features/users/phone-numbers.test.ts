// Phone numbers over real HTTP on every test dialect: wherever a number is entered (people added or
// edited, the contact of a booking) it is stored in E.164, read with the company's `country` when it
// has no +, and a number that cannot be one answers 400 naming the field (docs/decisions/22-messaging.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, uniqueEmail, type TestServer } from '../../testing/harness.ts';
import { bookableCompany, type BookableCompany } from '../../testing/booking-fixtures.ts';

// Monday 23 November 2026, 08:00 in London: Tuesday's times are bookable.
const NOW = new Date('2026-11-23T08:00:00.000Z');

describe.each(testDialects())('phone numbers on %s', (dialect) => {
  let t: TestServer;
  let us: BookableCompany;
  let gb: BookableCompany;
  let slot = 0;

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW });
    us = await bookableCompany(t, { name: 'Phone US', capacity: 50 });
    gb = await bookableCompany(t, { name: 'Phone GB', capacity: 50 });
    const res = await t.call('PUT', `/companies/${gb.companyId}`, { token: gb.admin.token, body: { country: 'GB' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.country).toBe('GB');
  });
  afterAll(async () => t?.close());

  const addCustomer = (co: BookableCompany, phone: unknown) =>
    t.call('POST', '/users/customer', { token: co.admin.token, body: { name: 'Phoebe Phone', email: uniqueEmail('phoebe'), phone } });

  /** A public booking on Tuesday (a different time each call). */
  const book = (co: BookableCompany, phone: unknown, token?: string) => {
    slot += 1;
    const start = new Date(Date.parse('2026-11-24T09:00:00.000Z') + (slot % 14) * 30 * 60_000).toISOString();
    return t.call('POST', '/appointments', {
      token,
      body: {
        company_id: co.companyId,
        service_type_ids: [co.serviceId],
        start_time: start,
        customer: { name: 'Bea Booker', email: uniqueEmail('bea'), phone },
      },
    });
  };

  const storedPhone = async (userId: number) =>
    (await t.db.selectFrom('users').select('phone').where('id', '=', userId).executeTakeFirstOrThrow()).phone;

  it.each([
    ['us', '(415) 555-2671', '+14155552671'],
    ['gb', '020 7946 0958', '+442079460958'],
    ['gb', '+33 1 23 45 67 89', '+33123456789'], // written with its country code: kept in its own country
    ['us', '+44 20 7946 0958', '+442079460958'],
  ] as const)('adding a person of the %s company with %j stores %s', async (which, typed, e164) => {
    const res = await addCustomer(which === 'us' ? us : gb, typed);
    expect(res.status, res.text).toBe(201);
    expect(res.body.phone).toBe(e164);
    expect(await storedPhone(res.body.id)).toBe(e164);
  });

  it('staff are added the same way (POST /users/employee)', async () => {
    const res = await t.call('POST', '/users/employee', {
      token: gb.admin.token,
      body: { name: 'Ellie Employee', email: uniqueEmail('ellie'), phone: '07700 900123', role: 'employee' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.phone).toBe('+447700900123');
  });

  it("editing a phone (PUT /users/{id}, also one's own) reads it with the person's company country; empty clears it", async () => {
    const created = await addCustomer(gb, null);
    expect(created.status, created.text).toBe(201);
    const put = await t.call('PUT', `/users/${created.body.id}`, { token: gb.manager.token, body: { phone: '020 7946 0958' } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.phone).toBe('+442079460958');
    const own = await t.call('PATCH', `/users/${us.employee.id}`, { token: us.employee.token, body: { phone: '415.555.2671' } });
    expect(own.status, own.text).toBe(200);
    expect(own.body.phone).toBe('+14155552671');
    const cleared = await t.call('PUT', `/users/${created.body.id}`, { token: gb.manager.token, body: { phone: '' } });
    expect(cleared.body.phone).toBeNull();
  });

  it('a booking stores the typed contact number in E.164 on the appointment and on the new customer', async () => {
    const res = await book(gb, '020 7946 0958');
    expect(res.status, res.text).toBe(201);
    const row = await t.db.selectFrom('appointments').select('customer_phone').where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(row.customer_phone).toBe('+442079460958');
    expect(await storedPhone(res.body.user_id)).toBe('+442079460958');
    const staff = await t.call('GET', `/appointments/${res.body.id}`, { token: gb.employee.token });
    expect(staff.body.booking_contact.phone).toBe('+442079460958');

    const staffBooking = await t.call('POST', '/appointments', {
      token: us.admin.token,
      body: {
        company_id: us.companyId,
        service_type_ids: [us.serviceId],
        start_time: '2026-11-25T10:00:00.000Z',
        customer: { name: 'Walk In', email: uniqueEmail('walkin'), phone: '(415) 555-2671' },
      },
    });
    expect(staffBooking.status, staffBooking.text).toBe(201);
    expect(staffBooking.body.booking_contact.phone).toBe('+14155552671');
  });

  it.each([
    ['abc', 'phone'],
    ['12', 'phone'],
    ['555-2671', 'phone'], // seven digits: not a whole US number
  ])('refuses %j for a person with 400 naming the field, and stores nothing', async (typed, field) => {
    const before = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await addCustomer(us, typed);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(res.body.error).toMatch(/phone/i);
    expect(res.body.details).toEqual([expect.objectContaining({ path: field })]);
    const after = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const put = await t.call('PUT', `/users/${us.customer.id}`, { token: us.admin.token, body: { phone: typed } });
    expect(put.status, put.text).toBe(400);
    expect(put.body.details).toEqual([expect.objectContaining({ path: field })]);
  });

  it.each(['abc', '12', '1234'])('refuses %j as a booking contact with 400 naming customer.phone', async (typed) => {
    const res = await book(gb, typed);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(res.body.details).toEqual([expect.objectContaining({ path: 'customer.phone' })]);
  });

  it("a number not possible in the company's country is refused there but accepted where it is", async () => {
    // Seven digits are not a whole US number (no area code); British numbering has numbers that long.
    expect((await addCustomer(us, '555 2671')).status).toBe(400);
    const gbRes = await addCustomer(gb, '555 2671');
    expect(gbRes.status, gbRes.text).toBe(201);
    expect(gbRes.body.phone).toBe('+445552671');
  });
});
