// People calls through real HTTP on every dialect: tenancy, who may add, edit and remove whom, the
// trial's staff limit, archive versus delete, the public staff list and bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import {
  registerCompany,
  startTestServer,
  uniqueEmail,
  type CallOptions,
  type CallResult,
  type TestServer,
} from '../../testing/harness.ts';
import {
  addGlobalAdmin,
  addPerson as insertPerson,
  companyWithPeople,
  type TestCompany,
  type TestPerson,
} from '../../testing/company-people.ts';
import { databaseFingerprint } from '../../testing/fingerprint.ts';
import { appointmentRow } from '../../testing/rows.ts';

const SECRET_FIELDS = /password_hash|token_version|stripe_customer_id|stripe_subscription_id|test-only-not-a-hash|\$argon2/;

describe.each(testDialects())('users on %s', (dialect) => {
  let t: TestServer;
  let a: TestCompany;
  let b: TestCompany;
  let root: TestPerson;
  const bodies: string[] = [];

  /** Every response of this suite is kept, to prove at the end that none carried a secret. */
  async function call<T = any>(method: string, path: string, opts?: CallOptions): Promise<CallResult<T>> {
    const res = await t.call<T>(method, path, opts);
    bodies.push(res.text);
    return res;
  }

  async function appointmentFor(companyId: number, people: { user_id?: number | null; employee_id?: number | null }) {
    const iso = new Date().toISOString();
    await t.db
      .insertInto('appointments')
      .values(
        appointmentRow({
          company_id: companyId,
          user_id: people.user_id ?? null,
          employee_id: people.employee_id ?? null,
          start_time: '2030-01-07T09:00:00.000Z',
          end_time: '2030-01-07T09:30:00.000Z',
          created_at: iso,
          updated_at: iso,
        }),
      )
      .execute();
  }

  beforeAll(async () => {
    t = await startTestServer(dialect);
    a = await companyWithPeople(t, 'Alpha Salon');
    b = await companyWithPeople(t, 'Beta Barbers');
    root = await addGlobalAdmin(t);
    // These two are past the trial (its staff limit has its own tests below).
    await t.db.updateTable('companies').set({ subscription_plan: 'standard' }).where('id', 'in', [a.companyId, b.companyId]).execute();
  });
  afterAll(async () => t?.close());

  describe('GET /users', () => {
    it("lists the caller's company only, for every staff role; customers are refused", async () => {
      for (const who of [a.admin, a.manager, a.employee, a.user]) {
        const res = await call('GET', '/users', { token: who.token });
        expect(res.status).toBe(200);
        expect(res.body.length).toBeGreaterThanOrEqual(5);
        expect(res.body.every((u: any) => u.company_id === a.companyId)).toBe(true);
      }
      const customer = await call('GET', '/users', { token: a.customer.token });
      expect(customer.status).toBe(403);
      expect(customer.body.code).toBe('forbidden');
      expect((await call('GET', '/users')).status).toBe(401);
    });

    it('answers 404 to staff naming another company, and lets global_admin see all or filter', async () => {
      expect((await call('GET', `/users?company_id=${b.companyId}`, { token: a.admin.token })).status).toBe(404);
      expect((await call('GET', `/users?company_id=${a.companyId}`, { token: a.admin.token })).status).toBe(200);
      const all = await call('GET', '/users', { token: root.token });
      const companies = new Set(all.body.map((u: any) => u.company_id));
      expect(companies.has(a.companyId) && companies.has(b.companyId) && companies.has(null)).toBe(true);
      const onlyB = await call('GET', `/users?company_id=${b.companyId}`, { token: root.token });
      expect(onlyB.body.length).toBeGreaterThan(0);
      expect(onlyB.body.every((u: any) => u.company_id === b.companyId)).toBe(true);
    });

    it('filters by role and searches name or email ignoring case, with % and _ taken literally', async () => {
      const email = uniqueEmail('Zelda.Search');
      const added = await call('POST', '/users/customer', { token: a.admin.token, body: { name: 'Zelda Quintana-Fox', email } });
      expect(added.status).toBe(201);
      await call('POST', '/users/customer', { token: a.admin.token, body: { name: '100% Pure_Joy', email: uniqueEmail('pct') } });
      const byName = await call('GET', '/users?search=zELDA%20quin', { token: a.employee.token });
      expect(byName.body.map((u: any) => u.id)).toEqual([added.body.id]);
      const byEmail = await call('GET', `/users?search=${encodeURIComponent(email.toUpperCase().slice(0, 14))}`, {
        token: a.employee.token,
      });
      expect(byEmail.body.map((u: any) => u.id)).toContain(added.body.id);
      const customers = await call('GET', '/users?role=customer', { token: a.admin.token });
      expect(customers.body.length).toBeGreaterThanOrEqual(3);
      expect(customers.body.every((u: any) => u.role === 'customer')).toBe(true);
      const percent = await call('GET', `/users?search=${encodeURIComponent('%')}`, { token: a.admin.token });
      expect(percent.body.map((u: any) => u.name)).toEqual(['100% Pure_Joy']);
      const underscore = await call('GET', '/users?search=_', { token: a.admin.token });
      expect(underscore.body.map((u: any) => u.name)).toEqual(['100% Pure_Joy']);
      const otherCompany = await call('GET', '/users?search=zelda', { token: b.admin.token });
      expect(otherCompany.body).toEqual([]);
      expect((await call('GET', '/users?role=', { token: a.admin.token })).status).toBe(200);
    });
  });

  describe('adding people', () => {
    it('adds an employee password-less, lower-cases the email and queues a 7-day invitation in the same transaction', async () => {
      const email = uniqueEmail('New.Hire').toUpperCase();
      const res = await call('POST', '/users/employee', {
        token: a.admin.token,
        body: { name: 'New Hire', email, phone: '+33 1 23 45 67 89', company_id: a.companyId },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'New Hire',
        email: email.toLowerCase(),
        role: 'employee',
        company_id: a.companyId,
        has_password: false,
        phone: '+33123456789', // stored in E.164 (docs/decisions/22-messaging.md)
      });
      const row = await t.db.selectFrom('users').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(row.password_hash).toBeNull();
      const mail = await t.db.selectFrom('outbox_messages').selectAll().where('to_address', '=', email.toLowerCase()).execute();
      expect(mail.map((m) => m.kind)).toEqual(['invitation']);
      expect(mail[0].body_text).toContain('/reset-password?token=');
      const tokens = await t.db.selectFrom('password_tokens').selectAll().where('user_id', '=', res.body.id).execute();
      expect(tokens).toHaveLength(1);
      expect(tokens[0].purpose).toBe('invite');
      const days = (Date.parse(tokens[0].expires_at) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);
    });

    it('lets admins add any company role, managers only employee, user and customer, and nobody else', async () => {
      for (const role of ['admin', 'manager', 'employee', 'user']) {
        const res = await call('POST', '/users/employee', {
          token: a.admin.token,
          body: { name: `Admin adds ${role}`, email: uniqueEmail(role), role },
        });
        expect(res.status, role).toBe(201);
        expect(res.body.role).toBe(role);
      }
      for (const role of ['employee', 'user']) {
        expect(
          (await call('POST', '/users/employee', { token: a.manager.token, body: { name: 'M', email: uniqueEmail(), role } })).status,
        ).toBe(201);
      }
      expect((await call('POST', '/users/customer', { token: a.manager.token, body: { name: 'M', email: uniqueEmail() } })).status).toBe(
        201,
      );
      const before = await databaseFingerprint(t.db);
      for (const role of ['admin', 'manager']) {
        const res = await call('POST', '/users/employee', { token: a.manager.token, body: { name: 'M', email: uniqueEmail(), role } });
        expect(res.status).toBe(403);
        expect((await call('POST', '/users', { token: a.manager.token, body: { name: 'M', email: uniqueEmail(), role } })).status).toBe(
          403,
        );
      }
      for (const who of [a.employee, a.user, a.customer]) {
        for (const path of ['/users', '/users/employee', '/users/customer']) {
          const res = await call('POST', path, { token: who.token, body: { name: 'X', email: uniqueEmail(), role: 'customer' } });
          expect(res.status, `${who.role} ${path}`).toBe(403);
        }
      }
      expect((await call('POST', '/users/customer', { body: { name: 'X', email: uniqueEmail() } })).status).toBe(401);
      // global_admin is not a company role: 400 from the schema, before any permission question.
      expect(
        (await call('POST', '/users', { token: a.admin.token, body: { name: 'X', email: uniqueEmail(), role: 'global_admin' } })).status,
      ).toBe(400);
      expect(await databaseFingerprint(t.db)).toBe(before);
    });

    it("adds people to the caller's company only; global_admin names the company", async () => {
      const foreign = await call('POST', '/users/employee', {
        token: a.admin.token,
        body: { name: 'X', email: uniqueEmail(), company_id: b.companyId },
      });
      expect(foreign.status).toBe(404);
      const missing = await call('POST', '/users', { token: root.token, body: { name: 'X', email: uniqueEmail(), role: 'admin' } });
      expect(missing.status).toBe(400);
      const unknown = await call('POST', '/users', {
        token: root.token,
        body: { name: 'X', email: uniqueEmail(), role: 'admin', company_id: 999_999 },
      });
      expect(unknown.status).toBe(404);
      const ok = await call('POST', '/users', {
        token: root.token,
        body: { name: 'B Admin 2', email: uniqueEmail(), role: 'admin', company_id: b.companyId },
      });
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ company_id: b.companyId, role: 'admin' });
      const customer = await call('POST', '/users', {
        token: a.admin.token,
        body: { name: 'Via POST users', email: uniqueEmail(), role: 'customer' },
      });
      expect(customer.status).toBe(201);
      expect(customer.body.role).toBe('customer');
    });

    it('refuses an email the company already has, in any case, and a staff email that signs in elsewhere', async () => {
      const email = uniqueEmail('dup');
      expect((await call('POST', '/users/customer', { token: a.admin.token, body: { name: 'Dup', email } })).status).toBe(201);
      const before = await databaseFingerprint(t.db);
      for (const [path, role] of [
        ['/users/customer', undefined],
        ['/users/employee', 'employee'],
      ] as const) {
        const res = await call('POST', path, { token: a.admin.token, body: { name: 'Dup 2', email: email.toUpperCase(), role } });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: 'Email already exists', code: 'validation' });
      }
      // b's admin has a password: as staff of a, that email would be a second login.
      const bAdmin = await t.db.selectFrom('users').select('email').where('id', '=', b.admin.id).executeTakeFirstOrThrow();
      const staff = await call('POST', '/users/employee', { token: a.admin.token, body: { name: 'Moonlighter', email: bAdmin.email } });
      expect(staff.status).toBe(400);
      expect(staff.body.error).toBe('Email already exists');
      expect(await databaseFingerprint(t.db)).toBe(before);
    });

    it('adds as a customer someone who signs in elsewhere, telling them by email without a useless link', async () => {
      const bAdmin = await t.db.selectFrom('users').select('email').where('id', '=', b.admin.id).executeTakeFirstOrThrow();
      const res = await call('POST', '/users/customer', {
        token: a.admin.token,
        body: { name: 'B owner as customer', email: bAdmin.email },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ company_id: a.companyId, role: 'customer', has_password: false });
      const mail = await t.db.selectFrom('outbox_messages').selectAll().where('to_address', '=', bAdmin.email).execute();
      expect(mail.map((m) => m.kind)).toEqual(['invitation']);
      expect(mail[0].body_text).not.toContain('token=');
      expect(await t.db.selectFrom('password_tokens').select('id').where('user_id', '=', res.body.id).execute()).toEqual([]);
    });
  });

  describe('GET /users/{id}', () => {
    it("shows people of one's own company to staff, only themselves to customers, anyone to global_admin", async () => {
      for (const who of [a.admin, a.manager, a.employee, a.user]) {
        for (const target of [a.admin, a.employee, a.customer]) {
          expect((await call('GET', `/users/${target.id}`, { token: who.token })).status, `${who.role} -> ${target.role}`).toBe(200);
        }
      }
      const self = await call('GET', `/users/${a.customer.id}`, { token: a.customer.token });
      expect(self.status).toBe(200);
      expect(self.body.id).toBe(a.customer.id);
      expect((await call('GET', `/users/${a.employee.id}`, { token: a.customer.token })).status).toBe(404);
      expect((await call('GET', `/users/${b.admin.id}`, { token: root.token })).status).toBe(200);
      expect((await call('GET', `/users/${root.id}`, { token: root.token })).status).toBe(200);
    });

    it("answers another company's person exactly like a missing one, to every role but global_admin", async () => {
      const missing = await call('GET', '/users/2000000000', { token: a.admin.token });
      expect(missing.status).toBe(404);
      for (const who of [a.admin, a.manager, a.employee, a.user, a.customer]) {
        for (const target of [b.admin, b.customer, root]) {
          for (const method of ['GET', 'PUT', 'DELETE']) {
            const res = await call(method, `/users/${target.id}`, {
              token: who.token,
              body: method === 'PUT' ? { name: 'Hacked' } : undefined,
            });
            // Also to a role the route refuses (DELETE for employees and customers): their own company's
            // person gets 403, another company's 404 (docs/decisions/03-tenancy-and-roles.md).
            expect(res.status, `${who.role} ${method} ${target.role}`).toBe(404);
            expect(res.body).toEqual(missing.body);
          }
        }
      }
      const names = await t.db.selectFrom('users').select('name').where('company_id', '=', b.companyId).execute();
      expect(names.some((n) => n.name === 'Hacked')).toBe(false);
    });
  });

  describe('PUT /users/{id}', () => {
    it('lets everyone edit their own name and phone (PATCH too), but not their email or role', async () => {
      for (const who of [a.employee, a.user, a.customer]) {
        const res = await call('PUT', `/users/${who.id}`, {
          token: who.token,
          body: { name: `  Renamed ${who.role}  `, phone: '(415) 555-0100' },
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ name: `Renamed ${who.role}`, phone: '+14155550100' });
        const patched = await call('PATCH', `/users/${who.id}`, { token: who.token, body: { phone: '' } });
        expect(patched.status).toBe(200);
        expect(patched.body).toMatchObject({ name: `Renamed ${who.role}`, phone: null });
        const current = patched.body;
        // Sending the current role and email back (as a settings form does) is not a change.
        expect(
          (await call('PUT', `/users/${who.id}`, { token: who.token, body: { role: current.role, email: current.email } })).status,
        ).toBe(200);
        expect((await call('PUT', `/users/${who.id}`, { token: who.token, body: { email: uniqueEmail() } })).status).toBe(403);
        expect((await call('PUT', `/users/${who.id}`, { token: who.token, body: { role: 'admin' } })).status).toBe(403);
      }
      const employee = await call('PUT', `/users/${a.user.id}`, { token: a.employee.token, body: { name: 'Not yours' } });
      expect(employee.status).toBe(403);
    });

    it('lets admins and managers edit people of their company; managers not admins or managers', async () => {
      const email = uniqueEmail('Changed');
      const res = await call('PUT', `/users/${a.employee.id}`, { token: a.manager.token, body: { name: 'Edited by manager', email } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Edited by manager', email: email.toLowerCase() });
      expect((await call('PUT', `/users/${a.customer.id}`, { token: a.manager.token, body: { phone: '415 555 0123' } })).status).toBe(200);
      expect((await call('PUT', `/users/${a.admin.id}`, { token: a.manager.token, body: { name: 'Coup' } })).status).toBe(403);
      expect((await call('PUT', `/users/${a.manager.id}`, { token: a.admin.token, body: { name: 'Edited by admin' } })).status).toBe(200);
      const taken = await t.db.selectFrom('users').select('email').where('id', '=', a.user.id).executeTakeFirstOrThrow();
      const clash = await call('PUT', `/users/${a.employee.id}`, { token: a.admin.token, body: { email: taken.email.toUpperCase() } });
      expect(clash.status).toBe(400);
      expect(clash.body.error).toBe('Email already exists');
    });

    it('lets only an admin change roles: never their own, never to or from global_admin; the old token dies', async () => {
      const target = await insertPerson(t, a.companyId, 'employee', 'Role target');
      const before = await databaseFingerprint(t.db);
      const own = await call('PUT', `/users/${a.admin.id}`, { token: a.admin.token, body: { role: 'employee' } });
      expect(own.status).toBe(403);
      expect(own.body.error).toBe('You cannot change your own role');
      const grant = await call('PUT', `/users/${target.id}`, { token: a.admin.token, body: { role: 'global_admin' } });
      expect(grant.status).toBe(403);
      const manager = await call('PUT', `/users/${target.id}`, { token: a.manager.token, body: { role: 'user' } });
      expect(manager.status).toBe(403);
      expect(manager.body.error).toBe('Managers cannot change roles');
      expect((await call('PUT', `/users/${target.id}`, { token: a.employee.token, body: { role: 'user' } })).status).toBe(403);
      expect((await call('PUT', `/users/${root.id}`, { token: root.token, body: { role: 'admin' } })).status).toBe(403);
      expect((await call('PUT', `/users/${target.id}`, { token: a.admin.token, body: { role: 'superuser' } })).status).toBe(400);
      expect(await databaseFingerprint(t.db)).toBe(before);

      expect((await call('GET', '/users', { token: target.token })).status).toBe(200);
      const promoted = await call('PUT', `/users/${target.id}`, { token: a.admin.token, body: { role: 'manager' } });
      expect(promoted.status).toBe(200);
      expect(promoted.body.role).toBe('manager');
      const row = await t.db.selectFrom('users').select('token_version').where('id', '=', target.id).executeTakeFirstOrThrow();
      expect(row.token_version).toBe(1);
      expect((await call('GET', '/users', { token: target.token })).status).toBe(401);
      // global_admin may change company roles too.
      expect((await call('PUT', `/users/${target.id}`, { token: root.token, body: { role: 'employee' } })).body.role).toBe('employee');
    });
  });

  describe('DELETE /users/{id}', () => {
    it('deletes someone without history, archives someone appointments refer to', async () => {
      const plain = await call('POST', '/users/customer', { token: a.admin.token, body: { name: 'Never booked', email: uniqueEmail() } });
      expect((await call('DELETE', `/users/${plain.body.id}`, { token: a.admin.token })).status).toBe(204);
      expect(await t.db.selectFrom('users').select('id').where('id', '=', plain.body.id).executeTakeFirst()).toBeUndefined();

      const worker = await insertPerson(t, a.companyId, 'employee', 'Archived Worker');
      const client = await insertPerson(t, a.companyId, 'customer', 'Archived Client');
      await appointmentFor(a.companyId, { user_id: client.id, employee_id: worker.id });
      for (const p of [worker, client]) {
        const res = await call('DELETE', `/users/${p.id}`, { token: a.manager.token });
        expect(res.status).toBe(204);
        expect(res.text).toBe('');
        const row = await t.db.selectFrom('users').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow();
        expect(row.archived_at).not.toBeNull();
        expect(row.password_hash).toBeNull();
        expect((await call('GET', `/users/${p.id}`, { token: a.admin.token })).status).toBe(404);
        expect((await call('GET', '/users/' + p.id, { token: p.token })).status).toBe(401);
        expect((await call('DELETE', `/users/${p.id}`, { token: a.admin.token })).status).toBe(404);
      }
      const list = await call('GET', '/users', { token: a.admin.token });
      expect(list.body.some((u: any) => u.id === worker.id || u.id === client.id)).toBe(false);
      const appt = await t.db
        .selectFrom('appointments')
        .select(['user_id', 'employee_id'])
        .where('user_id', '=', client.id)
        .executeTakeFirstOrThrow();
      expect(appt).toEqual({ user_id: client.id, employee_id: worker.id });
    });

    it('brings an archived person back as the same record when they are added again', async () => {
      const email = uniqueEmail('returning');
      const first = await call('POST', '/users/employee', { token: a.admin.token, body: { name: 'Returning', email } });
      await appointmentFor(a.companyId, { employee_id: first.body.id });
      expect((await call('DELETE', `/users/${first.body.id}`, { token: a.admin.token })).status).toBe(204);
      const again = await call('POST', '/users/customer', { token: a.admin.token, body: { name: 'Returning As Customer', email } });
      expect(again.status).toBe(201);
      expect(again.body).toMatchObject({ id: first.body.id, role: 'customer', name: 'Returning As Customer' });
      expect((await call('GET', `/users/${first.body.id}`, { token: a.admin.token })).status).toBe(200);
    });

    it('refuses to delete oneself, managers deleting admins or managers, and staff without rights', async () => {
      const before = await databaseFingerprint(t.db);
      const self = await call('DELETE', `/users/${a.admin.id}`, { token: a.admin.token });
      expect(self.status).toBe(403);
      expect(self.body.error).toBe('You cannot delete your own account');
      expect((await call('DELETE', `/users/${root.id}`, { token: root.token })).status).toBe(403);
      expect((await call('DELETE', `/users/${a.admin.id}`, { token: a.manager.token })).status).toBe(403);
      for (const who of [a.employee, a.user, a.customer]) {
        expect((await call('DELETE', `/users/${a.customer.id}`, { token: who.token })).status).toBe(403);
      }
      expect(await databaseFingerprint(t.db)).toBe(before);
    });
  });

  describe('Free Trial staff limit', () => {
    it('allows 10 staff (owner included), refuses the 11th with plan_limit, also by promotion; paid plans have no limit', async () => {
      const owner = await registerCompany(t, { company_name: 'Trial Co' });
      const add = (role = 'employee') =>
        call('POST', '/users/employee', { token: owner.token, body: { name: 'Staff', email: uniqueEmail('staff'), role } });
      for (let i = 0; i < 9; i++) expect((await add(i % 2 ? 'user' : 'employee')).status).toBe(201);
      const customer = await call('POST', '/users/customer', { token: owner.token, body: { name: 'Still fine', email: uniqueEmail() } });
      expect(customer.status).toBe(201);
      const before = await databaseFingerprint(t.db);
      const eleventh = await add('manager');
      expect(eleventh.status).toBe(403);
      expect(eleventh.body.code).toBe('plan_limit');
      expect(eleventh.body.error).toMatch(/Free Trial includes up to 10 staff members/);
      const viaUsers = await call('POST', '/users', { token: owner.token, body: { name: 'X', email: uniqueEmail(), role: 'admin' } });
      expect(viaUsers.body.code).toBe('plan_limit');
      const promote = await call('PUT', `/users/${customer.body.id}`, { token: owner.token, body: { role: 'employee' } });
      expect(promote.status).toBe(403);
      expect(promote.body.code).toBe('plan_limit');
      expect(await databaseFingerprint(t.db)).toBe(before);

      // Removing a staff member frees a place.
      const staff = await call('GET', '/users?role=employee', { token: owner.token });
      expect((await call('DELETE', `/users/${staff.body[0].id}`, { token: owner.token })).status).toBe(204);
      expect((await call('PUT', `/users/${customer.body.id}`, { token: owner.token, body: { role: 'employee' } })).status).toBe(200);
      expect((await add()).status).toBe(403);

      await t.db.updateTable('companies').set({ subscription_plan: 'standard' }).where('id', '=', owner.companyId).execute();
      expect((await add()).status).toBe(201);
      expect((await add('admin')).status).toBe(201);
    });

    it('lets exactly one of several simultaneous additions take the last place', async () => {
      const owner = await registerCompany(t, { company_name: 'Race Co' });
      for (let i = 0; i < 8; i++) {
        await call('POST', '/users/employee', { token: owner.token, body: { name: 'Staff', email: uniqueEmail('race') } });
      }
      const results = await Promise.all(
        [0, 1, 2, 3].map(() =>
          call('POST', '/users/employee', { token: owner.token, body: { name: 'Racer', email: uniqueEmail('racer') } }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 403, 403, 403]);
      const staff = await t.db
        .selectFrom('users')
        .select('id')
        .where('company_id', '=', owner.companyId)
        .where('role', '!=', 'customer')
        .execute();
      expect(staff).toHaveLength(10);
    });
  });

  describe('GET /employees (public)', () => {
    it('lists id and name of every current staff member whatever their role, and nothing else', async () => {
      const res = await call('GET', `/employees?company_id=${b.companyId}&role=employee`);
      expect(res.status).toBe(200);
      const rows = await t.db
        .selectFrom('users')
        .select(['id', 'name'])
        .where('company_id', '=', b.companyId)
        .where('role', '!=', 'customer')
        .where('archived_at', 'is', null)
        .orderBy('name')
        .orderBy('id')
        .execute();
      expect(res.body).toEqual(rows);
      for (const item of res.body) expect(Object.keys(item).sort()).toEqual(['id', 'name']);
      expect(res.body.some((u: any) => u.id === b.customer.id)).toBe(false);
      expect(res.body.some((u: any) => u.id === b.admin.id)).toBe(true);
      expect((await call('GET', `/employees?company_id=${b.companyId}`, { token: 'stale-or-bad' })).status).toBe(200);
      expect((await call('GET', '/employees?company_id=2000000000')).status).toBe(404);
      for (const bad of ['', 'abc', '0', '-1', '1.5', '99999999999']) {
        expect((await call('GET', `/employees?company_id=${bad}`)).status, bad).toBe(400);
      }
    });
  });

  describe('bad input', () => {
    it('answers 400 to malformed JSON, wrong types, absurd ids and oversized strings, writing nothing', async () => {
      const before = await databaseFingerprint(t.db);
      const token = a.admin.token;
      const malformed = await call('POST', '/users/employee', { token, raw: '{"name": "x", ' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toMatch(/JSON/);
      for (const body of [
        [1, 2, 3],
        'text',
        null,
        {},
        { name: 42, email: uniqueEmail() },
        { name: 'X', email: 'not-an-email' },
        { name: 'X', email: uniqueEmail(), role: 'superuser' },
        { name: 'X', email: uniqueEmail(), phone: 'call me maybe' },
        { name: 'X', email: uniqueEmail(), phone: 5551234 },
        { name: 'X', email: uniqueEmail(), company_id: 'abc' },
        { name: 'X', email: uniqueEmail(), company_id: true },
        { name: 'X', email: uniqueEmail(), company_id: 1.5 },
        { name: 'X', email: uniqueEmail(), company_id: -1 },
        { name: 'n'.repeat(5000), email: uniqueEmail() },
        { name: 'X', email: `${'e'.repeat(300)}@example.test` },
        { name: '   ', email: uniqueEmail() },
      ]) {
        const res = await call('POST', '/users/employee', { token, body });
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body.code).toBe('validation');
      }
      for (const id of ['0', '-1', '1.5', 'abc', '99999999999', '%20']) {
        for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
          const res = await call(method, `/users/${id}`, { token, body: method.startsWith('P') ? { name: 'X' } : undefined });
          expect(res.status, `${method} ${id}`).toBe(400);
        }
      }
      for (const body of [{ name: '' }, { name: 7 }, { phone: ['x'] }, { email: 'x' }, { role: 'owner' }]) {
        expect((await call('PUT', `/users/${a.employee.id}`, { token, body })).status, JSON.stringify(body)).toBe(400);
      }
      expect((await call('PUT', `/users/${a.employee.id}`, { token, raw: '{"name":' })).status).toBe(400);
      for (const qs of ['company_id=abc', 'company_id=0', 'role=superuser', `search=${'s'.repeat(500)}`]) {
        expect((await call('GET', `/users?${qs}`, { token })).status, qs).toBe(400);
      }
      expect(await databaseFingerprint(t.db)).toBe(before);
      expect((await call('GET', '/health')).body).toMatchObject({ status: 'ok', db: 'ok' });
    });

    it('stores and returns injection-looking text literally', async () => {
      const name = "Robert'); DROP TABLE users; -- <script>alert(1)</script>";
      const res = await call('POST', '/users/customer', { token: a.admin.token, body: { name, email: uniqueEmail() } });
      expect(res.status).toBe(201);
      expect(res.body.name).toBe(name);
      const edited = await call('PUT', `/users/${res.body.id}`, { token: a.admin.token, body: { name: "'; drop table users; --" } });
      expect(edited.body.name).toBe("'; drop table users; --");
      const found = await call('GET', `/users?search=${encodeURIComponent("'; drop")}`, { token: a.admin.token });
      expect(found.body.map((u: any) => u.id)).toEqual([res.body.id]);
      expect((await call('GET', `/users/${res.body.id}`, { token: a.admin.token })).body.name).toBe("'; drop table users; --");
      expect(await t.db.selectFrom('users').select('id').where('id', '=', a.admin.id).executeTakeFirst()).toBeDefined();
    });
  });

  it('never answered with a password hash, token version or Stripe id', () => {
    expect(bodies.length).toBeGreaterThan(100);
    expect(bodies.filter((b) => SECRET_FIELDS.test(b))).toEqual([]);
  });
});
