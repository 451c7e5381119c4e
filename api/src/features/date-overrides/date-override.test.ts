// Date overrides over real HTTP on every test dialect: roles, validation, one per owner and date, notes
// hidden from public readers, tenancy, and overridesInRange as the engine reads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, companyWithPeople, type TestCompany, type TestPerson } from '../../testing/company-people.ts';
import { overridesInRange } from './date-override.repository.ts';

describe.each(testDialects())('date overrides on %s', (dialect) => {
  let t: TestServer;
  let a: TestCompany;
  let b: TestCompany;
  let global: TestPerson;

  beforeAll(async () => {
    t = await startTestServer(dialect);
    a = await companyWithPeople(t, 'Override Salon');
    b = await companyWithPeople(t, 'Other Override Spa');
    global = await addGlobalAdmin(t);
  });
  afterAll(async () => t?.close());

  const snapshot = () => t.db.selectFrom('date_overrides').selectAll().orderBy('id').execute();
  const post = (who: TestPerson | null, body: unknown) => t.call('POST', '/date-overrides', { token: who?.token, body });
  const list = (who: TestPerson | null, query: string) => t.call('GET', `/date-overrides?${query}`, { token: who?.token });

  it('creates a company closure (201) and special hours, normalised and sorted; one per owner and date (409)', async () => {
    const holiday = await post(a.admin, { date: '2026-12-25', is_closed: true, note: 'Christmas' });
    expect(holiday.status, holiday.text).toBe(201);
    expect(holiday.body).toEqual({
      id: expect.any(Number),
      company_id: a.companyId,
      user_id: null,
      date: '2026-12-25',
      is_closed: true,
      intervals: [],
      note: 'Christmas',
      created_at: expect.stringMatching(/Z$/),
    });
    const special = await post(a.manager, {
      company_id: a.companyId,
      date: '2026-12-24',
      is_closed: false,
      intervals: [
        { open_time: '14:00', close_time: '24:00' },
        { open_time: '9:00', close_time: '12:30:00' },
      ],
    });
    expect(special.status, special.text).toBe(201);
    expect(special.body.intervals).toEqual([
      { open_time: '09:00:00', close_time: '12:30:00' },
      { open_time: '14:00:00', close_time: '00:00:00' },
    ]);
    expect(special.body.note).toBeNull();
    const withNull = await post(a.admin, { date: '2027-03-01', is_closed: true, intervals: null });
    expect(withNull.status, withNull.text).toBe(201);
    expect(withNull.body.intervals).toEqual([]);
    const withEmpty = await post(a.admin, { date: '2027-03-02', is_closed: true, intervals: [] });
    expect(withEmpty.status, withEmpty.text).toBe(201);
    const before = await snapshot();
    const again = await post(a.admin, { date: '2026-12-25', is_closed: false, intervals: [{ open_time: '10:00', close_time: '12:00' }] });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', error: 'The company already has an override on 2026-12-25; remove it first' });
    expect(await snapshot()).toEqual(before);
  });

  it('lets staff manage their own time off only; admins and managers anyone’s; customers and other companies never', async () => {
    const own = await post(a.employee, { user_id: a.employee.id, date: '2026-12-28', is_closed: true, note: 'Dentist' });
    expect(own.status, own.text).toBe(201);
    expect(own.body).toMatchObject({ company_id: a.companyId, user_id: a.employee.id });
    const partDay = await post(a.user, {
      user_id: a.user.id,
      date: '2026-12-28',
      is_closed: false,
      intervals: [{ open_time: '13:00', close_time: '17:00' }],
    });
    expect(partDay.status).toBe(201);
    expect((await post(a.manager, { user_id: a.employee.id, date: '2026-12-29', is_closed: true })).status).toBe(201);
    expect((await post(global, { user_id: a.employee.id, date: '2026-12-30', is_closed: true })).status).toBe(201);
    const before = await snapshot();
    expect((await post(a.employee, { user_id: a.user.id, date: '2026-12-31', is_closed: true })).status).toBe(403);
    expect((await post(a.employee, { date: '2026-12-31', is_closed: true })).status).toBe(403);
    expect((await post(a.customer, { date: '2026-12-31', is_closed: true })).status).toBe(403);
    expect((await post(null, { company_id: a.companyId, date: '2026-12-31', is_closed: true })).status).toBe(401);
    expect((await post(b.admin, { company_id: a.companyId, date: '2026-12-31', is_closed: true })).status).toBe(404);
    expect((await post(b.admin, { user_id: a.employee.id, date: '2026-12-31', is_closed: true })).status).toBe(404);
    expect((await post(a.admin, { user_id: a.customer.id, date: '2026-12-31', is_closed: true })).status).toBe(404);
    expect((await post(a.employee, { user_id: a.employee.id, date: '2026-12-28', is_closed: true })).status).toBe(409);
    expect(await snapshot()).toEqual(before);
  });

  it('shows notes to the company staff who may read them, never to public readers, customers or colleagues', async () => {
    const range = `company_id=${a.companyId}&from=2026-12-01&to=2026-12-31`;
    const byAdmin = (await list(a.admin, range)).body;
    expect(byAdmin.find((r: any) => r.date === '2026-12-25').note).toBe('Christmas');
    expect(byAdmin.find((r: any) => r.user_id === a.employee.id && r.date === '2026-12-28').note).toBe('Dentist');
    for (const who of [null, a.customer, b.admin]) {
      const res = await list(who, range);
      expect(res.status).toBe(200);
      expect(res.body.length).toBe(byAdmin.length);
      expect(res.body.every((r: any) => !('note' in r))).toBe(true);
      expect(res.text).not.toContain('Christmas');
    }
    const byColleague = (await list(a.user, range)).body;
    expect(byColleague.find((r: any) => r.date === '2026-12-25').note).toBe('Christmas');
    expect(byColleague.find((r: any) => r.user_id === a.employee.id && r.date === '2026-12-28')).not.toHaveProperty('note');
    expect((await list(a.employee, range)).body.find((r: any) => r.user_id === a.employee.id && r.date === '2026-12-28').note).toBe(
      'Dentist',
    );
  });

  it('filters by person and date range (both ends included), ordered by date; the caller’s company by default', async () => {
    const mine = await list(a.employee, `user_id=${a.employee.id}`);
    expect(mine.body.map((r: any) => r.date)).toEqual(['2026-12-28', '2026-12-29', '2026-12-30']);
    const window = await list(null, `company_id=${a.companyId}&from=2026-12-25&to=2026-12-28`);
    expect(window.body.map((r: any) => r.date)).toEqual(['2026-12-25', '2026-12-28', '2026-12-28']);
    expect((await list(null, `company_id=${b.companyId}`)).body).toEqual([]);
    expect((await list(null, 'from=2026-01-01')).status).toBe(400);
    expect((await list(null, 'company_id=999999')).status).toBe(404);
    expect((await list(null, `company_id=${a.companyId}&from=2026-12-31&to=2026-12-01`)).status).toBe(400);
    for (const bad of ['from=2026-13-01', 'to=2026-02-30', 'from=tomorrow', 'company_id=abc', 'user_id=0'])
      expect((await list(a.admin, bad)).status, bad).toBe(400);
  });

  it('answers 400 to malformed dates and intervals, closed dates with intervals, overlaps, and bad JSON; writes nothing', async () => {
    const before = await snapshot();
    const bodies: unknown[] = [
      { date: '2026-02-30', is_closed: true },
      { date: '26-12-01', is_closed: true },
      { date: '2026-12-01T00:00:00Z', is_closed: true },
      { date: 20261201, is_closed: true },
      { is_closed: true },
      { date: '2026-12-01' },
      { date: '2026-12-01', is_closed: 'yes' },
      { date: '2026-12-01', is_closed: true, intervals: [{ open_time: '09:00', close_time: '12:00' }] },
      { date: '2026-12-01', is_closed: false },
      { date: '2026-12-01', is_closed: false, intervals: [] },
      { date: '2026-12-01', is_closed: false, intervals: [{ open_time: '12:00', close_time: '09:00' }] },
      { date: '2026-12-01', is_closed: false, intervals: [{ open_time: '09:00', close_time: '09:00' }] },
      { date: '2026-12-01', is_closed: false, intervals: [{ open_time: '24:00', close_time: '24:00' }] },
      { date: '2026-12-01', is_closed: false, intervals: [{ open_time: '9am', close_time: '12:00' }] },
      { date: '2026-12-01', is_closed: false, intervals: [{ open_time: '09:00' }] },
      { date: '2026-12-01', is_closed: false, intervals: 'all day' },
      {
        date: '2026-12-01',
        is_closed: false,
        intervals: [
          { open_time: '09:00', close_time: '12:00' },
          { open_time: '11:59', close_time: '13:00' },
        ],
      },
      { date: '2026-12-01', is_closed: true, note: 'x'.repeat(501) },
      { date: '2026-12-01', is_closed: true, user_id: 'me' },
      [],
      null,
    ];
    for (const body of bodies) {
      const res = await post(a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation');
    }
    for (const raw of ['{"date": "2026-12-01"', 'date=2026-12-01', ''])
      expect((await t.call('POST', '/date-overrides', { token: a.admin.token, raw })).status, raw).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('deletes (204) under the same roles; another company’s or a missing one is 404', async () => {
    const own = (await post(a.employee, { user_id: a.employee.id, date: '2027-01-05', is_closed: true })).body;
    const company = (await post(a.admin, { date: '2027-01-06', is_closed: true })).body;
    expect((await t.call('DELETE', `/date-overrides/${company.id}`, { token: a.employee.token })).status).toBe(403);
    expect((await t.call('DELETE', `/date-overrides/${own.id}`, { token: a.user.token })).status).toBe(403);
    expect((await t.call('DELETE', `/date-overrides/${own.id}`, { token: b.admin.token })).status).toBe(404);
    expect((await t.call('DELETE', `/date-overrides/${own.id}`, { token: a.customer.token })).status).toBe(403);
    expect((await t.call('DELETE', `/date-overrides/${own.id}`)).status).toBe(401);
    expect((await t.call('DELETE', `/date-overrides/${own.id}`, { token: a.employee.token })).status).toBe(204);
    expect((await t.call('DELETE', `/date-overrides/${own.id}`, { token: a.employee.token })).status).toBe(404);
    expect((await t.call('DELETE', `/date-overrides/${company.id}`, { token: a.manager.token })).status).toBe(204);
    expect(await t.db.selectFrom('date_overrides').select('id').where('id', 'in', [own.id, company.id]).execute()).toEqual([]);
    for (const bad of ['0', '-1', 'abc'])
      expect((await t.call('DELETE', `/date-overrides/${bad}`, { token: a.admin.token })).status).toBe(400);
  });

  it('overridesInRange gives the engine every override of the company in the range, intervals as open/close with 24:00:00 at midnight', async () => {
    const rows = await overridesInRange(t.db, a.companyId, '2026-12-24', '2026-12-28');
    expect(rows.map((r) => [r.date, r.user_id])).toEqual([
      ['2026-12-24', null],
      ['2026-12-25', null],
      ['2026-12-28', a.employee.id],
      ['2026-12-28', a.user.id],
    ]);
    expect(rows[0]).toEqual({
      id: expect.any(Number),
      user_id: null,
      date: '2026-12-24',
      is_closed: false,
      intervals: [
        { open: '09:00:00', close: '12:30:00' },
        { open: '14:00:00', close: '24:00:00' },
      ],
    });
    expect(rows[1]).toMatchObject({ is_closed: true, intervals: [] });
    expect(await overridesInRange(t.db, b.companyId, '2026-01-01', '2027-12-31')).toEqual([]);
  });
});
