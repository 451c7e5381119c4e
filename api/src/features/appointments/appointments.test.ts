// Appointment endpoints over real HTTP on every test dialect: public, customer and staff booking,
// the read shape, filters, tenancy, updates, cancellation, deletion and bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, uniqueEmail, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, addPerson, type TestPerson } from '../../testing/company-people.ts';
import { databaseFingerprint } from '../../testing/fingerprint.ts';
import { addService, bookableCompany, countRows, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { userRow } from '../../testing/rows.ts';

// Monday 23 November 2026, 08:00 in London (GMT): Tuesday's 09:30 is bookable.
const NOW = new Date('2026-11-23T08:00:00.000Z');
const TUESDAY_0930 = '2026-11-24T09:30:00.000Z';

describe.each(testDialects())('appointments on %s', (dialect) => {
  let t: TestServer;
  let a: BookableCompany;
  let b: BookableCompany;
  let global: TestPerson;

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW });
    a = await bookableCompany(t, { name: 'Alpha Salon', capacity: 1 });
    b = await bookableCompany(t, { name: 'Beta Spa' });
    global = await addGlobalAdmin(t);
  });
  afterAll(async () => t?.close());

  const book = (body: Record<string, unknown>, token?: string, headers?: Record<string, string>) =>
    t.call('POST', '/appointments', { body, token, headers });

  describe('anonymous booking', () => {
    it('books an offered slot, computes the end from the service, creates the customer and answers the read shape with an ETag', async () => {
      const who = customerContact('Ann Anon');
      const res = await book({
        company_id: a.companyId,
        service_type_ids: [a.serviceId],
        start_time: TUESDAY_0930,
        end_time: '2026-11-24T18:00:00.000Z',
        description: 'First visit',
        customer: who,
        sms_consent: true,
      });
      expect(res.status, res.text).toBe(201);
      expect(res.headers.get('etag')).toBe('"1"');
      expect(res.body).toEqual({
        id: expect.any(Number),
        company_id: a.companyId,
        user_id: expect.any(Number),
        // "Any employee" (docs/decisions/27-scheduling-rules.md): the free staff member with the fewest appointments that day, lowest id first.
        employee_id: a.admin.id,
        start_time: TUESDAY_0930,
        end_time: '2026-11-24T10:00:00.000Z',
        description: 'First visit',
        appointment_duration_option_id: null,
        status: 'booked',
        version: 1,
        service_types: [{ id: a.serviceId, name: 'Haircut' }],
        customer_name: 'Ann Anon',
        employee_name: 'Owner',
        sms_consent: true,
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      });
      // Contact details are for staff only.
      expect(res.body).not.toHaveProperty('customer_email');
      const customer = await t.db.selectFrom('users').selectAll().where('id', '=', res.body.user_id).executeTakeFirstOrThrow();
      expect(customer).toMatchObject({
        company_id: a.companyId,
        role: 'customer',
        email: who.email,
        name: 'Ann Anon',
        phone: who.phone,
        password_hash: null,
      });
      const row = await t.db.selectFrom('appointments').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        customer_name: 'Ann Anon',
        customer_email: who.email,
        customer_phone: who.phone,
        sms_consent: 1,
        created_by: null,
      });
      const staffView = await t.call('GET', `/appointments/${res.body.id}`, { token: a.employee.token });
      expect(staffView.body).toMatchObject({ customer_email: who.email, customer_phone: who.phone });
    });

    it('finds an existing customer by email (any case) and never overwrites their name or phone', async () => {
      const email = uniqueEmail('known');
      const iso = NOW.toISOString();
      const known = await t.db
        .insertInto('users')
        .values(userRow({ company_id: a.companyId, name: 'Real Name', email, phone: '111', role: 'customer', updated_at: iso }))
        .returning('id')
        .executeTakeFirstOrThrow();
      const before = await countRows(t, 'users');
      const res = await book({
        company_id: a.companyId,
        service_type_ids: [a.serviceId],
        start_time: '2026-11-24T11:00:00.000Z',
        customer: { name: 'Impostor', email: email.toUpperCase(), phone: '(415) 555-0999' },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.user_id).toBe(known.id);
      // The booker is told what they typed, never the name the company has on record for that email.
      expect(res.body.customer_name).toBe('Impostor');
      expect(res.text).not.toContain('Real Name');
      expect(await countRows(t, 'users')).toBe(before);
      expect(await t.db.selectFrom('users').select(['name', 'phone']).where('id', '=', known.id).executeTakeFirstOrThrow()).toEqual({
        name: 'Real Name',
        phone: '111',
      });
      const staff = await t.call('GET', `/appointments/${res.body.id}`, { token: a.admin.token });
      expect(staff.body.customer_name).toBe('Real Name');
      expect(staff.body.booking_contact).toEqual({ name: 'Impostor', email, phone: '+14155550999' });
      expect(staff.body.customer_phone).toBe('111');
    });

    it('answers 409 slot_taken with the exact body when the only place is gone, and a cancellation frees it', async () => {
      const start = '2026-11-24T13:00:00.000Z';
      const first = await book({
        company_id: a.companyId,
        service_type_ids: [a.serviceId],
        start_time: start,
        customer: customerContact(),
      });
      expect(first.status).toBe(201);
      const before = await countRows(t, 'appointments');
      const second = await book({
        company_id: a.companyId,
        service_types: [{ id: a.serviceId }],
        start_time: start,
        customer: customerContact(),
      });
      expect(second.status).toBe(409);
      expect(second.body).toEqual({ error: 'This time is no longer available', code: 'slot_taken' });
      expect(await countRows(t, 'appointments')).toBe(before);

      const cancel = await t.call('PUT', `/appointments/${first.body.id}`, { token: a.employee.token, body: { status: 'cancelled' } });
      expect(cancel.status).toBe(200);
      expect(cancel.body).toMatchObject({ status: 'cancelled', version: 2 });
      // service_type_ids may also hold service_types objects ({id}): the other reading of the data model.
      const again = await book({
        company_id: a.companyId,
        service_type_ids: [{ id: a.serviceId, name: 'Haircut' }],
        start_time: start,
        customer: customerContact(),
      });
      expect(again.status, again.text).toBe(201);
      expect(again.body.service_types).toEqual([{ id: a.serviceId, name: 'Haircut' }]);
      const bad = await book({ company_id: a.companyId, service_type_ids: [{ id: 'x' }], start_time: start, customer: customerContact() });
      expect(bad.status).toBe(400);
      expect(bad.body.details[0].path).toBe('service_type_ids.0');
    });

    it('refuses what the booking page would not offer, writing nothing', async () => {
      const before = await databaseFingerprint(t.db);
      const base = { company_id: a.companyId, service_type_ids: [a.serviceId], start_time: TUESDAY_0930, customer: customerContact() };
      const cases: [Record<string, unknown>, number, string?][] = [
        [{ ...base, start_time: '2026-11-24T09:40:00.000Z' }, 400, 'start_time'], // off the 30-minute grid
        [{ ...base, start_time: '2026-11-24T16:45:00.000Z' }, 400, 'start_time'], // would end after closing
        [{ ...base, start_time: '2026-11-23T07:00:00.000Z' }, 400, 'start_time'], // in the past
        [{ ...base, start_time: '2027-01-26T10:00:00.000Z' }, 400, 'start_time'], // beyond 30 days
        [{ ...base, service_type_ids: [] }, 400, 'service_type_ids'],
        [{ ...base, service_type_ids: [a.serviceId, a.serviceId + 1000] }, 400, 'service_type_ids'],
        [{ ...base, service_type_ids: [b.serviceId] }, 400, 'service_type_ids'], // another company's service
        [{ ...base, customer: undefined }, 400, 'customer'],
        [{ ...base, customer: { ...customerContact(), phone: ' ' } }, 400, 'customer.phone'],
        [{ ...base, customer: { name: 'X', email: 'not-an-email', phone: '1' } }, 400],
        [{ ...base, employee_id: a.employee.id }, 400, 'employee_id'], // employee booking is off
        [{ ...base, company_id: 999999 }, 404],
        [{ ...base, company_id: undefined }, 400, 'company_id'],
        [{ ...base, start_time: '2026-11-24T09:30:00' }, 400], // no zone
        [{ ...base, start_time: '2026-02-30T09:30:00Z' }, 400],
      ];
      for (const [body, status, path] of cases) {
        const res = await book(body);
        expect(res.status, `${JSON.stringify(body)} -> ${res.text}`).toBe(status);
        expect(typeof res.body.error).toBe('string');
        if (path) expect(res.body.details?.[0]?.path, res.text).toBe(path);
      }
      expect(await databaseFingerprint(t.db)).toBe(before);
    });

    it('refuses archived services', async () => {
      const archived = await addService(t, a.admin.token, { name: 'Old style', duration_minutes: 30 });
      await t.db.updateTable('service_types').set({ archived_at: NOW.toISOString() }).where('id', '=', archived).execute();
      const res = await book({
        company_id: a.companyId,
        service_type_ids: [archived],
        start_time: TUESDAY_0930,
        customer: customerContact(),
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/Unknown service type/);
    });

    it('answers 403 not_accepting_bookings when the subscription has expired (staff still book)', async () => {
      const c = await bookableCompany(t, { name: 'Lapsed' });
      await t.db
        .updateTable('companies')
        .set({ subscription_expires_at: '2026-11-01T00:00:00.000Z' })
        .where('id', '=', c.companyId)
        .execute();
      const res = await book({
        company_id: c.companyId,
        service_type_ids: [c.serviceId],
        start_time: TUESDAY_0930,
        customer: customerContact(),
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'This business is not taking online bookings right now', code: 'not_accepting_bookings' });
      const staff = await book({ service_type_ids: [c.serviceId], start_time: TUESDAY_0930 }, c.admin.token);
      expect(staff.status).toBe(201);
    });

    it('books with a chosen employee only when the company allows it, inside their personal hours', async () => {
      const c = await bookableCompany(t, { name: 'Pick Your Barber', employeeBooking: true });
      // The employee works Tuesdays 12:00-14:00 only.
      await t.call('POST', '/operating-hours', {
        token: c.admin.token,
        body: { user_id: c.employee.id, day_of_week: 2, open_time: '12:00', close_time: '14:00' },
      });
      const base = { company_id: c.companyId, service_type_ids: [c.serviceId], employee_id: c.employee.id, customer: customerContact() };
      expect((await book({ ...base, start_time: TUESDAY_0930 })).status).toBe(400);
      const ok = await book({ ...base, start_time: '2026-11-24T12:30:00.000Z' });
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body).toMatchObject({ employee_id: c.employee.id, employee_name: 'employee person' });
      const customerAsEmployee = await book({ ...base, employee_id: c.customer.id, start_time: '2026-11-24T13:00:00.000Z' });
      expect(customerAsEmployee.status).toBe(400);
      const otherCompanyEmployee = await book({ ...base, employee_id: a.employee.id, start_time: '2026-11-24T13:00:00.000Z' });
      expect(otherCompanyEmployee.status).toBe(400);
    });
  });

  describe('customer booking', () => {
    it('books for the signed-in customer of the company, and the customer sees only their own', async () => {
      const res = await book(
        { service_type_ids: [a.serviceId], start_time: '2026-11-25T10:00:00.000Z', company_id: a.companyId },
        a.customer.token,
      );
      expect(res.status, res.text).toBe(201);
      expect(res.body.user_id).toBe(a.customer.id);
      const list = await t.call('GET', '/appointments', { token: a.customer.token });
      expect(list.status).toBe(200);
      expect(list.body.length).toBeGreaterThan(0);
      expect(list.body.every((x: any) => x.user_id === a.customer.id)).toBe(true);
      expect(list.body[0]).not.toHaveProperty('customer_email');
      const others = await t.call('GET', `/appointments?user_id=${a.admin.id}`, { token: a.customer.token });
      expect(others.body).toEqual([]);
    });

    it('lets a customer cancel their own appointment but not move it, and never delete it', async () => {
      const res = await book(
        { service_type_ids: [a.serviceId], start_time: '2026-11-25T11:00:00.000Z', company_id: a.companyId },
        a.customer.token,
      );
      const id = res.body.id;
      const move = await t.call('PUT', `/appointments/${id}`, {
        token: a.customer.token,
        body: { start_time: '2026-11-25T12:00:00.000Z' },
      });
      expect(move.status).toBe(403);
      const del = await t.call('DELETE', `/appointments/${id}`, { token: a.customer.token });
      expect(del.status).toBe(403);
      const other = await addPerson(t, a.companyId, 'customer', 'Other Customer');
      expect((await t.call('GET', `/appointments/${id}`, { token: other.token })).status).toBe(404);
      expect((await t.call('PUT', `/appointments/${id}`, { token: other.token, body: { status: 'cancelled' } })).status).toBe(404);
      const cancel = await t.call('PATCH', `/appointments/${id}`, { token: a.customer.token, body: { status: 'cancelled' } });
      expect(cancel.status).toBe(200);
      expect(cancel.body.status).toBe('cancelled');
      expect(cancel.headers.get('etag')).toBe('"2"');
      const row = await t.db.selectFrom('appointments').select(['status', 'start_time']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'cancelled', start_time: '2026-11-25T11:00:00.000Z' });
    });

    it("books at another company as a member of the public (the customer's record there is found or created)", async () => {
      const res = await book(
        { company_id: b.companyId, service_type_ids: [b.serviceId], start_time: TUESDAY_0930, customer: customerContact('Visiting') },
        a.customer.token,
      );
      expect(res.status, res.text).toBe(201);
      expect(res.body.user_id).not.toBe(a.customer.id);
      expect(res.body.company_id).toBe(b.companyId);
    });
  });

  describe('staff booking', () => {
    it('books outside hours for a customer, with several services and the given end', async () => {
      const second = await addService(t, a.admin.token, { name: 'Colour', duration_minutes: 60 });
      const res = await book(
        {
          user_id: a.customer.id,
          employee_id: a.employee.id,
          service_type_ids: [a.serviceId, second],
          start_time: '2026-11-24T19:00:00Z',
          end_time: '2026-11-24T20:30:00+00:00',
          appointment_duration_option_id: 1,
        },
        a.manager.token,
      );
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        company_id: a.companyId,
        user_id: a.customer.id,
        employee_id: a.employee.id,
        customer_name: 'customer person',
        start_time: '2026-11-24T19:00:00.000Z',
        end_time: '2026-11-24T20:30:00.000Z',
        appointment_duration_option_id: 1,
      });
      expect(res.body.service_types.map((s: any) => s.name)).toEqual(['Haircut', 'Colour']);
      expect(res.body.customer_email).toEqual(expect.stringContaining('@'));
    });

    it('answers a booking exactly as reading it back does', async () => {
      const second = await addService(t, a.admin.token, { name: 'Beard', duration_minutes: 15 });
      const staff = await book(
        {
          user_id: a.customer.id,
          employee_id: a.user.id,
          service_type_ids: [second, a.serviceId],
          start_time: '2026-11-29T19:00:00Z',
          customer: customerContact('Typed Name'),
          description: 'notes',
          sms_consent: true,
        },
        a.admin.token,
      );
      expect(staff.status, staff.text).toBe(201);
      expect((await t.call('GET', `/appointments/${staff.body.id}`, { token: a.admin.token })).body).toEqual(staff.body);
      const anon = await book({
        company_id: a.companyId,
        service_type_ids: [a.serviceId],
        start_time: '2026-11-29T10:00:00Z',
        customer: customerContact(),
      });
      const read = await t.call('GET', `/appointments/${anon.body.id}`, { token: a.admin.token });
      const { customer_email: _email, customer_phone: _phone, booking_contact, ...publicPart } = read.body;
      expect(publicPart).toEqual(anon.body);
      expect(booking_contact).toMatchObject({ name: 'Pat Booker' });
      const mine = await book(
        { company_id: a.companyId, service_type_ids: [a.serviceId], start_time: '2026-11-29T11:00:00Z' },
        a.customer.token,
      );
      expect((await t.call('GET', `/appointments/${mine.body.id}`, { token: a.customer.token })).body).toEqual(mine.body);
    });

    it('derives the end from the duration option, else from the services', async () => {
      const byOption = await book(
        { service_type_ids: [a.serviceId], start_time: '2026-11-26T06:00:00Z', appointment_duration_option_id: 4 },
        a.admin.token,
      );
      expect(byOption.body.end_time).toBe('2026-11-26T07:00:00.000Z'); // option 4 = 60 minutes
      const byServices = await book({ service_type_ids: [a.serviceId], start_time: '2026-11-26T20:00:00Z' }, a.admin.token);
      expect(byServices.body.end_time).toBe('2026-11-26T20:30:00.000Z');
    });

    it("never goes past capacity nor into an employee's overlapping appointment", async () => {
      const first = await book(
        { service_type_ids: [a.serviceId], start_time: '2026-11-27T21:00:00Z', end_time: '2026-11-27T22:00:00Z' },
        a.admin.token,
      );
      expect(first.status).toBe(201);
      const full = await book(
        { service_type_ids: [a.serviceId], start_time: '2026-11-27T21:30:00Z', end_time: '2026-11-27T21:45:00Z' },
        a.admin.token,
      );
      expect(full.status).toBe(409);
      expect(full.body.code).toBe('slot_taken');
      const other = await addService(t, a.admin.token, { name: 'Massage', duration_minutes: 60, available_slots: 5 });
      const withEmployee = await book(
        { service_type_ids: [other], employee_id: a.user.id, start_time: '2026-11-27T06:00:00Z', end_time: '2026-11-27T07:00:00Z' },
        a.admin.token,
      );
      expect(withEmployee.status).toBe(201);
      // Same service, same start: a group session within capacity is allowed.
      const group = await book(
        { service_type_ids: [other], employee_id: a.user.id, start_time: '2026-11-27T06:00:00Z', end_time: '2026-11-27T07:00:00Z' },
        a.admin.token,
      );
      expect(group.status).toBe(201);
      const overlap = await book(
        { service_type_ids: [other], employee_id: a.user.id, start_time: '2026-11-27T06:30:00Z', end_time: '2026-11-27T07:30:00Z' },
        a.admin.token,
      );
      expect(overlap.status).toBe(409);
      const blocked = await book(
        { employee_id: a.user.id, start_time: '2026-11-27T06:15:00Z', end_time: '2026-11-27T06:20:00Z' },
        a.admin.token,
      );
      expect(blocked.status).toBe(409);
      // Another employee is free.
      const free = await book(
        { service_type_ids: [other], employee_id: a.employee.id, start_time: '2026-11-27T06:30:00Z', end_time: '2026-11-27T07:30:00Z' },
        a.admin.token,
      );
      expect(free.status).toBe(201);
    });

    it('refuses bad staff input and writes nothing', async () => {
      const before = await databaseFingerprint(t.db);
      const base = { service_type_ids: [a.serviceId], start_time: '2026-11-28T10:00:00Z', end_time: '2026-11-28T10:30:00Z' };
      const cases: [Record<string, unknown>, number][] = [
        [{ ...base, end_time: '2026-11-28T10:00:00Z' }, 400],
        [{ ...base, end_time: '2026-11-28T09:00:00Z' }, 400],
        [{ ...base, end_time: '2026-11-30T09:00:00Z' }, 400], // longer than a day
        [{ ...base, service_type_ids: [999999] }, 400],
        [{ ...base, service_type_ids: [b.serviceId] }, 400],
        [{ ...base, service_type_ids: ['1'] }, 400],
        [{ ...base, service_type_ids: [0] }, 400],
        [{ ...base, user_id: b.customer.id }, 400],
        [{ ...base, employee_id: b.employee.id }, 400],
        [{ ...base, employee_id: a.customer.id }, 400],
        [{ ...base, appointment_duration_option_id: 999 }, 400],
        [{ ...base, start_time: 'tomorrow' }, 400],
        [{ ...base, start_time: 42 }, 400],
        [{ ...base, start_time: '1900-01-01T00:00:00Z' }, 400],
        [{ ...base, description: 'x'.repeat(5000) }, 400],
        [{ ...base, customer: { name: 'x'.repeat(500), email: 'a@b.co' } }, 400],
        [{ ...base, status: 'cancelled' }, 400],
        [{ ...base, sms_consent: 'yes' }, 400],
        [{ ...base, company_id: b.companyId, start_time: '2026-11-28T10:00:00Z' }, 400], // other company: public rules, no customer
      ];
      for (const [body, status] of cases) {
        const res = await book(body, a.admin.token);
        expect(res.status, `${JSON.stringify(body).slice(0, 200)} -> ${res.text}`).toBe(status);
      }
      for (const raw of ['{"start_time":', '[]', 'null', '"x"', '{"start_time": "2026-11-28T10:00:00Z", "service_type_ids": {"0": 1}}']) {
        const res = await t.call('POST', '/appointments', { raw, token: a.admin.token });
        expect(res.status, raw).toBe(400);
      }
      expect(await databaseFingerprint(t.db)).toBe(before);
    });

    it('lets global_admin book at a named company and needs the company', async () => {
      const res = await book(
        { company_id: b.companyId, service_type_ids: [b.serviceId], start_time: '2026-11-28T07:00:00Z' },
        global.token,
      );
      expect(res.status, res.text).toBe(201);
      const none = await book({ service_type_ids: [b.serviceId], start_time: '2026-11-28T07:00:00Z' }, global.token);
      expect(none.status).toBe(400);
    });
  });

  describe('reading', () => {
    let ids: number[];
    beforeAll(async () => {
      const c = await bookableCompany(t, { name: 'Reader', timezone: 'America/New_York' });
      // Tuesday 24 Nov in New York: 23:30-00:30 crosses into Wednesday (UTC-5).
      const mk = (start: string, end: string, extra: Record<string, unknown> = {}) =>
        book({ service_type_ids: [c.serviceId], start_time: start, end_time: end, ...extra }, c.admin.token);
      const r1 = await mk('2026-11-24T14:00:00Z', '2026-11-24T15:00:00Z', { employee_id: c.employee.id }); // Tue 09:00 NY
      const r2 = await mk('2026-11-25T04:30:00Z', '2026-11-25T05:30:00Z', { user_id: c.customer.id }); // Tue 23:30 - Wed 00:30 NY
      const r3 = await mk('2026-11-26T15:00:00Z', '2026-11-26T16:00:00Z'); // Thu
      ids = [r1.body.id, r2.body.id, r3.body.id];
      (globalThis as any).readerCompany = c;
    });
    const reader = () => (globalThis as any).readerCompany as BookableCompany;

    it('filters by company-local days (overlap), instants, employee and customer', async () => {
      const c = reader();
      const get = async (qs: string) => {
        const res = await t.call('GET', `/appointments?${qs}`, { token: c.employee.token });
        expect(res.status, res.text).toBe(200);
        return res.body.map((x: any) => x.id);
      };
      expect(await get('')).toEqual(ids);
      expect(await get('start_date=2026-11-24&end_date=2026-11-24')).toEqual([ids[0], ids[1]]);
      expect(await get('start_date=2026-11-25&end_date=2026-11-25')).toEqual([ids[1]]); // overlaps Wednesday's first half hour
      expect(await get('start_date=2026-11-25')).toEqual([ids[1], ids[2]]);
      expect(await get('end_date=2026-11-24')).toEqual([ids[0], ids[1]]);
      expect(await get('start_date=2026-11-26T15:30:00Z&end_date=2026-11-26T15:31:00.000Z')).toEqual([ids[2]]);
      expect(await get(`employee_id=${c.employee.id}`)).toEqual([ids[0]]);
      expect(await get(`user_id=${c.customer.id}`)).toEqual([ids[1]]);
      expect(await get(`company_id=${c.companyId}&start_date=2026-11-27`)).toEqual([]);
    });

    it('keeps tenancy: another company answers 404 for everyone but global_admin', async () => {
      const c = reader();
      for (const who of [a.admin, a.manager, a.employee, a.user, a.customer]) {
        expect((await t.call('GET', `/appointments/${ids[0]}`, { token: who.token })).status).toBe(404);
        expect((await t.call('PUT', `/appointments/${ids[0]}`, { token: who.token, body: { description: 'x' } })).status).toBe(404);
        expect((await t.call('GET', `/appointments?company_id=${c.companyId}`, { token: who.token })).status).toBe(404);
      }
      expect((await t.call('DELETE', `/appointments/${ids[0]}`, { token: a.admin.token })).status).toBe(404);
      expect((await t.call('GET', `/appointments/${ids[0]}`)).status).toBe(401);
      expect((await t.call('GET', '/appointments')).status).toBe(401);
      const g = await t.call('GET', `/appointments/${ids[0]}`, { token: global.token });
      expect(g.status).toBe(200);
      expect(g.body.customer_email).toBeDefined();
      const gl = await t.call('GET', `/appointments?company_id=${c.companyId}`, { token: global.token });
      expect(gl.body.map((x: any) => x.id)).toEqual(ids);
      // Without company_id, global_admin gets every company's, in start order, each day in its company's zone.
      const everyone = await t.call('GET', '/appointments?start_date=2026-11-24&end_date=2026-11-24', { token: global.token });
      expect(everyone.status, everyone.text).toBe(200);
      const companies = new Set(everyone.body.map((x: any) => x.company_id));
      expect(companies.size).toBeGreaterThan(1);
      expect(everyone.body.map((x: any) => x.id)).toEqual(expect.arrayContaining([ids[0], ids[1]]));
      expect(everyone.body.map((x: any) => x.id)).not.toContain(ids[2]);
      const starts = everyone.body.map((x: any) => x.start_time);
      expect(starts).toEqual([...starts].sort());
      expect((await t.call('GET', `/appointments/${ids[0]}`, { token: a.admin.token })).body).toEqual({
        error: 'Appointment not found',
        code: 'not_found',
      });
    });

    it('refuses bad filters and ids', async () => {
      const c = reader();
      for (const qs of [
        'start_date=2026-02-30',
        'start_date=yesterday',
        'end_date=2026-13-01',
        'start_date=2026-11-26&end_date=2026-11-25',
        'user_id=-1',
        'employee_id=abc',
        `start_date=${'9'.repeat(500)}`,
      ]) {
        const res = await t.call('GET', `/appointments?${qs}`, { token: c.admin.token });
        expect(res.status, qs).toBe(400);
      }
      for (const id of ['0', '-1', 'abc', '1.5', '99999999999']) {
        expect((await t.call('GET', `/appointments/${id}`, { token: c.admin.token })).status, id).toBe(400);
      }
      expect((await t.call('GET', '/appointments/2147483647', { token: c.admin.token })).status).toBe(404);
    });
  });

  describe('updating and deleting', () => {
    it('moves an appointment keeping its length, bumps the version each change, and checks conflicts', async () => {
      const first = await book(
        { service_type_ids: [a.serviceId], start_time: '2026-12-01T10:00:00Z', end_time: '2026-12-01T10:45:00Z' },
        a.admin.token,
      );
      const blocker = await book(
        { service_type_ids: [a.serviceId], start_time: '2026-12-01T12:00:00Z', end_time: '2026-12-01T12:30:00Z' },
        a.admin.token,
      );
      expect(blocker.status).toBe(201);
      const id = first.body.id;
      const moved = await t.call('PUT', `/appointments/${id}`, { token: a.employee.token, body: { start_time: '2026-12-01T11:00:00Z' } });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body).toMatchObject({ start_time: '2026-12-01T11:00:00.000Z', end_time: '2026-12-01T11:45:00.000Z', version: 2 });
      expect(moved.headers.get('etag')).toBe('"2"');
      const clash = await t.call('PUT', `/appointments/${id}`, { token: a.employee.token, body: { start_time: '2026-12-01T11:50:00Z' } });
      expect(clash.status).toBe(409);
      const reversed = await t.call('PUT', `/appointments/${id}`, { token: a.employee.token, body: { end_time: '2026-12-01T10:00:00Z' } });
      expect(reversed.status).toBe(400);
      const same = await t.call('PUT', `/appointments/${id}`, { token: a.employee.token, body: { start_time: '2026-12-01T11:00:00Z' } });
      expect(same.body.version).toBe(2); // nothing changed, no new version
      const described = await t.call('PATCH', `/appointments/${id}`, { token: a.employee.token, body: { description: 'Bring photos' } });
      expect(described.body).toMatchObject({ description: 'Bring photos', version: 3, start_time: '2026-12-01T11:00:00.000Z' });
      const row = await t.db.selectFrom('appointments').select(['version', 'start_time']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toEqual({ version: 3, start_time: '2026-12-01T11:00:00.000Z' });
    });

    it('deletes (staff only): 204, then 404 everywhere, and a sync tombstone', async () => {
      const made = await book({ service_type_ids: [a.serviceId], start_time: '2026-12-02T10:00:00Z' }, a.admin.token);
      const id = made.body.id;
      const del = await t.call('DELETE', `/appointments/${id}`, { token: a.employee.token });
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      expect((await t.call('GET', `/appointments/${id}`, { token: a.admin.token })).status).toBe(404);
      expect((await t.call('PUT', `/appointments/${id}`, { token: a.admin.token, body: { status: 'cancelled' } })).status).toBe(404);
      expect((await t.call('DELETE', `/appointments/${id}`, { token: a.admin.token })).status).toBe(404);
      const changes = await t.db.selectFrom('sync_changes').select('op').where('appointment_id', '=', id).orderBy('id').execute();
      expect(changes.map((c) => c.op)).toEqual(['upsert', 'delete']);
    });

    it('keeps the service bookings availability reads in step with every move, cancel, service change and delete', async () => {
      const extra = await addService(t, a.admin.token, { name: 'Toner', duration_minutes: 20 });
      const made = await book({ service_type_ids: [a.serviceId], start_time: '2026-12-04T10:00:00Z' }, a.admin.token);
      const id = made.body.id;
      await t.call('PUT', `/appointments/${id}`, {
        token: a.admin.token,
        body: { start_time: '2026-12-04T12:00:00Z', service_type_ids: [a.serviceId, extra] },
      });
      await t.call('PUT', `/appointments/${id}`, { token: a.admin.token, body: { status: 'cancelled' } });
      const expected = await t.db
        .selectFrom('appointment_service_types as s')
        .innerJoin('appointments as a', 'a.id', 's.appointment_id')
        .select(['s.appointment_id', 's.service_type_id', 'a.start_time', 'a.end_time', 'a.status'])
        .orderBy('s.appointment_id')
        .orderBy('s.service_type_id')
        .execute();
      const copies = await t.db
        .selectFrom('service_bookings')
        .select(['appointment_id', 'service_type_id', 'start_time', 'end_time', 'status'])
        .orderBy('appointment_id')
        .orderBy('service_type_id')
        .execute();
      expect(copies).toEqual(expected);
      expect(copies.filter((c) => c.appointment_id === id)).toEqual([
        {
          appointment_id: id,
          service_type_id: a.serviceId,
          start_time: '2026-12-04T12:00:00.000Z',
          end_time: '2026-12-04T12:30:00.000Z',
          status: 'cancelled',
        },
        {
          appointment_id: id,
          service_type_id: extra,
          start_time: '2026-12-04T12:00:00.000Z',
          end_time: '2026-12-04T12:30:00.000Z',
          status: 'cancelled',
        },
      ]);
      await t.call('DELETE', `/appointments/${id}`, { token: a.admin.token });
      expect(await t.db.selectFrom('service_bookings').select('appointment_id').where('appointment_id', '=', id).execute()).toEqual([]);
    });

    it('refuses to move an appointment to another company and refuses bad update bodies', async () => {
      const made = await book({ service_type_ids: [a.serviceId], start_time: '2026-12-03T10:00:00Z' }, a.admin.token);
      const before = await databaseFingerprint(t.db);
      for (const body of [
        { company_id: b.companyId },
        { status: 'done' },
        { start_time: '2026-02-30T10:00:00Z' },
        { service_type_ids: [b.serviceId] },
        { employee_id: 0 },
        { end_time: '2026-12-03T09:00:00Z' },
        { description: 'y'.repeat(3000) },
        { version: 'x', status: 7 },
      ]) {
        const res = await t.call('PUT', `/appointments/${made.body.id}`, { token: a.admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect((await t.call('PUT', `/appointments/${made.body.id}`, { token: a.admin.token, raw: '{"status":' })).status).toBe(400);
      expect(await databaseFingerprint(t.db)).toBe(before);
    });
  });
});
