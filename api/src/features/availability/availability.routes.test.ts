// The availability endpoints over real HTTP on every test dialect: slot shape, bookings and
// cancellations, employees, daylight-saving days, the 30-day dates list, and their errors.
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addService, bookableCompany, customerContact, setHours, type BookableCompany } from '../../testing/booking-fixtures.ts';

// Monday 23 November 2026, 10:15 in London.
const NOW = new Date('2026-11-23T10:15:00.000Z');

describe.each(testDialects())('availability endpoints on %s', (dialect) => {
  let t: TestServer;
  let clock = NOW;
  let co: BookableCompany;

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => clock });
    co = await bookableCompany(t, { name: 'Slots & Co', timezone: 'Europe/London' });
  });
  afterAll(async () => t?.close());

  const slots = (qs: string, token?: string) => t.call('GET', `/appointments/available-slots?${qs}`, { token });
  const dates = (qs: string, token?: string) => t.call('GET', `/appointments/available-dates?${qs}`, { token });
  const values = async (qs: string) => {
    const res = await slots(qs);
    expect(res.status, res.text).toBe(200);
    return res.body.slots.map((s: any) => s.value);
  };

  it("answers the day's slots as {value, label, start, end} in the company zone", async () => {
    const res = await slots(`company_id=${co.companyId}&service_type_id=${co.serviceId}&date=2026-11-24`);
    expect(res.status).toBe(200);
    expect(res.body.slots).toHaveLength(16);
    expect(res.body.slots[0]).toEqual({
      value: '09:00',
      label: '9:00 AM',
      start: '2026-11-24T09:00:00.000Z',
      end: '2026-11-24T09:30:00.000Z',
    });
    expect(res.body.slots[15]).toMatchObject({ value: '16:30', label: '4:30 PM' });
    // Today: nothing before now.
    expect((await values(`company_id=${co.companyId}&service_type_id=${co.serviceId}&date=2026-11-23`))[0]).toBe('10:30');
    // duration_minutes replaces the service's duration.
    expect((await values(`company_id=${co.companyId}&service_type_id=${co.serviceId}&date=2026-11-24&duration_minutes=120`)).at(-1)).toBe(
      '15:00',
    );
    // Outside the 30-day window (23 Nov .. 22 Dec), and in the past: none.
    expect(await values(`company_id=${co.companyId}&service_type_id=${co.serviceId}&date=2026-12-23`)).toEqual([]);
    expect(await values(`company_id=${co.companyId}&service_type_id=${co.serviceId}&date=2026-11-22`)).toEqual([]);
    expect(await values(`company_id=${co.companyId}&service_type_id=${co.serviceId}&date=2026-12-22`)).toHaveLength(16);
  });

  // Browsers send Accept-Encoding: the answer comes compressed by the route itself (lib/compression.ts, jsonAnswer).
  it('sends the answers compressed to a client that takes brotli or gzip, the same JSON as uncompressed', async () => {
    const path = `/api/appointments/available-slots?company_id=${co.companyId}&service_type_id=${co.serviceId}&date=2026-11-24`;
    const raw = (encoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${t.url}${path}`, { headers: { 'Accept-Encoding': encoding } }, (res) => {
            const parts: Buffer[] = [];
            res.on('data', (d: Buffer) => parts.push(d));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
          })
          .on('error', reject);
      });
    const plain = JSON.parse((await raw('identity')).body.toString());
    expect(plain.slots).toHaveLength(16);
    for (const [encoding, unpack] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      // Twice: the second answer is the kept compressed form of the cached one.
      for (let round = 0; round < 2; round++) {
        const res = await raw(encoding);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toBe('Accept-Encoding');
        expect(Number(res.headers['content-length'])).toBe(res.body.byteLength);
        expect(JSON.parse(unpack(res.body).toString())).toEqual(plain);
      }
    }
  });

  it('takes booked places away up to capacity and gives cancelled ones back', async () => {
    const c = await bookableCompany(t, { name: 'Two Chairs', capacity: 2 });
    const q = `company_id=${c.companyId}&service_type_id=${c.serviceId}&date=2026-11-25`;
    const bookAt = (start: string) =>
      t.call('POST', '/appointments', {
        body: { company_id: c.companyId, service_type_ids: [c.serviceId], start_time: start, customer: customerContact() },
      });
    const first = await bookAt('2026-11-25T10:00:00.000Z');
    expect(await values(q)).toContain('10:00');
    await bookAt('2026-11-25T10:00:00.000Z');
    expect(await values(q)).not.toContain('10:00');
    await t.call('PUT', `/appointments/${first.body.id}`, { token: c.admin.token, body: { status: 'cancelled' } });
    expect(await values(q)).toContain('10:00');
  });

  it('respects a chosen employee: their own appointments of any service and their personal hours', async () => {
    const c = await bookableCompany(t, { name: 'Barbers', employeeBooking: true, capacity: 5 });
    const other = await addService(t, c.admin.token, { name: 'Shave', duration_minutes: 60, available_slots: 5 });
    await t.call('POST', '/appointments', {
      token: c.admin.token,
      body: { service_type_ids: [other], employee_id: c.employee.id, start_time: '2026-11-26T11:00:00Z' },
    });
    const base = `company_id=${c.companyId}&service_type_id=${c.serviceId}&date=2026-11-26`;
    const withEmployee = await values(`${base}&employee_id=${c.employee.id}`);
    expect(withEmployee).not.toContain('11:00');
    expect(withEmployee).not.toContain('11:30');
    expect(withEmployee).toContain('10:30');
    expect(withEmployee).toContain('12:00');
    expect(await values(`${base}&employee_id=${c.user.id}`)).toContain('11:00');
    expect(await values(base)).toContain('11:00');
    // Personal hours on Thursday (day 4): 13:00-15:00 only.
    await setHours(t, c.admin.token, { user_id: c.user.id, day_of_week: 4, open_time: '13:00', close_time: '15:00' });
    expect(await values(`${base}&employee_id=${c.user.id}`)).toEqual(['13:00', '13:30', '14:00', '14:30']);
    // Someone with personal hours but none that day does not work it.
    expect(await values(`company_id=${c.companyId}&service_type_id=${c.serviceId}&date=2026-11-27&employee_id=${c.user.id}`)).toEqual([]);
  });

  it('skips local times that do not exist on daylight-saving days', async () => {
    clock = new Date('2027-03-20T12:00:00.000Z');
    try {
      const london = await bookableCompany(t, { name: 'London DST', timezone: 'Europe/London', open: '00:00', close: '04:00' });
      const ny = await bookableCompany(t, { name: 'New York DST', timezone: 'America/New_York', open: '00:00', close: '04:00' });
      // 28 March 2027: London jumps from 01:00 to 02:00.
      const l = await slots(`company_id=${london.companyId}&service_type_id=${london.serviceId}&date=2027-03-28`);
      expect(l.body.slots.map((s: any) => s.value)).toEqual(['00:00', '00:30', '02:00', '02:30', '03:00', '03:30']);
      expect(l.body.slots[2].start).toBe('2027-03-28T01:00:00.000Z');
      // 14 March 2027 in New York is before this clock: take 4 April (no change) as the control.
      const n = await slots(`company_id=${ny.companyId}&service_type_id=${ny.serviceId}&date=2027-04-04`);
      expect(n.body.slots).toHaveLength(8);
      expect(n.body.slots[0].start).toBe('2027-04-04T04:00:00.000Z');
    } finally {
      clock = NOW;
    }
  });

  it('lists the next 30 local days that still have a free slot, without closed or full days', async () => {
    const c = await bookableCompany(t, { name: 'Datebook', open: '09:00', close: '10:00', durationMinutes: 60 });
    // Closed on Sundays.
    await setHours(t, c.admin.token, { day_of_week: 7, is_closed: true, open_time: null, close_time: null });
    const q = `company_id=${c.companyId}&service_type_id=${c.serviceId}`;
    const before = await dates(q);
    expect(before.status).toBe(200);
    const sundays = ['2026-11-29', '2026-12-06', '2026-12-13', '2026-12-20'];
    // Today's only slot (09:00) has passed at 10:15.
    expect(before.body.dates[0]).toBe('2026-11-24');
    expect(before.body.dates.at(-1)).toBe('2026-12-22');
    expect(before.body.dates).toHaveLength(30 - 1 - sundays.length);
    for (const s of sundays) expect(before.body.dates).not.toContain(s);
    const booked = await t.call('POST', '/appointments', {
      body: { company_id: c.companyId, service_type_ids: [c.serviceId], start_time: '2026-11-25T09:00:00Z', customer: customerContact() },
    });
    expect(booked.status).toBe(201);
    const after = await dates(q);
    expect(after.body.dates).not.toContain('2026-11-25');
    expect(after.body.dates).toHaveLength(before.body.dates.length - 1);
    // A long staff appointment from the evening before also fills the morning.
    await t.call('POST', '/appointments', {
      token: c.admin.token,
      body: { service_type_ids: [c.serviceId], start_time: '2026-11-25T20:00:00Z', end_time: '2026-11-26T09:30:00Z' },
    });
    expect((await dates(q)).body.dates).not.toContain('2026-11-26');
    expect(await values(`${q}&date=2026-11-26`)).toEqual([]);
  });

  /** Ends a company's subscription before the test's clock (NOW). */
  const lapse = (companyId: number) =>
    t.db.updateTable('companies').set({ subscription_expires_at: '2026-11-01T00:00:00.000Z' }).where('id', '=', companyId).execute();

  it("answers 403 not_accepting_bookings when the subscription expired, except to the company's staff", async () => {
    const c = await bookableCompany(t, { name: 'Expired' });
    await lapse(c.companyId);
    const q = `company_id=${c.companyId}&service_type_id=${c.serviceId}`;
    for (const res of [await slots(`${q}&date=2026-11-24`), await dates(q), await slots(`${q}&date=2026-11-24`, c.customer.token)]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'This business is not taking online bookings right now', code: 'not_accepting_bookings' });
    }
    expect((await slots(`${q}&date=2026-11-24`, c.employee.token)).status).toBe(200);
  });

  // The company, service and employee are read together (availability.service.ts, target); the
  // answer is still the first check that fails, in the order the booking page expects.
  it('names the first thing wrong: the company, then a lapsed subscription, then the service, then the employee', async () => {
    const other = await bookableCompany(t, { name: 'Elsewhere' });
    const lapsed = await bookableCompany(t, { name: 'Lapsed' });
    await lapse(lapsed.companyId);
    const wrong = (company: number, service: number, employee: number) =>
      slots(`company_id=${company}&service_type_id=${service}&date=2026-11-24&employee_id=${employee}`);
    const cases: [Awaited<ReturnType<typeof slots>>, number, string][] = [
      [await wrong(999999, 999999, 999999), 404, 'Company not found'],
      [await wrong(lapsed.companyId, 999999, 999999), 403, 'This business is not taking online bookings right now'],
      [await wrong(co.companyId, other.serviceId, other.employee.id), 404, 'Service not found'],
      [await wrong(co.companyId, co.serviceId, other.employee.id), 404, 'Employee not found'],
    ];
    for (const [res, status, error] of cases) {
      expect(res.status).toBe(status);
      expect(res.body.error).toBe(error);
    }
  });

  it('refuses bad input: 400 for malformed values, 404 for unknown company, service or employee', async () => {
    const other = await bookableCompany(t, { name: 'Other' });
    const ok = `company_id=${co.companyId}&service_type_id=${co.serviceId}`;
    for (const qs of [
      `${ok}&date=2026-02-30`,
      `${ok}&date=24-11-2026`,
      `${ok}&date=tomorrow`,
      `${ok}`,
      `company_id=${co.companyId}&date=2026-11-24`,
      `company_id=abc&service_type_id=${co.serviceId}&date=2026-11-24`,
      `${ok}&date=2026-11-24&duration_minutes=0`,
      `${ok}&date=2026-11-24&duration_minutes=abc`,
      `${ok}&date=2026-11-24&employee_id=-3`,
      `${ok}&date=${'1'.repeat(300)}`,
    ]) {
      const res = await slots(qs);
      expect(res.status, qs).toBe(400);
      expect(res.body.code).toBe('validation');
    }
    for (const qs of [
      `company_id=999999&service_type_id=${co.serviceId}&date=2026-11-24`,
      `company_id=${co.companyId}&service_type_id=${other.serviceId}&date=2026-11-24`,
      `company_id=${co.companyId}&service_type_id=999999&date=2026-11-24`,
      `${ok}&date=2026-11-24&employee_id=${co.customer.id}`,
      `${ok}&date=2026-11-24&employee_id=${other.employee.id}`,
    ]) {
      const res = await slots(qs);
      expect(res.status, qs).toBe(404);
    }
    expect((await dates(`company_id=${co.companyId}&service_type_id=${other.serviceId}`)).status).toBe(404);
    expect((await dates(`company_id=${co.companyId}`)).status).toBe(400);
    const archived = await addService(t, co.admin.token, { name: 'Gone', duration_minutes: 30 });
    await t.db.updateTable('service_types').set({ archived_at: NOW.toISOString() }).where('id', '=', archived).execute();
    expect((await slots(`company_id=${co.companyId}&service_type_id=${archived}&date=2026-11-24`)).status).toBe(404);
  });
});
