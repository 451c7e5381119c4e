// Operating hours endpoints over real HTTP on every test dialect: upsert, validation, roles, tenancy, bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, addPerson, companyWithPeople, type TestCompany, type TestPerson } from '../../testing/company-people.ts';
import { DAY_NAMES } from './operating-hours.rules.ts';

const BAD_IDS = ['0', '-1', '1.5', 'abc', '99999999999'];

describe.each(testDialects())('operating hours on %s', (dialect) => {
  let t: TestServer;
  let a: TestCompany;
  let b: TestCompany;
  let global: TestPerson;
  let slotId: (hhmm: string) => number;

  beforeAll(async () => {
    t = await startTestServer(dialect);
    a = await companyWithPeople(t, 'Alpha Salon');
    b = await companyWithPeople(t, 'Beta Spa');
    global = await addGlobalAdmin(t);
    const slots = await t.db.selectFrom('time_slots').selectAll().execute();
    slotId = (v) => slots.find((s) => s.display_value === v)!.id;
  });
  afterAll(async () => t?.close());

  const snapshot = () => t.db.selectFrom('operating_hours').selectAll().orderBy('id').execute();
  const post = (who: TestPerson | null, body: unknown) => t.call('POST', '/operating-hours', { token: who?.token, body });

  describe('company hours', () => {
    it('creates a day with HH:MM times normalised, id and hours_id, slot ids filled in', async () => {
      const res = await post(a.admin, { day_of_week: 1, open_time: '9:00', close_time: '17:30' });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        hours_id: res.body.id,
        company_id: a.companyId,
        user_id: null,
        day_of_week: 1,
        open_time: '09:00:00',
        close_time: '17:30:00',
        open_time_slot_id: slotId('09:00'),
        close_time_slot_id: slotId('17:30'),
        is_closed: false,
      });
      const row = await t.db.selectFrom('operating_hours').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ company_id: a.companyId, user_id: null, open_time: '09:00:00', close_time: '17:30:00', is_closed: 0 });
    });

    it('updates the existing row when the same day is posted again (upsert), never a second row', async () => {
      const first = await post(a.manager, { day_of_week: 2, open_time: '08:00:00', close_time: '12:00:00' });
      expect(first.status).toBe(201);
      const count = (await snapshot()).length;
      const again = await post(a.admin, { day_of_week: 2, open_time: '10:00', close_time: '16:00', company_id: a.companyId });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id: first.body.id, hours_id: first.body.id, open_time: '10:00:00', close_time: '16:00:00' });
      expect((await snapshot()).length).toBe(count);
      const closed = await post(a.admin, { day_of_week: 2, is_closed: true });
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({ id: first.body.id, is_closed: true, open_time: null, close_time: null });
    });

    it('keeps one row when several writers set the same new day at once', async () => {
      const c = await companyWithPeople(t, 'Race Co');
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => post(c.admin, { day_of_week: 4, open_time: `0${i + 1}:00`, close_time: '17:00' })),
      );
      for (const r of results) expect([200, 201], r.text).toContain(r.status);
      const rows = await t.db.selectFrom('operating_hours').selectAll().where('company_id', '=', c.companyId).execute();
      expect(rows).toHaveLength(1);
      expect(new Set(results.map((r) => r.body.id))).toEqual(new Set([rows[0].id]));
    });

    it('accepts time slot ids, and refuses unknown or contradicting ones', async () => {
      const res = await post(a.admin, { day_of_week: 3, open_time_slot_id: slotId('08:15'), close_time_slot_id: slotId('19:45') });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ open_time: '08:15:00', close_time: '19:45:00', open_time_slot_id: slotId('08:15') });
      const before = await snapshot();
      const unknown = await post(a.admin, { day_of_week: 4, open_time_slot_id: 999999, close_time: '17:00' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toBe('Unknown open_time_slot_id');
      const clash = await post(a.admin, { day_of_week: 4, open_time: '09:00', open_time_slot_id: slotId('10:00'), close_time: '17:00' });
      expect(clash.status).toBe(400);
      const agree = await post(a.admin, {
        day_of_week: 4,
        open_time: '10:00:00',
        open_time_slot_id: slotId('10:00'),
        close_time: '17:00',
        close_time_slot_id: null,
      });
      expect(agree.status).toBe(201);
      expect((await snapshot()).length).toBe(before.length + 1);
    });

    it('reads a closing time of 00:00 (or 24:00) as midnight at the end of the day', async () => {
      const evening = await post(b.admin, { day_of_week: 5, open_time: '18:00', close_time: '00:00' });
      expect(evening.status).toBe(201);
      expect(evening.body).toMatchObject({ close_time: '00:00:00', close_time_slot_id: slotId('00:00') });
      const allDay = await post(b.admin, { day_of_week: 6, open_time: '00:00', close_time: '24:00' });
      expect(allDay.status).toBe(201);
      expect(allDay.body).toMatchObject({ open_time: '00:00:00', close_time: '00:00:00' });
      const bySlot = await post(b.admin, { day_of_week: 7, open_time_slot_id: slotId('20:00'), close_time_slot_id: slotId('00:00') });
      expect(bySlot.status).toBe(201);
      expect(bySlot.body.close_time).toBe('00:00:00');
    });

    it('words missing-time errors as docs/product/05-validation.md does, for every day, unless the day is closed; nothing written', async () => {
      const before = await snapshot();
      for (let day = 1; day <= 7; day++) {
        const startOnly = await post(b.admin, { day_of_week: day, open_time: '09:00' });
        expect(startOnly.status).toBe(400);
        expect(startOnly.body.error).toBe(`${DAY_NAMES[day - 1]} end time is required when start time is provided`);
        const endOnly = await post(b.admin, { day_of_week: day, close_time: '17:00', open_time: null });
        expect(endOnly.status).toBe(400);
        expect(endOnly.body.error).toBe(`${DAY_NAMES[day - 1]} start time is required when end time is provided`);
      }
      const neither = await post(b.admin, { day_of_week: 1 });
      expect(neither.status).toBe(400);
      const backwards = await post(b.admin, { day_of_week: 1, open_time: '17:00', close_time: '09:00' });
      expect(backwards.body.error).toBe('Monday end time must be after start time');
      const overnight = await post(b.admin, { day_of_week: 1, open_time: '22:00', close_time: '02:00' });
      expect(overnight.status).toBe(400);
      expect(await snapshot()).toEqual(before);
      const closedWithStart = await post(b.admin, { day_of_week: 1, open_time: '09:00', is_closed: true });
      expect(closedWithStart.status).toBe(201);
      expect(closedWithStart.body).toMatchObject({ is_closed: true, open_time: '09:00:00', close_time: null });
    });

    it('refuses employees, users and customers (403), anonymous (401), other companies (404)', async () => {
      const before = await snapshot();
      const target = (await t.call('GET', `/operating-hours?company_id=${a.companyId}&day_of_week=1`)).body[0];
      for (const who of [a.employee, a.user, a.customer]) {
        expect((await post(who, { day_of_week: 1, open_time: '06:00', close_time: '07:00' })).status, who.role).toBe(403);
        expect(
          (await t.call('PUT', `/operating-hours/${target.id}`, { token: who.token, body: { open_time: '06:00' } })).status,
          who.role,
        ).toBe(403);
        expect((await t.call('DELETE', `/operating-hours/${target.id}`, { token: who.token })).status, who.role).toBe(403);
      }
      expect((await post(null, { day_of_week: 1, open_time: '06:00', close_time: '07:00' })).status).toBe(401);
      expect((await t.call('PUT', `/operating-hours/${target.id}`, { body: { open_time: '06:00' } })).status).toBe(401);
      expect((await t.call('DELETE', `/operating-hours/${target.id}`)).status).toBe(401);
      for (const who of [b.admin, b.manager]) {
        expect((await post(who, { company_id: a.companyId, day_of_week: 1, open_time: '06:00', close_time: '07:00' })).status).toBe(404);
        expect((await t.call('PUT', `/operating-hours/${target.id}`, { token: who.token, body: { open_time: '06:00' } })).status).toBe(404);
        expect((await t.call('DELETE', `/operating-hours/${target.id}`, { token: who.token })).status).toBe(404);
      }
      // Another company's employee and customer alike: not found, whatever the role
      // (docs/decisions/03-tenancy-and-roles.md); a customer is refused with 403 only on their own company's hours.
      for (const who of [b.employee, b.customer])
        expect((await t.call('PUT', `/operating-hours/${target.id}`, { token: who.token, body: { open_time: '06:00' } })).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });

    it("lets global_admin set any company's hours, naming the company", async () => {
      const res = await post(global, { company_id: b.companyId, day_of_week: 2, open_time: '11:00', close_time: '15:00' });
      expect(res.status).toBe(201);
      expect(res.body.company_id).toBe(b.companyId);
      expect((await post(global, { day_of_week: 2, open_time: '11:00', close_time: '15:00' })).status).toBe(400);
      expect((await post(global, { company_id: 999999, day_of_week: 2, open_time: '11:00', close_time: '15:00' })).status).toBe(404);
    });
  });

  describe('work hours of a person', () => {
    it("lets an employee set their own hours, not a colleague's", async () => {
      const own = await post(a.employee, { user_id: a.employee.id, day_of_week: 1, open_time: '12:00', close_time: '18:00' });
      expect(own.status).toBe(201);
      expect(own.body).toMatchObject({ company_id: a.companyId, user_id: a.employee.id });
      const ownAgain = await t.call('PUT', `/operating-hours/${own.body.id}`, { token: a.employee.token, body: { close_time: '19:00' } });
      expect(ownAgain.status).toBe(200);
      expect(ownAgain.body).toMatchObject({ open_time: '12:00:00', close_time: '19:00:00' });
      const userRole = await post(a.user, { user_id: a.user.id, day_of_week: 1, open_time: '08:00', close_time: '12:00' });
      expect(userRole.status).toBe(201);
      const before = await snapshot();
      expect((await post(a.employee, { user_id: a.user.id, day_of_week: 2, open_time: '08:00', close_time: '12:00' })).status).toBe(403);
      expect(
        (await t.call('PUT', `/operating-hours/${userRole.body.id}`, { token: a.employee.token, body: { close_time: '13:00' } })).status,
      ).toBe(403);
      expect((await t.call('DELETE', `/operating-hours/${userRole.body.id}`, { token: a.employee.token })).status).toBe(403);
      expect((await post(a.customer, { user_id: a.customer.id, day_of_week: 2, open_time: '08:00', close_time: '12:00' })).status).toBe(
        403,
      );
      expect(await snapshot()).toEqual(before);
    });

    it("lets the company's admins and managers and global_admin set anyone's hours; others 404", async () => {
      const byAdmin = await post(a.admin, { user_id: a.employee.id, day_of_week: 3, open_time: '09:00', close_time: '13:00' });
      expect(byAdmin.status).toBe(201);
      const byManager = await t.call('PUT', `/operating-hours/${byAdmin.body.id}`, {
        token: a.manager.token,
        body: { open_time: '10:00' },
      });
      expect(byManager.status).toBe(200);
      const byGlobal = await post(global, { user_id: a.employee.id, day_of_week: 4, open_time: '09:00', close_time: '13:00' });
      expect(byGlobal.status).toBe(201);
      expect(byGlobal.body.company_id).toBe(a.companyId);
      const before = await snapshot();
      expect((await post(b.admin, { user_id: a.employee.id, day_of_week: 5, open_time: '09:00', close_time: '13:00' })).status).toBe(404);
      expect(
        (await t.call('PUT', `/operating-hours/${byAdmin.body.id}`, { token: b.admin.token, body: { open_time: '07:00' } })).status,
      ).toBe(404);
      expect((await t.call('DELETE', `/operating-hours/${byAdmin.body.id}`, { token: b.manager.token })).status).toBe(404);
      // Customers have no work hours; unknown people are not found.
      expect((await post(a.admin, { user_id: a.customer.id, day_of_week: 5, open_time: '09:00', close_time: '13:00' })).status).toBe(404);
      expect((await post(a.admin, { user_id: 999999, day_of_week: 5, open_time: '09:00', close_time: '13:00' })).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });

    it("keeps one row per person and day (upsert), apart from the company's row", async () => {
      const person = await addPerson(t, a.companyId, 'employee', 'Upsert Person');
      const first = await post(person, { user_id: person.id, day_of_week: 6, open_time: '09:00', close_time: '10:00' });
      const second = await post(person, { user_id: person.id, day_of_week: 6, open_time: '09:30', close_time: '11:00' });
      expect(first.status).toBe(201);
      expect(second.status).toBe(200);
      expect(second.body.id).toBe(first.body.id);
      const rows = await t.db.selectFrom('operating_hours').selectAll().where('user_id', '=', person.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ open_time: '09:30:00', close_time: '11:00:00' });
    });
  });

  describe('reads', () => {
    it("lists company hours publicly; user_id gives that person's; day_of_week filters", async () => {
      const pub = await t.call('GET', `/operating-hours?company_id=${a.companyId}`);
      expect(pub.status).toBe(200);
      expect(pub.body.length).toBeGreaterThan(0);
      expect(pub.body.every((r: any) => r.company_id === a.companyId && r.user_id === null)).toBe(true);
      const days = pub.body.map((r: any) => r.day_of_week);
      expect(days).toEqual([...days].sort((x: number, y: number) => x - y));
      const person = await t.call('GET', `/operating-hours?company_id=${a.companyId}&user_id=${a.employee.id}`);
      expect(person.body.length).toBeGreaterThan(0);
      expect(person.body.every((r: any) => r.user_id === a.employee.id)).toBe(true);
      const monday = await t.call('GET', `/operating-hours?company_id=${a.companyId}&day_of_week=1`);
      expect(monday.body).toHaveLength(1);
      expect(monday.body[0].day_of_week).toBe(1);
      // Public rows hold hours only.
      expect(Object.keys(monday.body[0]).sort()).toEqual([
        'close_time',
        'close_time_slot_id',
        'company_id',
        'day_of_week',
        'hours_id',
        'id',
        'is_closed',
        'open_time',
        'open_time_slot_id',
        'user_id',
      ]);
    });

    it("defaults to the caller's company or the person's; anonymous must say which", async () => {
      const own = await t.call('GET', '/operating-hours', { token: b.employee.token });
      expect(own.status).toBe(200);
      expect(own.body.every((r: any) => r.company_id === b.companyId)).toBe(true);
      const mine = await t.call('GET', `/operating-hours?user_id=${a.employee.id}`, { token: a.employee.token });
      expect(mine.body.every((r: any) => r.user_id === a.employee.id)).toBe(true);
      expect(mine.body.length).toBeGreaterThan(0);
      const byPerson = await t.call('GET', `/operating-hours?user_id=${a.employee.id}`);
      expect(byPerson.status).toBe(200);
      expect(byPerson.body.map((r: any) => r.id)).toEqual(mine.body.map((r: any) => r.id));
      expect((await t.call('GET', '/operating-hours')).status).toBe(400);
      expect((await t.call('GET', '/operating-hours', { token: global.token })).status).toBe(400);
      expect((await t.call('GET', '/operating-hours?company_id=999999')).status).toBe(404);
      // Another company's person under this company: nothing.
      const cross = await t.call('GET', `/operating-hours?company_id=${b.companyId}&user_id=${a.employee.id}`);
      expect(cross.body).toEqual([]);
      for (const bad of BAD_IDS) {
        expect((await t.call('GET', `/operating-hours?company_id=${bad}`)).status, bad).toBe(400);
        expect((await t.call('GET', `/operating-hours?company_id=${a.companyId}&user_id=${bad}`)).status, bad).toBe(400);
      }
      for (const bad of ['0', '8', '1.5', 'monday']) {
        expect((await t.call('GET', `/operating-hours?company_id=${a.companyId}&day_of_week=${bad}`)).status, bad).toBe(400);
      }
    });

    it('reads one row publicly by id; unknown 404, bad ids 400', async () => {
      const any = (await t.call('GET', `/operating-hours?company_id=${a.companyId}`)).body[0];
      const res = await t.call('GET', `/operating-hours/${any.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(any);
      expect((await t.call('GET', '/operating-hours/999999')).status).toBe(404);
      for (const bad of BAD_IDS) expect((await t.call('GET', `/operating-hours/${bad}`)).status, bad).toBe(400);
    });
  });

  describe('update and delete', () => {
    it('changes only what is sent (PUT and PATCH), validating the result', async () => {
      const c = await companyWithPeople(t, 'Gamma Studio');
      const row = (await post(c.admin, { day_of_week: 1, open_time: '09:00', close_time: '17:00' })).body;
      const res = await t.call('PUT', `/operating-hours/${row.id}`, { token: c.admin.token, body: { close_time: '18:00' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: row.id, hours_id: row.id, open_time: '09:00:00', close_time: '18:00:00', is_closed: false });
      const patched = await t.call('PATCH', `/operating-hours/${row.id}`, {
        token: c.manager.token,
        body: { open_time_slot_id: slotId('08:30') },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.open_time).toBe('08:30:00');
      // The whole row sent back is fine.
      const whole = await t.call('PUT', `/operating-hours/${row.id}`, {
        token: c.admin.token,
        body: { ...patched.body, close_time: '19:00:00', close_time_slot_id: null },
      });
      expect(whole.status, whole.text).toBe(200);
      expect(whole.body.close_time).toBe('19:00:00');
      const before = await snapshot();
      const cleared = await t.call('PUT', `/operating-hours/${row.id}`, { token: c.admin.token, body: { close_time: null } });
      expect(cleared.status).toBe(400);
      expect(cleared.body.error).toBe('Monday end time is required when start time is provided');
      const clearedStart = await t.call('PUT', `/operating-hours/${row.id}`, { token: c.admin.token, body: { open_time: null } });
      expect(clearedStart.body.error).toBe('Monday start time is required when end time is provided');
      const backwards = await t.call('PUT', `/operating-hours/${row.id}`, { token: c.admin.token, body: { open_time: '20:00' } });
      expect(backwards.body.error).toBe('Monday end time must be after start time');
      expect((await t.call('PUT', `/operating-hours/${row.id}`, { token: c.admin.token, body: { company_id: a.companyId } })).status).toBe(
        400,
      );
      expect((await t.call('PUT', `/operating-hours/${row.id}`, { token: c.admin.token, body: { user_id: c.employee.id } })).status).toBe(
        400,
      );
      expect(await snapshot()).toEqual(before);
      const closed = await t.call('PUT', `/operating-hours/${row.id}`, {
        token: c.admin.token,
        body: { is_closed: true, open_time: null, close_time: null },
      });
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({ is_closed: true, open_time: null, close_time: null, open_time_slot_id: null });
    });

    it('answers 409 when moved onto a weekday that already has a row', async () => {
      const c = await companyWithPeople(t, 'Delta Barber');
      const mon = (await post(c.admin, { day_of_week: 1, open_time: '09:00', close_time: '17:00' })).body;
      await post(c.admin, { day_of_week: 2, open_time: '09:00', close_time: '17:00' });
      const before = await snapshot();
      const res = await t.call('PUT', `/operating-hours/${mon.id}`, { token: c.admin.token, body: { day_of_week: 2 } });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('conflict');
      expect(await snapshot()).toEqual(before);
      const moved = await t.call('PUT', `/operating-hours/${mon.id}`, { token: c.admin.token, body: { day_of_week: 3 } });
      expect(moved.status).toBe(200);
      expect(moved.body.day_of_week).toBe(3);
    });

    it('deletes a row (204); own work hours by the person; gone afterwards', async () => {
      const own = (await post(a.user, { user_id: a.user.id, day_of_week: 7, open_time: '09:00', close_time: '10:00' })).body;
      expect((await t.call('DELETE', `/operating-hours/${own.id}`, { token: a.user.token })).status).toBe(204);
      expect(await t.db.selectFrom('operating_hours').select('id').where('id', '=', own.id).executeTakeFirst()).toBeUndefined();
      expect((await t.call('DELETE', `/operating-hours/${own.id}`, { token: a.user.token })).status).toBe(404);
      const company = (await post(a.admin, { day_of_week: 7, open_time: '09:00', close_time: '10:00' })).body;
      expect((await t.call('DELETE', `/operating-hours/${company.id}`, { token: global.token })).status).toBe(204);
      for (const bad of BAD_IDS)
        expect((await t.call('DELETE', `/operating-hours/${bad}`, { token: a.admin.token })).status, bad).toBe(400);
    });
  });

  describe('breaks (several intervals a day, docs/decisions/27-scheduling-rules.md)', () => {
    const dayRows = (companyId: number, userId: number | null, day: number) =>
      t.db
        .selectFrom('operating_hours')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('user_id', userId === null ? 'is' : '=', userId)
        .where('day_of_week', '=', day)
        .orderBy('open_time')
        .execute();

    it('adds a non-overlapping interval as a second row; an overlapping one answers 409 with the interval in the way, writing nothing', async () => {
      const c = await companyWithPeople(t, 'Lunch Break Salon');
      const morning = await post(c.admin, { day_of_week: 1, open_time: '09:00', close_time: '12:00' });
      const afternoon = await post(c.manager, { day_of_week: 1, open_time: '13:00', close_time: '17:00' });
      expect(morning.status, morning.text).toBe(201);
      expect(afternoon.status, afternoon.text).toBe(201);
      expect(afternoon.body.id).not.toBe(morning.body.id);
      const listed = await t.call('GET', `/operating-hours?company_id=${c.companyId}&day_of_week=1`);
      expect(listed.body.map((r: any) => [r.open_time, r.close_time])).toEqual([
        ['09:00:00', '12:00:00'],
        ['13:00:00', '17:00:00'],
      ]);
      const before = await snapshot();
      for (const [open, close] of [
        ['11:00', '14:00'],
        ['09:00', '12:00'],
        ['10:00', '11:00'],
        ['16:59', '18:00'],
        ['08:00', '24:00'],
      ]) {
        const res = await post(c.admin, { day_of_week: 1, open_time: open, close_time: close });
        expect(res.status, `${open}-${close}`).toBe(409);
        expect(res.body.code).toBe('conflict');
        expect(res.body.error).toMatch(/^Monday already has hours (09:00-12:00|13:00-17:00) that overlap these/);
      }
      expect(await snapshot()).toEqual(before);
      // Touching ends are not an overlap: the gap can be filled, and the evening added.
      expect((await post(c.admin, { day_of_week: 1, open_time: '12:00', close_time: '13:00' })).status).toBe(201);
      expect((await post(c.admin, { day_of_week: 1, open_time: '17:00', close_time: '24:00' })).status).toBe(201);
      expect((await dayRows(c.companyId, null, 1)).length).toBe(4);
    });

    it("keeps a person's intervals apart from the company's and from other people's", async () => {
      const c = await companyWithPeople(t, 'Split Shift Spa');
      await post(c.admin, { day_of_week: 2, open_time: '08:00', close_time: '20:00' });
      const p1 = await post(c.employee, { user_id: c.employee.id, day_of_week: 2, open_time: '08:00', close_time: '11:00' });
      const p2 = await post(c.employee, { user_id: c.employee.id, day_of_week: 2, open_time: '15:00', close_time: '20:00' });
      const other = await post(c.admin, { user_id: c.manager.id, day_of_week: 2, open_time: '10:00', close_time: '16:00' });
      expect([p1.status, p2.status, other.status]).toEqual([201, 201, 201]);
      const clash = await post(c.employee, { user_id: c.employee.id, day_of_week: 2, open_time: '10:30', close_time: '15:30' });
      expect(clash.status).toBe(409);
      expect(clash.body.error).toContain('Tuesday already has hours 08:00-11:00');
      expect((await dayRows(c.companyId, c.employee.id, 2)).map((r) => r.open_time)).toEqual(['08:00:00', '15:00:00']);
      expect((await dayRows(c.companyId, null, 2)).length).toBe(1);
    });

    it('PUT may not move or stretch an interval over another of its day (409, nothing written); inside the gap it may', async () => {
      const c = await companyWithPeople(t, 'Stretch Studio');
      const am = (await post(c.admin, { day_of_week: 3, open_time: '09:00', close_time: '12:00' })).body;
      const pm = (await post(c.admin, { day_of_week: 3, open_time: '13:00', close_time: '17:00' })).body;
      const thu = (await post(c.admin, { day_of_week: 4, open_time: '10:00', close_time: '11:00' })).body;
      const before = await snapshot();
      const stretch = await t.call('PUT', `/operating-hours/${am.id}`, { token: c.admin.token, body: { close_time: '13:30' } });
      expect(stretch.status).toBe(409);
      expect(stretch.body.error).toContain('Wednesday already has hours 13:00-17:00');
      const move = await t.call('PUT', `/operating-hours/${thu.id}`, { token: c.admin.token, body: { day_of_week: 3 } });
      expect(move.status).toBe(409);
      const close = await t.call('PATCH', `/operating-hours/${pm.id}`, { token: c.admin.token, body: { is_closed: true } });
      expect(close.status).toBe(409);
      expect(await snapshot()).toEqual(before);
      const ok = await t.call('PUT', `/operating-hours/${am.id}`, { token: c.admin.token, body: { close_time: '13:00' } });
      expect(ok.status).toBe(200);
      expect(ok.body.close_time).toBe('13:00:00');
    });

    it('closing a day with breaks leaves one closed row; opening it again replaces that row', async () => {
      const c = await companyWithPeople(t, 'Holiday Hairdresser');
      const first = (await post(c.admin, { day_of_week: 5, open_time: '09:00', close_time: '12:00' })).body;
      const second = (await post(c.admin, { day_of_week: 5, open_time: '13:00', close_time: '17:00' })).body;
      const closed = await post(c.admin, { day_of_week: 5, is_closed: true });
      expect(closed.status).toBe(200);
      expect(closed.body).toMatchObject({ id: first.id, is_closed: true, open_time: null, close_time: null });
      expect(await dayRows(c.companyId, null, 5)).toHaveLength(1);
      // Every write to hours is audited: the break the closing removed too (docs/decisions/31-audit-log.md).
      const audit = await t.call('GET', `/audit-log?company_id=${c.companyId}&entity=operating_hours`, { token: c.admin.token });
      expect(audit.status, audit.text).toBe(200);
      expect(audit.body.map((e: { action: string; entity_id: number }) => [e.action, e.entity_id])).toEqual([
        ['update', first.id],
        ['delete', second.id],
        ['create', second.id],
        ['create', first.id],
      ]);
      expect(audit.body[1].changes).toMatchObject({ open_time: { old: '13:00:00' }, close_time: { old: '17:00:00' } });
      const reopened = await post(c.admin, { day_of_week: 5, open_time: '14:00', close_time: '18:00' });
      expect(reopened.status).toBe(200);
      expect(reopened.body).toMatchObject({ id: first.id, is_closed: false, open_time: '14:00:00' });
      expect(await dayRows(c.companyId, null, 5)).toHaveLength(1);
    });

    it('lets exactly one of several simultaneous overlapping intervals in on a day with breaks', async () => {
      const c = await companyWithPeople(t, 'Race Break Co');
      await post(c.admin, { day_of_week: 6, open_time: '09:00', close_time: '10:00' });
      await post(c.admin, { day_of_week: 6, open_time: '11:00', close_time: '12:00' });
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => post(c.admin, { day_of_week: 6, open_time: `13:${i}0`, close_time: '16:00' })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      expect(await dayRows(c.companyId, null, 6)).toHaveLength(3);
    });
  });

  describe('bad input', () => {
    it('answers 400 to malformed JSON, wrong types, out-of-range values and long or injection-like strings; writes nothing', async () => {
      const before = await snapshot();
      const bodies: unknown[] = [
        { day_of_week: '1', open_time: '09:00', close_time: '17:00' },
        { day_of_week: 0, open_time: '09:00', close_time: '17:00' },
        { day_of_week: 8, open_time: '09:00', close_time: '17:00' },
        { day_of_week: 1.5, open_time: '09:00', close_time: '17:00' },
        { open_time: '09:00', close_time: '17:00' },
        { day_of_week: 1, open_time: 900, close_time: '17:00' },
        { day_of_week: 1, open_time: '9am', close_time: '17:00' },
        { day_of_week: 1, open_time: '25:00', close_time: '26:00' },
        { day_of_week: 1, open_time: '12:60', close_time: '17:00' },
        { day_of_week: 1, open_time: '24:00', close_time: '24:00' },
        { day_of_week: 1, open_time: '09:00', close_time: '1'.repeat(10_000) },
        { day_of_week: 1, open_time: "09:00'); DROP TABLE operating_hours;--", close_time: '17:00' },
        { day_of_week: 1, open_time: '09:00', close_time: '17:00', is_closed: 'no' },
        { day_of_week: 1, open_time: '09:00', close_time: '17:00', user_id: 'abc' },
        { day_of_week: 1, open_time: '09:00', close_time: '17:00', user_id: 0 },
        { day_of_week: 1, open_time: '09:00', close_time: '17:00', company_id: -1 },
        { day_of_week: 1, open_time: '09:00', close_time: '17:00', company_id: 99999999999 },
        { day_of_week: 1, open_time_slot_id: 1.5, close_time: '17:00' },
        { day_of_week: 1, open_time_slot_id: '5', close_time: '17:00' },
        [],
        null,
      ];
      for (const body of bodies) {
        const res = await post(a.admin, body);
        expect(res.status, JSON.stringify(body)?.slice(0, 100)).toBe(400);
        expect(res.body.code).toBe('validation');
      }
      const row = (await t.call('GET', `/operating-hours?company_id=${a.companyId}&day_of_week=1`)).body[0];
      for (const raw of ['{"day_of_week": 1', '{day_of_week: 1}', 'open_time=09:00', '']) {
        expect((await t.call('POST', '/operating-hours', { token: a.admin.token, raw })).status, raw).toBe(400);
        expect((await t.call('PUT', `/operating-hours/${row.id}`, { token: a.admin.token, raw })).status, raw).toBe(400);
      }
      expect(await snapshot()).toEqual(before);
      expect((await t.call('GET', '/health')).status).toBe(200);
    });
  });
});
