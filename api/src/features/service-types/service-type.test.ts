// Service type endpoints over real HTTP on every test dialect: roles, tenancy, hidden prices, archive vs delete, bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, companyWithPeople, type TestCompany, type TestPerson } from '../../testing/company-people.ts';
import { findActiveServiceType, findActiveServiceTypes, serviceEmployees } from './service-type.repository.ts';

const BAD_IDS = ['0', '-1', '1.5', 'abc', '99999999999'];

describe.each(testDialects())('service types on %s', (dialect) => {
  let t: TestServer;
  let a: TestCompany;
  let b: TestCompany;
  let global: TestPerson;

  beforeAll(async () => {
    t = await startTestServer(dialect);
    a = await companyWithPeople(t, 'Alpha Salon');
    b = await companyWithPeople(t, 'Beta Spa');
    global = await addGlobalAdmin(t);
  });
  afterAll(async () => t?.close());

  const snapshot = () => t.db.selectFrom('service_types').selectAll().orderBy('id').execute();

  async function createService(who: TestPerson, body: Record<string, unknown>) {
    const res = await t.call('POST', '/service-types', { token: who.token, body });
    expect(res.status, res.text).toBe(201);
    return res.body.service_type;
  }

  async function bookWith(companyId: number, serviceTypeId: number) {
    const appt = await t.db
      .insertInto('appointments')
      .values({
        company_id: companyId,
        user_id: null,
        employee_id: null,
        start_time: '2026-01-05T10:00:00.000Z',
        end_time: '2026-01-05T10:30:00.000Z',
        description: null,
        appointment_duration_option_id: null,
        status: 'booked',
        version: 1,
        customer_name: 'Pat',
        customer_email: null,
        customer_phone: null,
        sms_consent: 0,
        created_by: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('appointment_service_types').values({ appointment_id: appt.id, service_type_id: serviceTypeId }).execute();
    return appt.id;
  }

  describe('create', () => {
    it('lets admins and managers add a service to their company: 201 {message, service_type} with defaults', async () => {
      const res = await t.call('POST', '/service-types', { token: a.admin.token, body: { name: '  Haircut  ', duration_minutes: 45 } });
      expect(res.status).toBe(201);
      expect(res.body.message).toMatch(/created/i);
      expect(res.body.service_type).toEqual({
        id: expect.any(Number),
        name: 'Haircut',
        company_id: a.companyId,
        duration_minutes: 45,
        price: null,
        hide_price: false,
        available_slots: 1,
        archived_at: null,
        buffer_before_minutes: 0,
        buffer_after_minutes: 0,
        employee_ids: [],
      });
      const byManager = await createService(a.manager, {
        name: 'Beard trim',
        duration_minutes: 15,
        price: 12.5,
        hide_price: true,
        available_slots: 3,
      });
      expect(byManager).toMatchObject({ company_id: a.companyId, price: 12.5, hide_price: true, available_slots: 3 });
      const row = await t.db.selectFrom('service_types').selectAll().where('id', '=', byManager.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        name: 'Beard trim',
        duration_minutes: 15,
        price: 12.5,
        hide_price: 1,
        available_slots: 3,
        archived_at: null,
      });
    });

    it('lets global_admin add a service to a named company, and needs the company', async () => {
      const made = await createService(global, { name: 'Massage', duration_minutes: 60, company_id: b.companyId });
      expect(made.company_id).toBe(b.companyId);
      const before = await snapshot();
      const none = await t.call('POST', '/service-types', { token: global.token, body: { name: 'X', duration_minutes: 10 } });
      expect(none.status).toBe(400);
      expect(none.body.error).toBe('company_id is required');
      const unknown = await t.call('POST', '/service-types', {
        token: global.token,
        body: { name: 'X', duration_minutes: 10, company_id: 999999 },
      });
      expect(unknown.status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses employees, users, customers (403) and anonymous callers (401); another company id answers 404', async () => {
      const before = await snapshot();
      for (const who of [a.employee, a.user, a.customer]) {
        const res = await t.call('POST', '/service-types', { token: who.token, body: { name: 'Sneaky', duration_minutes: 30 } });
        expect(res.status, who.role).toBe(403);
        expect(res.body.code).toBe('forbidden');
      }
      expect((await t.call('POST', '/service-types', { body: { name: 'Sneaky', duration_minutes: 30 } })).status).toBe(401);
      const foreign = await t.call('POST', '/service-types', {
        token: a.admin.token,
        body: { name: 'Sneaky', duration_minutes: 30, company_id: b.companyId },
      });
      expect(foreign.status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });

    it('answers the messages of docs/product/05-validation.md and 400 for every invalid field, writing nothing', async () => {
      const before = await snapshot();
      const cases: [Record<string, unknown>, string | RegExp][] = [
        [{ duration_minutes: 30 }, 'Name and duration are required.'],
        [{ name: 'Cut' }, 'Name and duration are required.'],
        [{}, 'Name and duration are required.'],
        [{ name: '   ', duration_minutes: 30 }, 'Name and duration are required.'],
        [{ name: null, duration_minutes: 30 }, 'Name and duration are required.'],
        [{ name: 'Cut', duration_minutes: null }, 'Name and duration are required.'],
        [{ name: 'Cut', duration_minutes: 0 }, /at least 1/],
        [{ name: 'Cut', duration_minutes: -5 }, /at least 1/],
        [{ name: 'Cut', duration_minutes: 1441 }, /1440/],
        [{ name: 'Cut', duration_minutes: 1.5 }, /whole number/],
        [{ name: 'Cut', duration_minutes: '30' }, /number/],
        [{ name: 42, duration_minutes: 30 }, /string/],
        [{ name: 'x'.repeat(201), duration_minutes: 30 }, /too long/],
        [{ name: 'Cut', duration_minutes: 30, price: -0.01 }, /at least 0/],
        [{ name: 'Cut', duration_minutes: 30, price: '12' }, /number/],
        [{ name: 'Cut', duration_minutes: 30, hide_price: 'yes' }, /true or false/],
        [{ name: 'Cut', duration_minutes: 30, available_slots: 0 }, /at least 1/],
        [{ name: 'Cut', duration_minutes: 30, available_slots: 2.5 }, /whole number/],
        [{ name: 'Cut', duration_minutes: 30, company_id: 'abc' }, /company_id/],
      ];
      for (const [body, message] of cases) {
        const res = await t.call('POST', '/service-types', { token: a.admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe('validation');
        if (typeof message === 'string') expect(res.body.error).toBe(message);
        else expect(res.body.error).toMatch(message);
      }
      for (const raw of ['{"name": "Cut", "duration_minutes": 30', 'not json', '[1,2]', 'null', '"text"']) {
        const res = await t.call('POST', '/service-types', { token: a.admin.token, raw });
        expect(res.status, raw).toBe(400);
      }
      expect(await snapshot()).toEqual(before);
      expect((await t.call('GET', '/health')).status).toBe(200);
    });

    it('stores injection-looking and unicode names literally', async () => {
      const names = ["Robert'); DROP TABLE service_types;--", '<script>alert(1)</script>', '=HYPERLINK("x")', 'Coupe & brushing ✂️ 日本'];
      for (const name of names) {
        const made = await createService(a.admin, { name, duration_minutes: 30 });
        expect(made.name).toBe(name);
        const read = await t.call('GET', `/service-types/${made.id}`);
        expect(read.body.name).toBe(name);
      }
      expect((await t.call('GET', `/service-types?company_id=${a.companyId}`)).status).toBe(200);
    });
  });

  describe('reads', () => {
    let hidden: { id: number };
    let shown: { id: number };
    beforeAll(async () => {
      hidden = await createService(b.admin, { name: 'Secret price', duration_minutes: 30, price: 80, hide_price: true });
      shown = await createService(b.admin, { name: 'Open price', duration_minutes: 30, price: 20 });
    });

    it("lists a company's services to anyone, with hidden prices null outside the company", async () => {
      const pub = await t.call('GET', `/service-types?company_id=${b.companyId}`);
      expect(pub.status).toBe(200);
      expect(Array.isArray(pub.body)).toBe(true);
      expect(pub.body.every((s: any) => s.company_id === b.companyId)).toBe(true);
      const find = (list: any[], id: number) => list.find((s) => s.id === id);
      expect(find(pub.body, hidden.id)).toMatchObject({ price: null, hide_price: true });
      expect(find(pub.body, shown.id)).toMatchObject({ price: 20, hide_price: false });
      for (const outsider of [b.customer, a.admin, a.employee]) {
        const res = await t.call('GET', `/service-types?company_id=${b.companyId}`, { token: outsider.token });
        expect(find(res.body, hidden.id).price, outsider.role).toBeNull();
      }
      for (const insider of [b.admin, b.manager, b.employee, b.user, global]) {
        const res = await t.call('GET', `/service-types?company_id=${b.companyId}`, { token: insider.token });
        expect(find(res.body, hidden.id).price, insider.role).toBe(80);
      }
      // A public response carries nothing beyond the service's public fields.
      // Buffers and who performs it are public: the booking page offers only those employees.
      expect(Object.keys(find(pub.body, hidden.id)).sort()).toEqual([
        'archived_at',
        'available_slots',
        'buffer_after_minutes',
        'buffer_before_minutes',
        'company_id',
        'duration_minutes',
        'employee_ids',
        'hide_price',
        'id',
        'name',
        'price',
      ]);
    });

    it("defaults to the caller's company; anonymous callers must name one; unknown companies 404", async () => {
      const own = await t.call('GET', '/service-types', { token: b.employee.token });
      expect(own.status).toBe(200);
      expect(own.body.map((s: any) => s.id)).toEqual(expect.arrayContaining([hidden.id, shown.id]));
      expect(own.body.every((s: any) => s.company_id === b.companyId)).toBe(true);
      const customer = await t.call('GET', '/service-types', { token: b.customer.token });
      expect(customer.body.every((s: any) => s.company_id === b.companyId)).toBe(true);
      const anon = await t.call('GET', '/service-types');
      expect(anon.status).toBe(400);
      expect(anon.body.error).toBe('company_id is required');
      expect((await t.call('GET', '/service-types', { token: global.token })).status).toBe(400);
      expect((await t.call('GET', '/service-types?company_id=999999')).status).toBe(404);
      for (const bad of BAD_IDS) expect((await t.call('GET', `/service-types?company_id=${bad}`)).status, bad).toBe(400);
    });

    it('reads one service publicly; bad ids 400, unknown 404', async () => {
      const res = await t.call('GET', `/service-types/${hidden.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: hidden.id, price: null, hide_price: true });
      expect((await t.call('GET', `/service-types/${hidden.id}`, { token: b.manager.token })).body.price).toBe(80);
      expect((await t.call('GET', '/service-types/999999')).status).toBe(404);
      for (const bad of BAD_IDS) expect((await t.call('GET', `/service-types/${bad}`)).status, bad).toBe(400);
    });
  });

  describe('update', () => {
    it('changes only the fields sent (PUT and PATCH), answering {message, service_type}', async () => {
      const s = await createService(a.admin, { name: 'Colour', duration_minutes: 90, price: 70, available_slots: 2 });
      const res = await t.call('PUT', `/service-types/${s.id}`, { token: a.manager.token, body: { price: 75.5 } });
      expect(res.status).toBe(200);
      expect(res.body.message).toMatch(/updated/i);
      expect(res.body.service_type).toMatchObject({
        name: 'Colour',
        duration_minutes: 90,
        price: 75.5,
        available_slots: 2,
        hide_price: false,
      });
      const patched = await t.call('PATCH', `/service-types/${s.id}`, {
        token: a.admin.token,
        body: { name: ' Colour & gloss ', hide_price: true, price: null },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.service_type).toMatchObject({ name: 'Colour & gloss', hide_price: true, price: null, duration_minutes: 90 });
      // The client may send the whole object back, company_id and id included.
      const whole = await t.call('PUT', `/service-types/${s.id}`, {
        token: a.admin.token,
        body: { ...patched.body.service_type, duration_minutes: 60 },
      });
      expect(whole.status).toBe(200);
      expect(whole.body.service_type.duration_minutes).toBe(60);
      const empty = await t.call('PUT', `/service-types/${s.id}`, { token: a.admin.token, body: {} });
      expect(empty.status).toBe(200);
      expect(empty.body.service_type.duration_minutes).toBe(60);
      const row = await t.db.selectFrom('service_types').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ name: 'Colour & gloss', price: null, hide_price: 1, duration_minutes: 60, available_slots: 2 });
    });

    it('refuses invalid values, moving companies, other companies (404) and non-admin roles (403), changing nothing', async () => {
      const s = await createService(a.admin, { name: 'Perm', duration_minutes: 120 });
      const before = await snapshot();
      for (const body of [
        { name: '' },
        { name: null },
        { duration_minutes: null },
        { duration_minutes: 0 },
        { price: -1 },
        { available_slots: 0 },
        { name: 'y'.repeat(201) },
        { hide_price: 1 },
        { company_id: b.companyId },
      ]) {
        const res = await t.call('PUT', `/service-types/${s.id}`, { token: a.admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect((await t.call('PUT', `/service-types/${s.id}`, { token: a.admin.token, body: { name: '' } })).body.error).toBe(
        'Name and duration are required.',
      );
      for (const who of [b.admin, b.manager, b.employee, b.customer]) {
        expect((await t.call('PUT', `/service-types/${s.id}`, { token: who.token, body: { name: 'Hijack' } })).status).toBe(404);
      }
      for (const who of [a.employee, a.user, a.customer]) {
        expect((await t.call('PUT', `/service-types/${s.id}`, { token: who.token, body: { name: 'Hijack' } })).status, who.role).toBe(403);
      }
      expect((await t.call('PUT', `/service-types/${s.id}`, { body: { name: 'Hijack' } })).status).toBe(401);
      expect((await t.call('PUT', '/service-types/999999', { token: a.admin.token, body: { name: 'Nobody' } })).status).toBe(404);
      for (const bad of BAD_IDS) {
        expect((await t.call('PUT', `/service-types/${bad}`, { token: a.admin.token, body: { name: 'Bad' } })).status, bad).toBe(400);
      }
      expect((await t.call('PUT', `/service-types/${s.id}`, { token: a.admin.token, raw: '{"name":' })).status).toBe(400);
      expect(await snapshot()).toEqual(before);
      // global_admin may edit any company's service.
      const byGlobal = await t.call('PUT', `/service-types/${s.id}`, { token: global.token, body: { name: 'Perm (global)' } });
      expect(byGlobal.status).toBe(200);
    });
  });

  describe('buffers and who performs it (docs/decisions/27-scheduling-rules.md)', () => {
    const employeeRows = (serviceId: number) =>
      t.db.selectFrom('service_employees').select('user_id').where('service_type_id', '=', serviceId).orderBy('user_id').execute();

    it('stores buffers (0..240) and employee_ids on create, reads them back, and serviceEmployees gives [] for everyone', async () => {
      const res = await t.call('POST', '/service-types', {
        token: a.admin.token,
        body: {
          name: 'Colour',
          duration_minutes: 90,
          buffer_before_minutes: 10,
          buffer_after_minutes: 240,
          employee_ids: [a.employee.id, a.admin.id, a.employee.id],
        },
      });
      expect(res.status, res.text).toBe(201);
      const ids = [a.employee.id, a.admin.id].sort((x, y) => x - y);
      expect(res.body.service_type).toMatchObject({ buffer_before_minutes: 10, buffer_after_minutes: 240, employee_ids: ids });
      expect((await employeeRows(res.body.service_type.id)).map((r) => r.user_id)).toEqual(ids);
      const read = await t.call('GET', `/service-types/${res.body.service_type.id}`);
      expect(read.body).toMatchObject({ buffer_before_minutes: 10, buffer_after_minutes: 240, employee_ids: ids });
      const listed = await t.call('GET', `/service-types?company_id=${a.companyId}`);
      expect(listed.body.find((x: any) => x.id === res.body.service_type.id).employee_ids).toEqual(ids);
      const plain = await createService(a.admin, { name: 'Wash', duration_minutes: 15 });
      const map = await serviceEmployees(t.db, [res.body.service_type.id, plain.id]);
      expect(map.get(res.body.service_type.id)).toEqual(ids);
      expect(map.get(plain.id)).toEqual([]);
      expect((await serviceEmployees(t.db, [])).size).toBe(0);
    });

    it('changes buffers alone, replaces employee_ids when sent (empty: everyone), keeps them when left out', async () => {
      const svc = await createService(a.admin, { name: 'Perm', duration_minutes: 60, employee_ids: [a.employee.id] });
      const buffers = await t.call('PUT', `/service-types/${svc.id}`, { token: a.manager.token, body: { buffer_after_minutes: 15 } });
      expect(buffers.status).toBe(200);
      expect(buffers.body.service_type).toMatchObject({
        buffer_before_minutes: 0,
        buffer_after_minutes: 15,
        employee_ids: [a.employee.id],
      });
      const swap = await t.call('PATCH', `/service-types/${svc.id}`, { token: a.admin.token, body: { employee_ids: [a.manager.id] } });
      expect(swap.body.service_type.employee_ids).toEqual([a.manager.id]);
      const everyone = await t.call('PUT', `/service-types/${svc.id}`, { token: a.admin.token, body: { employee_ids: [] } });
      expect(everyone.body.service_type.employee_ids).toEqual([]);
      expect(await employeeRows(svc.id)).toEqual([]);
    });

    it('refuses buffers outside 0..240, and employee_ids that are not current staff of the company, writing nothing', async () => {
      const svc = await createService(a.admin, { name: 'Nails', duration_minutes: 30, employee_ids: [a.employee.id] });
      const servicesBefore = await t.db.selectFrom('service_types').selectAll().orderBy('id').execute();
      const employeesBefore = await t.db
        .selectFrom('service_employees')
        .selectAll()
        .orderBy('service_type_id')
        .orderBy('user_id')
        .execute();
      const bad: Record<string, unknown>[] = [
        { buffer_before_minutes: -1 },
        { buffer_after_minutes: 241 },
        { buffer_before_minutes: 1.5 },
        { buffer_after_minutes: '10' },
        { buffer_before_minutes: null },
        { employee_ids: 'all' },
        { employee_ids: [0] },
        { employee_ids: ['1'] },
        { employee_ids: [a.customer.id] },
        { employee_ids: [b.employee.id] },
        { employee_ids: [999999] },
      ];
      for (const extra of bad) {
        const created = await t.call('POST', '/service-types', {
          token: a.admin.token,
          body: { name: 'Bad', duration_minutes: 30, ...extra },
        });
        expect(created.status, JSON.stringify(extra)).toBe(400);
        expect(created.body.code).toBe('validation');
        const changed = await t.call('PUT', `/service-types/${svc.id}`, { token: a.admin.token, body: extra });
        expect(changed.status, JSON.stringify(extra)).toBe(400);
      }
      expect(await t.db.selectFrom('service_types').selectAll().orderBy('id').execute()).toEqual(servicesBefore);
      expect(await t.db.selectFrom('service_employees').selectAll().orderBy('service_type_id').orderBy('user_id').execute()).toEqual(
        employeesBefore,
      );
    });
  });

  describe('delete', () => {
    it('deletes a service no appointment refers to', async () => {
      const s = await createService(a.admin, { name: 'Unused', duration_minutes: 30 });
      const res = await t.call('DELETE', `/service-types/${s.id}`, { token: a.manager.token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await t.db.selectFrom('service_types').select('id').where('id', '=', s.id).executeTakeFirst()).toBeUndefined();
      expect((await t.call('GET', `/service-types/${s.id}`, { token: a.admin.token })).status).toBe(404);
    });

    it('archives a service appointments refer to: it leaves lists and booking, history keeps its name', async () => {
      const s = await createService(a.admin, { name: 'Booked once', duration_minutes: 30 });
      const apptId = await bookWith(a.companyId, s.id);
      expect(await findActiveServiceType(t.db, a.companyId, s.id)).toBeDefined();
      expect((await t.call('DELETE', `/service-types/${s.id}`, { token: a.admin.token })).status).toBe(204);
      const row = await t.db.selectFrom('service_types').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow();
      expect(row.archived_at).not.toBeNull();
      const link = await t.db.selectFrom('appointment_service_types').selectAll().where('appointment_id', '=', apptId).execute();
      expect(link).toEqual([{ appointment_id: apptId, service_type_id: s.id }]);
      const list = await t.call('GET', '/service-types', { token: a.admin.token });
      expect(list.body.map((x: any) => x.id)).not.toContain(s.id);
      expect(await findActiveServiceType(t.db, a.companyId, s.id)).toBeUndefined();
      expect(await findActiveServiceTypes(t.db, a.companyId, [s.id])).toEqual([]);
      // Staff still read it by id (history); the public and customers do not.
      const staff = await t.call('GET', `/service-types/${s.id}`, { token: a.employee.token });
      expect(staff.status).toBe(200);
      expect(staff.body).toMatchObject({ name: 'Booked once', archived_at: row.archived_at });
      expect((await t.call('GET', `/service-types/${s.id}`)).status).toBe(404);
      expect((await t.call('GET', `/service-types/${s.id}`, { token: a.customer.token })).status).toBe(404);
      expect((await t.call('GET', `/service-types/${s.id}`, { token: b.admin.token })).status).toBe(404);
      // Gone for writes: no second delete, no edit.
      expect((await t.call('DELETE', `/service-types/${s.id}`, { token: a.admin.token })).status).toBe(404);
      expect((await t.call('PUT', `/service-types/${s.id}`, { token: a.admin.token, body: { name: 'Back' } })).status).toBe(404);
    });

    it('refuses other companies (404), non-admin roles (403) and bad ids (400), deleting nothing', async () => {
      const s = await createService(a.admin, { name: 'Keep me', duration_minutes: 30 });
      const before = await snapshot();
      for (const who of [b.admin, b.manager])
        expect((await t.call('DELETE', `/service-types/${s.id}`, { token: who.token })).status).toBe(404);
      for (const who of [a.employee, a.user, a.customer])
        expect((await t.call('DELETE', `/service-types/${s.id}`, { token: who.token })).status).toBe(403);
      expect((await t.call('DELETE', `/service-types/${s.id}`)).status).toBe(401);
      for (const bad of BAD_IDS) expect((await t.call('DELETE', `/service-types/${bad}`, { token: a.admin.token })).status, bad).toBe(400);
      expect(await snapshot()).toEqual(before);
      expect((await t.call('DELETE', `/service-types/${s.id}`, { token: global.token })).status).toBe(204);
    });

    it("findActiveServiceType never returns another company's service", async () => {
      const s = await createService(a.admin, { name: 'Mine', duration_minutes: 30 });
      expect(await findActiveServiceType(t.db, b.companyId, s.id)).toBeUndefined();
      expect((await findActiveServiceTypes(t.db, a.companyId, [s.id, s.id, 999999])).map((r) => r.id)).toEqual([s.id]);
    });
  });
});
