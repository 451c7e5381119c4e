// The global_admin calls through real HTTP on every dialect: exact figures on a known data set,
// subscription edits, people lists and the email export (JSON, CSV quoting and formula neutralising).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, uniqueEmail, type CallOptions, type CallResult, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, addPerson, companyWithPeople, type TestCompany, type TestPerson } from '../../testing/company-people.ts';
import { databaseFingerprint } from '../../testing/fingerprint.ts';
import { appointmentRow } from '../../testing/rows.ts';
import { neutraliseCell } from './user-export.mapper.ts';

const SECRET_FIELDS = /password_hash|token_version|stripe_customer_id|stripe_subscription_id|cus_secret|sub_secret|test-only-not-a-hash/;
const DAY = 86_400_000;
const isoFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describe.each(testDialects())('admin on %s', (dialect) => {
  let t: TestServer;
  let a: TestCompany;
  let b: TestCompany;
  let c: TestCompany;
  let root: TestPerson;
  let archived: TestPerson;
  const bExpiry = isoFromNow(-1);
  const bodies: string[] = [];

  async function call<T = any>(method: string, path: string, opts?: CallOptions): Promise<CallResult<T>> {
    const res = await t.call<T>(method, path, opts);
    bodies.push(res.text);
    return res;
  }

  async function appointment(companyId: number, userId: number | null, employeeId: number | null) {
    const iso = new Date().toISOString();
    await t.db
      .insertInto('appointments')
      .values(
        appointmentRow({
          company_id: companyId,
          user_id: userId,
          employee_id: employeeId,
          start_time: isoFromNow(3),
          end_time: isoFromNow(3.02),
          created_at: iso,
          updated_at: iso,
        }),
      )
      .execute();
  }

  beforeAll(async () => {
    t = await startTestServer(dialect);
    a = await companyWithPeople(t, 'Alpha Admin Co');
    b = await companyWithPeople(t, 'Beta Expired Co');
    c = await companyWithPeople(t, 'Gamma Forever Co');
    root = await addGlobalAdmin(t);
    archived = await addPerson(t, a.companyId, 'employee', 'Gone Person');
    await t.db.updateTable('users').set({ archived_at: new Date().toISOString() }).where('id', '=', archived.id).execute();
    await t.db.updateTable('companies').set({ subscription_expires_at: bExpiry }).where('id', '=', b.companyId).execute();
    await t.db
      .updateTable('companies')
      .set({ subscription_expires_at: null, subscription_plan: 'standard' })
      .where('id', '=', c.companyId)
      .execute();
    await t.db.updateTable('companies').set({ stripe_customer_id: 'cus_secret', stripe_subscription_id: 'sub_secret' }).execute();
    await appointment(a.companyId, a.customer.id, a.employee.id);
    await appointment(a.companyId, a.customer.id, null);
    await appointment(a.companyId, null, archived.id);
    await appointment(b.companyId, b.customer.id, b.admin.id);
  });
  afterAll(async () => t?.close());

  it('is closed to everyone but global_admin (403 signed in, 401 anonymous), writing nothing', async () => {
    const before = await databaseFingerprint(t.db);
    const routes: [string, string, unknown?][] = [
      ['GET', '/admin/stats'],
      ['GET', '/admin/companies'],
      ['GET', '/admin/users'],
      ['GET', '/admin/users/export?format=csv'],
      ['PUT', `/admin/companies/${a.companyId}/subscription`, { subscription_expires_at: null }],
    ];
    for (const [method, path, body] of routes) {
      for (const who of [a.admin, a.manager, a.employee, a.user, a.customer]) {
        const res = await call(method, path, { token: who.token, body });
        expect(res.status, `${who.role} ${method} ${path}`).toBe(403);
        expect(res.body.code).toBe('forbidden');
      }
      expect((await call(method, path, { body })).status).toBe(401);
    }
    expect(await databaseFingerprint(t.db)).toBe(before);
  });

  it('counts companies (active: no expiry or expiry ahead) and current users', async () => {
    const res = await call('GET', '/admin/stats', { token: root.token });
    expect(res.status).toBe(200);
    // 3 companies x 5 people + global_admin; the archived person is gone.
    expect(res.body).toEqual({ total_companies: 3, total_users: 16, active_companies: 2, expired_companies: 1 });
  });

  it('lists companies with user and appointment counts and subscription state, no Stripe ids', async () => {
    const res = await call('GET', '/admin/companies', { token: root.token });
    expect(res.status).toBe(200);
    expect(res.body.map((x: any) => x.name)).toEqual(['Alpha Admin Co', 'Beta Expired Co', 'Gamma Forever Co']);
    const [ra, rb, rc] = res.body;
    expect(ra).toMatchObject({
      id: a.companyId,
      user_count: 5,
      appointment_count: 3,
      subscription_active: true,
      subscription_plan: 'trial',
    });
    expect(rb).toMatchObject({
      id: b.companyId,
      user_count: 5,
      appointment_count: 1,
      subscription_active: false,
      subscription_expires_at: bExpiry,
    });
    expect(rc).toMatchObject({
      id: c.companyId,
      user_count: 5,
      appointment_count: 0,
      subscription_active: true,
      subscription_expires_at: null,
      subscription_plan: 'standard',
    });
    expect(Object.keys(ra)).toEqual(
      expect.arrayContaining(['email', 'slug', 'user_count', 'appointment_count', 'subscription_expires_at']),
    );
    expect((await call('GET', '/admin/companies?search=BETA', { token: root.token })).body.map((x: any) => x.id)).toEqual([b.companyId]);
  });

  it('sets or clears a subscription expiry, validating the date, and reflects it everywhere', async () => {
    const set = await call('PUT', `/admin/companies/${b.companyId}/subscription`, {
      token: root.token,
      body: { subscription_expires_at: '2027-06-30T23:59:59+02:00' },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      id: b.companyId,
      subscription_expires_at: '2027-06-30T21:59:59.000Z',
      subscription_active: true,
      user_count: 5,
      appointment_count: 1,
    });
    expect((await call('GET', '/admin/stats', { token: root.token })).body).toMatchObject({ active_companies: 3, expired_companies: 0 });
    expect((await call('GET', `/companies/${b.companyId}`)).body.accepting_bookings).toBe(true);

    const never = await call('PUT', `/admin/companies/${b.companyId}/subscription`, {
      token: root.token,
      body: { subscription_expires_at: null },
    });
    expect(never.body).toMatchObject({ subscription_expires_at: null, subscription_active: true });
    const empty = await call('PUT', `/admin/companies/${b.companyId}/subscription`, {
      token: root.token,
      body: { subscription_expires_at: '' },
    });
    expect(empty.body.subscription_expires_at).toBeNull();
    // A date alone runs to the end of that day (UTC); a date-time without an offset is UTC.
    for (const [given, stored] of [
      ['2027-01-01', '2027-01-01T23:59:59.999Z'],
      ['2027-01-15T10:30', '2027-01-15T10:30:00.000Z'],
    ]) {
      const res = await call('PUT', `/admin/companies/${b.companyId}/subscription`, {
        token: root.token,
        body: { subscription_expires_at: given },
      });
      expect(res.status, given).toBe(200);
      expect(res.body.subscription_expires_at).toBe(stored);
    }
    await call('PUT', `/admin/companies/${b.companyId}/subscription`, { token: root.token, body: { subscription_expires_at: null } });

    const before = await databaseFingerprint(t.db);
    for (const body of [
      {},
      { subscription_expires_at: 'tomorrow' },
      { subscription_expires_at: 42 },
      { subscription_expires_at: '2027-13-01T00:00:00Z' },
      { subscription_expires_at: '2027-02-30' },
      { subscription_expires_at: true },
      [1],
      null,
    ]) {
      const res = await call('PUT', `/admin/companies/${b.companyId}/subscription`, { token: root.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await call('PUT', `/admin/companies/${b.companyId}/subscription`, { token: root.token, raw: '{"subscription_expires_at":' })).status,
    ).toBe(400);
    expect(
      (await call('PUT', '/admin/companies/2000000000/subscription', { token: root.token, body: { subscription_expires_at: null } }))
        .status,
    ).toBe(404);
    for (const id of ['0', '-1', '1.5', 'abc', '99999999999']) {
      expect(
        (await call('PUT', `/admin/companies/${id}/subscription`, { token: root.token, body: { subscription_expires_at: null } })).status,
      ).toBe(400);
    }
    expect(await databaseFingerprint(t.db)).toBe(before);
    await t.db.updateTable('companies').set({ subscription_expires_at: bExpiry }).where('id', '=', b.companyId).execute();
  });

  it('lists people with their company name and appointment count (as customer or employee), with filters', async () => {
    const res = await call('GET', '/admin/users', { token: root.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(16);
    const byId = new Map(res.body.map((u: any) => [u.id, u]));
    expect(byId.get(a.customer.id)).toMatchObject({ company_name: 'Alpha Admin Co', appointment_count: 2, role: 'customer' });
    expect(byId.get(a.employee.id)).toMatchObject({ company_name: 'Alpha Admin Co', appointment_count: 1 });
    expect(byId.get(b.admin.id)).toMatchObject({ company_name: 'Beta Expired Co', appointment_count: 1 });
    expect(byId.get(root.id)).toMatchObject({ company_name: null, appointment_count: 0, role: 'global_admin', company_id: null });
    expect(byId.has(archived.id)).toBe(false);
    expect(Object.keys(res.body[0]).sort()).toEqual([
      'appointment_count',
      'company_id',
      'company_name',
      'created_at',
      'email',
      'has_password',
      'id',
      'name',
      'phone',
      'role',
    ]);

    const onlyC = await call('GET', `/admin/users?company_id=${c.companyId}`, { token: root.token });
    expect(onlyC.body.every((u: any) => u.company_id === c.companyId)).toBe(true);
    expect(onlyC.body).toHaveLength(5);
    const managers = await call('GET', '/admin/users?role=manager', { token: root.token });
    expect(managers.body.map((u: any) => u.id).sort((x: number, y: number) => x - y)).toEqual([a.manager.id, b.manager.id, c.manager.id]);
    const byCompanyName = await call('GET', '/admin/users?search=gamma%20FOREVER', { token: root.token });
    expect(byCompanyName.body).toHaveLength(5);
    expect((await call('GET', '/admin/users?role=&company_id=', { token: root.token })).body).toHaveLength(16);
    for (const qs of ['company_id=abc', 'company_id=-1', 'role=superuser', `search=${'s'.repeat(300)}`]) {
      expect((await call('GET', `/admin/users?${qs}`, { token: root.token })).status, qs).toBe(400);
    }
  });

  describe('email export', () => {
    it('answers JSON {count, emails} with role and active-subscription filters', async () => {
      const all = await call('GET', '/admin/users/export?format=json', { token: root.token });
      expect(all.status).toBe(200);
      expect(all.body.count).toBe(16);
      expect(all.body.emails).toHaveLength(16);
      expect(Object.keys(all.body.emails[0]).sort()).toEqual(['company_name', 'email', 'name', 'role']);
      expect((await call('GET', '/admin/users/export', { token: root.token })).body.count).toBe(16);

      const customers = await call('GET', '/admin/users/export?format=json&role=customer', { token: root.token });
      expect(customers.body.count).toBe(3);
      expect(customers.body.emails.every((e: any) => e.role === 'customer')).toBe(true);
      const globals = await call('GET', '/admin/users/export?format=json&role=global_admin', { token: root.token });
      expect(globals.body.emails).toEqual([expect.objectContaining({ role: 'global_admin', company_name: null })]);

      const active = await call('GET', '/admin/users/export?format=json&active_only=true', { token: root.token });
      expect(active.body.count).toBe(10);
      expect(active.body.emails.some((e: any) => e.company_name === 'Beta Expired Co' || e.company_name === null)).toBe(false);
      const activeAdmins = await call('GET', '/admin/users/export?format=json&active_only=true&role=admin', { token: root.token });
      expect(activeAdmins.body.emails.map((e: any) => e.company_name).sort()).toEqual(['Alpha Admin Co', 'Gamma Forever Co']);
      expect((await call('GET', '/admin/users/export?active_only=false&role=all', { token: root.token })).body.count).toBe(16);
      for (const qs of ['format=xml', 'role=superuser', 'active_only=yes', 'format=csv&active_only=1']) {
        expect((await call('GET', `/admin/users/export?${qs}`, { token: root.token })).status, qs).toBe(400);
      }
    });

    it('answers a quoted, spreadsheet-safe CSV file named after the day', async () => {
      const tricky = [
        ['Smith, "Jo"\nSecond line', 'tricky'],
        ['Line\nbreak only', 'lf'],
        ['=HYPERLINK("http://evil.test","click")', 'formula'],
        ['+1+2', 'plus'],
        ['-2+3', 'minus'],
        ['@SUM(A1:A2)', 'at'],
        ['\tTabbed', 'tab'],
        ['\rReturned', 'cr'],
      ];
      const company = await companyWithPeople(t, '=Evil Corp');
      await t.db.updateTable('companies').set({ subscription_expires_at: null }).where('id', '=', company.companyId).execute();
      for (const [name, prefix] of tricky) {
        await t.db
          .insertInto('users')
          .values({
            company_id: company.companyId,
            name,
            email: uniqueEmail(`zz-${prefix}`),
            phone: null,
            role: 'customer',
            password_hash: null,
            token_version: 0,
            archived_at: null,
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          })
          .execute();
      }
      const dayBefore = new Date().toISOString().slice(0, 10);
      const res = await call('GET', '/admin/users/export?format=csv&role=customer&active_only=true', { token: root.token });
      const dayAfter = new Date().toISOString().slice(0, 10);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect([dayBefore, dayAfter].map((d) => `attachment; filename="user_emails_${d}.csv"`)).toContain(
        res.headers.get('content-disposition'),
      );
      expect(res.text.startsWith('email,name,role,company_name\r\n')).toBe(true);
      const rows = await t.db
        .selectFrom('users')
        .select(['email', 'name'])
        .where('company_id', '=', company.companyId)
        .where('role', '=', 'customer')
        .execute();
      const byName = new Map(rows.map((r) => [r.name, r.email]));
      const line = (name: string, cell: string) => `${byName.get(name)},${cell},customer,'=Evil Corp\r\n`;
      expect(res.text).toContain(line('Smith, "Jo"\nSecond line', '"Smith, ""Jo""\nSecond line"'));
      expect(res.text).toContain(line('=HYPERLINK("http://evil.test","click")', `"'=HYPERLINK(""http://evil.test"",""click"")"`));
      expect(res.text).toContain(line('Line\nbreak only', '"Line\nbreak only"'));
      expect(res.text).toContain(line('+1+2', "'+1+2"));
      expect(res.text).toContain(line('-2+3', "'-2+3"));
      expect(res.text).toContain(line('@SUM(A1:A2)', "'@SUM(A1:A2)"));
      expect(res.text).toContain(line('\tTabbed', "'\tTabbed"));
      expect(res.text).toContain(line('\rReturned', `"'\rReturned"`));
      // No other row starts a cell with a formula character.
      for (const row of res.text.split('\r\n').slice(1)) expect(row).not.toMatch(/(^|,)[=+\-@]/);

      const json = await call('GET', '/admin/users/export?format=json&role=customer&active_only=true', { token: root.token });
      expect(json.body.emails.map((e: any) => e.name)).toEqual(expect.arrayContaining(tricky.map(([n]) => n)));
    });

    it('neutralises exactly the formula-starting characters', () => {
      for (const v of ['=1', '+1', '-1', '@a', '\tx', '\rx']) expect(neutraliseCell(v)).toBe(`'${v}`);
      for (const v of ['a=1', ' =1', '', 'plain', "'quoted"]) expect(neutraliseCell(v)).toBe(v);
    });
  });

  it('never answered with a password hash, token version or Stripe id', () => {
    expect(bodies.length).toBeGreaterThan(40);
    expect(bodies.filter((x) => SECRET_FIELDS.test(x))).toEqual([]);
  });
});
