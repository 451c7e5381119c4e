// The permission matrix: every route of the API crossed with every kind of caller. Allowed cells send
// a valid request and must answer the expected 2xx and change the database (writes); denied cells
// must answer the exact status and change nothing. A route without an entry fails the suite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { testDialects } from '@bookwell/db/testing';
import { hashPassword, issueToken } from './lib/auth.ts';
import { uniqueEmail, startTestServer, type TestServer } from './testing/harness.ts';
import { addGlobalAdmin, addPerson, companyWithPeople, type TestCompany, type TestPerson } from './testing/company-people.ts';
import { bookableCompany, customerContact, type BookableCompany } from './testing/booking-fixtures.ts';
import { databaseFingerprint } from './testing/fingerprint.ts';
import { appointmentRow } from './testing/rows.ts';
import { manageLinkKey, manageToken, manageTokenHash, newManageNonce } from './lib/manage-token.ts';

const ACTORS = ['anonymous', 'customer', 'employee', 'user', 'manager', 'admin', 'other_admin', 'global_admin'] as const;
type Actor = (typeof ACTORS)[number];
type Expectation = Record<Actor, number>;

/** Statuses in ACTORS order: anonymous, customer, employee, user, manager, admin, other_admin, global_admin. */
function m(...s: [number, number, number, number, number, number, number, number]): Expectation {
  return Object.fromEntries(ACTORS.map((a, i) => [a, s[i]])) as Expectation;
}
const everyone = (s: number) => m(s, s, s, s, s, s, s, s);
/** Company admins (admin, manager) and global_admin on company A's resource. */
const companyAdmins = (ok: number) => m(401, 403, 403, 403, ok, ok, 404, ok);
const globalOnly = (ok: number) => m(401, 403, 403, 403, 403, 403, 403, ok);
const signedIn = (ok: number) => m(401, ok, ok, ok, ok, ok, ok, ok);

interface World {
  t: TestServer;
  a: BookableCompany;
  b: TestCompany;
  global: TestPerson;
  day: number;
}

interface Cell {
  path: string;
  body?: unknown;
  /** Replaces the actor's token (for calls that need a throwaway account). */
  token?: string | null;
}

interface Entry {
  expect: Expectation;
  /** False for calls that are allowed but change nothing (reads, login). */
  writes?: boolean;
  cell(w: World, actor: Actor): Promise<Cell> | Cell;
}

function tokenOf(w: World, actor: Actor): string | null {
  switch (actor) {
    case 'anonymous':
      return null;
    case 'other_admin':
      return w.b.admin.token;
    case 'global_admin':
      return w.global.token;
    default:
      return w.a[actor].token;
  }
}

async function insertPerson(w: World, role: 'employee' | 'customer', companyId = w.a.companyId) {
  return addPerson(w.t, companyId, role, `Fresh ${role}`);
}

async function insertAppointment(w: World, customerId: number) {
  const start = DateTime.utc()
    .plus({ days: 40 + w.day++ })
    .set({ hour: 10, minute: 0, second: 0, millisecond: 0 });
  const iso = new Date().toISOString();
  const row = await w.t.db
    .insertInto('appointments')
    .values(
      appointmentRow({
        company_id: w.a.companyId,
        user_id: customerId,
        start_time: start.toISO()!,
        end_time: start.plus({ minutes: 30 }).toISO()!,
        created_at: iso,
        updated_at: iso,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  await w.t.db.insertInto('appointment_service_types').values({ appointment_id: row.id, service_type_id: w.a.serviceId }).execute();
  return row.id;
}

/** A future appointment's self-service link token (docs/decisions/23-self-service.md). */
async function selfServiceToken(w: World): Promise<string> {
  const id = await insertAppointment(w, w.a.customer.id);
  const nonce = newManageNonce();
  const token = manageToken(manageLinkKey(w.t.server.deps.jwtKey), nonce);
  await w.t.db
    .updateTable('appointments')
    .set({ manage_nonce: nonce, manage_token_hash: manageTokenHash(token) })
    .where('id', '=', id)
    .execute();
  return token;
}

/** A message of company A that could not be delivered: the one thing the admins' retry accepts. */
async function deadMessage(w: World): Promise<number> {
  const at = new Date().toISOString();
  const row = await w.t.db
    .insertInto('outbox_messages')
    .values({
      ...{ company_id: w.a.companyId, channel: 'email', kind: 'confirmation', to_address: 'gone@example.test', body_text: 'x' },
      ...{ message_id: `<${at}.${w.day++}@matrix.test>`, state: 'dead', attempts: 8, due_at: at, created_at: at, last_error: '550 gone' },
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function insertPersonalHours(w: World) {
  const person = await insertPerson(w, 'employee');
  const row = await w.t.db
    .insertInto('operating_hours')
    .values({
      company_id: w.a.companyId,
      user_id: person.id,
      day_of_week: 2,
      open_time: '10:00:00',
      close_time: '15:00:00',
      is_closed: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function newCatalogueDuration(w: World) {
  const minutes = 200 + w.day++;
  const row = await w.t.db
    .insertInto('appointment_duration_options')
    .values({ duration_minutes: minutes })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, minutes };
}

async function offeredDuration(w: World) {
  const opt = await newCatalogueDuration(w);
  const row = await w.t.db
    .insertInto('company_duration_options')
    .values({ company_id: w.a.companyId, appointment_duration_option_id: opt.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A free offered slot on a fresh day for public/customer bookings. */
async function freeSlot(w: World): Promise<string> {
  for (;;) {
    const date = DateTime.now()
      .setZone(w.a.timezone)
      .plus({ days: 2 + (w.day++ % 25) })
      .toISODate()!;
    const res = await w.t.call(
      'GET',
      `/appointments/available-slots?company_id=${w.a.companyId}&service_type_id=${w.a.serviceId}&date=${date}`,
    );
    if (res.status === 200 && res.body.slots.length) return res.body.slots[Math.floor(Math.random() * res.body.slots.length)].start;
  }
}

const A = (w: World) => w.a.companyId;

const MATRIX: Record<string, Entry> = {
  'GET /health': { expect: everyone(200), cell: () => ({ path: '/health' }) },
  'GET /reminder-channels': { expect: everyone(200), cell: () => ({ path: '/reminder-channels' }) },
  'POST /register': {
    expect: everyone(200),
    cell: () => ({
      path: '/register',
      body: { name: 'New Owner', email: uniqueEmail('reg'), password: 'secret123', company_name: 'Fresh Co' },
    }),
  },
  'POST /login': {
    expect: everyone(200),
    writes: false,
    cell: async (w) => {
      const email = uniqueEmail('login');
      await w.t.db
        .insertInto('users')
        .values({
          company_id: A(w),
          name: 'L',
          email,
          phone: null,
          role: 'employee',
          password_hash: await hashPassword('secret123'),
          token_version: 0,
          archived_at: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();
      return { path: '/login', body: { email, password: 'secret123' } };
    },
  },
  'GET /me': { expect: signedIn(200), cell: () => ({ path: '/me' }) },
  'POST /me/change-password': {
    expect: signedIn(200),
    cell: async (w, actor) => {
      if (actor === 'anonymous') return { path: '/me/change-password', body: { current_password: 'secret123', new_password: 'secret456' } };
      // A throwaway account of the same role, so later cells keep their tokens.
      const role = actor === 'other_admin' ? 'admin' : actor;
      const companyId = actor === 'global_admin' ? null : actor === 'other_admin' ? w.b.companyId : A(w);
      const user = await w.t.db
        .insertInto('users')
        .values({
          company_id: companyId,
          name: 'P',
          email: uniqueEmail('pw'),
          phone: null,
          role,
          password_hash: await hashPassword('secret123'),
          token_version: 0,
          archived_at: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return {
        path: '/me/change-password',
        body: { current_password: 'secret123', new_password: 'secret456' },
        token: await issueToken(w.t.server.deps.jwtKey, user),
      };
    },
  },
  'POST /password-reset/request': {
    expect: everyone(200),
    cell: async (w) => {
      const email = uniqueEmail('reset');
      await w.t.db
        .insertInto('users')
        .values({
          company_id: A(w),
          name: 'R',
          email,
          phone: null,
          role: 'employee',
          password_hash: 'x',
          token_version: 0,
          archived_at: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();
      return { path: '/password-reset/request', body: { email_or_username: email } };
    },
  },
  'GET /password-reset/validate': {
    expect: everyone(400),
    writes: false,
    cell: () => ({ path: '/password-reset/validate?token=not-a-real-token' }),
  },
  'POST /password-reset/confirm': {
    expect: everyone(400),
    cell: () => ({ path: '/password-reset/confirm', body: { token: 'not-a-real-token', new_password: 'secret123' } }),
  },

  'GET /users': { expect: m(401, 403, 200, 200, 200, 200, 200, 200), cell: () => ({ path: '/users' }) },
  'POST /users': {
    expect: companyAdmins(201),
    cell: (w) => ({ path: '/users', body: { name: 'Made By Post', email: uniqueEmail('post'), role: 'employee', company_id: A(w) } }),
  },
  'POST /users/employee': {
    expect: companyAdmins(201),
    cell: (w) => ({
      path: '/users/employee',
      body: { name: 'New Employee', email: uniqueEmail('emp'), role: 'employee', company_id: A(w) },
    }),
  },
  'POST /users/customer': {
    expect: companyAdmins(201),
    cell: (w) => ({ path: '/users/customer', body: { name: 'New Customer', email: uniqueEmail('cust'), company_id: A(w) } }),
  },
  'GET /users/{id}': { expect: m(401, 404, 200, 200, 200, 200, 404, 200), cell: (w) => ({ path: `/users/${w.a.employee.id}` }) },
  'PUT /users/{id}': {
    expect: m(401, 404, 403, 403, 200, 200, 404, 200),
    cell: async (w) => ({ path: `/users/${(await insertPerson(w, 'employee')).id}`, body: { name: 'Renamed Person' } }),
  },
  'PATCH /users/{id}': {
    expect: m(401, 404, 403, 403, 200, 200, 404, 200),
    cell: async (w) => ({ path: `/users/${(await insertPerson(w, 'employee')).id}`, body: { phone: '+1 415 555 0101' } }),
  },
  'POST /users/{id}/invitation': {
    expect: companyAdmins(200),
    cell: async (w) => {
      const person = await insertPerson(w, 'employee');
      await w.t.db.updateTable('users').set({ password_hash: null }).where('id', '=', person.id).execute();
      return { path: `/users/${person.id}/invitation` };
    },
  },
  'DELETE /users/{id}': { expect: companyAdmins(204), cell: async (w) => ({ path: `/users/${(await insertPerson(w, 'customer')).id}` }) },
  // Privacy (docs/decisions/32-privacy-and-operations.md): the person themselves or an admin of their company; erase also global_admin.
  'GET /users/{id}/export': {
    expect: m(401, 200, 403, 403, 403, 200, 404, 403),
    writes: false,
    cell: (w) => ({ path: `/users/${w.a.customer.id}/export` }),
  },
  'POST /users/{id}/erase': {
    expect: m(401, 200, 403, 403, 403, 200, 404, 200),
    cell: async (w, actor) => {
      const fresh = await insertPerson(w, 'customer');
      return { path: `/users/${fresh.id}/erase`, ...(actor === 'customer' ? { token: fresh.token } : {}) };
    },
  },
  // Readiness for load balancers; metrics answer 404 while METRICS_TOKEN is unset (as here).
  'GET /ready': { expect: everyone(200), writes: false, cell: () => ({ path: '/ready' }) },
  'GET /metrics': { expect: everyone(404), writes: false, cell: () => ({ path: '/metrics' }) },
  'GET /employees': { expect: everyone(200), cell: (w) => ({ path: `/employees?company_id=${A(w)}&role=employee` }) },

  'GET /companies': { expect: everyone(200), cell: () => ({ path: '/companies' }) },
  'POST /companies': {
    expect: globalOnly(201),
    cell: () => ({ path: '/companies', body: { name: 'Created By Admin', email: uniqueEmail('co') } }),
  },
  'GET /companies/{id}': { expect: everyone(200), cell: (w) => ({ path: `/companies/${A(w)}` }) },
  'PUT /companies/{id}': { expect: companyAdmins(200), cell: (w) => ({ path: `/companies/${A(w)}`, body: { name: `Alpha ${w.day++}` } }) },
  'PATCH /companies/{id}': {
    expect: companyAdmins(200),
    cell: (w) => ({ path: `/companies/${A(w)}`, body: { logo_url: `https://example.com/logo-${w.day++}.png` } }),
  },
  'DELETE /companies/{id}': {
    // Another company's admin: 404, as for any other company's resource (docs/decisions/03-tenancy-and-roles.md).
    expect: m(401, 403, 403, 403, 403, 403, 404, 204),
    cell: async (w, actor) => {
      // The doomed company holds the caller: even its own admin may not delete it.
      const doomed = await companyWithPeople(w.t, 'Doomed Co');
      const people: Partial<Record<Actor, TestPerson>> = {
        customer: doomed.customer,
        employee: doomed.employee,
        user: doomed.user,
        manager: doomed.manager,
        admin: doomed.admin,
      };
      return { path: `/companies/${doomed.companyId}`, token: people[actor]?.token ?? tokenOf(w, actor) };
    },
  },
  'GET /companies/slug/{slug}': {
    expect: everyone(200),
    cell: async (w) => ({
      path: `/companies/slug/${(await w.t.db.selectFrom('companies').select('slug').where('id', '=', A(w)).executeTakeFirstOrThrow()).slug}`,
    }),
  },

  'GET /admin/stats': { expect: globalOnly(200), cell: () => ({ path: '/admin/stats' }) },
  'GET /admin/companies': { expect: globalOnly(200), cell: () => ({ path: '/admin/companies' }) },
  'PUT /admin/companies/{id}/subscription': {
    // Company B's: A's people get 404 whatever their role, B's own admin 403 (global_admin only).
    expect: m(401, 404, 404, 404, 404, 404, 403, 200),
    cell: (w) => ({
      path: `/admin/companies/${w.b.companyId}/subscription`,
      body: { subscription_expires_at: new Date(Date.now() + (50 + w.day++) * 86_400_000).toISOString() },
    }),
  },
  'GET /admin/users': { expect: globalOnly(200), cell: () => ({ path: '/admin/users' }) },
  'GET /admin/users/export': { expect: globalOnly(200), cell: () => ({ path: '/admin/users/export?format=json' }) },

  'GET /service-types': { expect: everyone(200), cell: (w) => ({ path: `/service-types?company_id=${A(w)}` }) },
  'POST /service-types': {
    expect: companyAdmins(201),
    cell: (w) => ({ path: '/service-types', body: { name: 'Massage', duration_minutes: 45, company_id: A(w) } }),
  },
  'GET /service-types/{id}': { expect: everyone(200), cell: (w) => ({ path: `/service-types/${w.a.serviceId}` }) },
  'PUT /service-types/{id}': {
    expect: companyAdmins(200),
    cell: (w) => ({ path: `/service-types/${w.a.serviceId}`, body: { price: 10 + w.day++ } }),
  },
  'PATCH /service-types/{id}': {
    expect: companyAdmins(200),
    cell: (w) => ({ path: `/service-types/${w.a.serviceId}`, body: { name: `Haircut ${w.day++}` } }),
  },
  'DELETE /service-types/{id}': {
    expect: companyAdmins(204),
    cell: async (w) => {
      const row = await w.t.db
        .insertInto('service_types')
        .values({
          company_id: A(w),
          name: 'Temp',
          duration_minutes: 30,
          price: null,
          hide_price: 0,
          available_slots: 1,
          archived_at: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { path: `/service-types/${row.id}` };
    },
  },

  'GET /operating-hours': { expect: everyone(200), cell: (w) => ({ path: `/operating-hours?company_id=${A(w)}` }) },
  'POST /operating-hours': {
    expect: companyAdmins(200),
    cell: (w) => ({
      path: '/operating-hours',
      body: { company_id: A(w), day_of_week: 3, open_time: `0${(w.day++ % 3) + 6}:00`, close_time: '21:00' },
    }),
  },
  'GET /operating-hours/{id}': { expect: everyone(200), cell: async (w) => ({ path: `/operating-hours/${await insertPersonalHours(w)}` }) },
  'PUT /operating-hours/{id}': {
    expect: companyAdmins(200),
    cell: async (w) => ({ path: `/operating-hours/${await insertPersonalHours(w)}`, body: { close_time: '16:00' } }),
  },
  'PATCH /operating-hours/{id}': {
    expect: companyAdmins(200),
    cell: async (w) => ({ path: `/operating-hours/${await insertPersonalHours(w)}`, body: { open_time: '09:00' } }),
  },
  'DELETE /operating-hours/{id}': {
    expect: companyAdmins(204),
    cell: async (w) => ({ path: `/operating-hours/${await insertPersonalHours(w)}` }),
  },

  'GET /date-overrides': {
    expect: everyone(200),
    cell: (w) => ({ path: `/date-overrides?company_id=${A(w)}&from=2030-01-01&to=2030-12-31` }),
  },
  'POST /date-overrides': {
    expect: companyAdmins(201),
    cell: (w) => ({
      path: '/date-overrides',
      body: {
        company_id: A(w),
        date: DateTime.fromISO('2030-01-01').plus({ days: w.day++ }).toISODate(),
        is_closed: true,
        note: 'Holiday',
      },
    }),
  },
  'DELETE /date-overrides/{id}': {
    expect: companyAdmins(204),
    cell: async (w) => {
      const row = await w.t.db
        .insertInto('date_overrides')
        .values({
          company_id: A(w),
          user_id: null,
          date: DateTime.fromISO('2031-01-01').plus({ days: w.day++ }).toISODate()!,
          is_closed: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { path: `/date-overrides/${row.id}` };
    },
  },

  'GET /time-slots': { expect: everyone(200), cell: () => ({ path: '/time-slots' }) },
  'GET /time-slots/{id}': { expect: everyone(200), cell: () => ({ path: '/time-slots/1' }) },

  'GET /appointment-duration-options': { expect: everyone(200), cell: () => ({ path: '/appointment-duration-options' }) },
  'POST /appointment-duration-options': {
    expect: globalOnly(201),
    cell: (w) => ({ path: '/appointment-duration-options', body: { duration_minutes: 500 + w.day++ } }),
  },
  'GET /appointment-duration-options/{id}': { expect: everyone(200), cell: () => ({ path: '/appointment-duration-options/1' }) },
  'PUT /appointment-duration-options/{id}': {
    expect: globalOnly(200),
    cell: async (w) => {
      const o = await newCatalogueDuration(w);
      return { path: `/appointment-duration-options/${o.id}`, body: { duration_minutes: o.minutes + 1000 } };
    },
  },
  'PATCH /appointment-duration-options/{id}': {
    expect: globalOnly(200),
    cell: async (w) => {
      const o = await newCatalogueDuration(w);
      return { path: `/appointment-duration-options/${o.id}`, body: { duration_minutes: o.minutes + 1100 } };
    },
  },
  'DELETE /appointment-duration-options/{id}': {
    expect: globalOnly(204),
    cell: async (w) => ({ path: `/appointment-duration-options/${(await newCatalogueDuration(w)).id}` }),
  },

  'GET /company-duration-options': { expect: everyone(200), cell: (w) => ({ path: `/company-duration-options?company_id=${A(w)}` }) },
  'POST /company-duration-options': {
    expect: companyAdmins(201),
    cell: async (w) => ({
      path: '/company-duration-options',
      body: { company_id: A(w), appointment_duration_option_id: (await newCatalogueDuration(w)).id },
    }),
  },
  'GET /company-duration-options/{id}': {
    expect: everyone(200),
    cell: async (w) => ({ path: `/company-duration-options/${await offeredDuration(w)}` }),
  },
  'PUT /company-duration-options/{id}': {
    expect: companyAdmins(200),
    cell: async (w) => ({
      path: `/company-duration-options/${await offeredDuration(w)}`,
      body: { appointment_duration_option_id: (await newCatalogueDuration(w)).id },
    }),
  },
  'PATCH /company-duration-options/{id}': {
    expect: companyAdmins(200),
    cell: async (w) => ({
      path: `/company-duration-options/${await offeredDuration(w)}`,
      body: { appointment_duration_option_id: (await newCatalogueDuration(w)).id },
    }),
  },
  'DELETE /company-duration-options/{id}': {
    expect: companyAdmins(204),
    cell: async (w) => ({ path: `/company-duration-options/${await offeredDuration(w)}` }),
  },

  'GET /company-duration-defaults': { expect: everyone(200), cell: (w) => ({ path: `/company-duration-defaults?company_id=${A(w)}` }) },
  'POST /company-duration-defaults': {
    expect: companyAdmins(200),
    cell: (w) => ({
      path: '/company-duration-defaults',
      body: { company_id: A(w), default_appointment_duration: [15, 45, 60][w.day++ % 3] },
    }),
  },
  'GET /company-duration-defaults/{id}': {
    expect: everyone(200),
    cell: async (w) => ({ path: `/company-duration-defaults/${await ensureDefault(w)}` }),
  },
  'PUT /company-duration-defaults/{id}': {
    expect: companyAdmins(200),
    cell: async (w) => ({ path: `/company-duration-defaults/${await ensureDefault(w, 30)}`, body: { default_appointment_duration: 15 } }),
  },
  'PATCH /company-duration-defaults/{id}': {
    expect: companyAdmins(200),
    cell: async (w) => ({ path: `/company-duration-defaults/${await ensureDefault(w, 15)}`, body: { default_appointment_duration: 30 } }),
  },
  'DELETE /company-duration-defaults/{id}': {
    expect: companyAdmins(204),
    cell: async (w) => ({ path: `/company-duration-defaults/${await ensureDefault(w)}` }),
  },
  'GET /company-duration-defaults/company/{companyId}': {
    expect: everyone(200),
    cell: async (w) => {
      await ensureDefault(w);
      return { path: `/company-duration-defaults/company/${A(w)}` };
    },
  },

  'GET /appointments/available-slots': {
    expect: everyone(200),
    cell: (w) => ({
      path: `/appointments/available-slots?company_id=${A(w)}&service_type_id=${w.a.serviceId}&date=${DateTime.now().setZone(w.a.timezone).plus({ days: 3 }).toISODate()}`,
    }),
  },
  'GET /appointments/available-dates': {
    expect: everyone(200),
    cell: (w) => ({ path: `/appointments/available-dates?company_id=${A(w)}&service_type_id=${w.a.serviceId}` }),
  },
  'POST /appointments': {
    // Anyone may book a free offered slot at a company that takes bookings.
    expect: everyone(201),
    cell: async (w, actor) => {
      const start = await freeSlot(w);
      const staff = ['employee', 'user', 'manager', 'admin', 'global_admin'].includes(actor);
      return {
        path: '/appointments',
        body: staff
          ? {
              company_id: A(w),
              user_id: w.a.customer.id,
              service_type_ids: [w.a.serviceId],
              start_time: start,
              end_time: DateTime.fromISO(start).plus({ minutes: 30 }).toUTC().toISO(),
            }
          : { company_id: A(w), service_type_ids: [w.a.serviceId], start_time: start, customer: customerContact() },
      };
    },
  },
  'GET /appointments': { expect: m(401, 200, 200, 200, 200, 200, 404, 200), cell: (w) => ({ path: `/appointments?company_id=${A(w)}` }) },
  'GET /appointments/{id}': {
    expect: m(401, 200, 200, 200, 200, 200, 404, 200),
    cell: async (w) => ({ path: `/appointments/${await insertAppointment(w, w.a.customer.id)}` }),
  },
  'PUT /appointments/{id}': {
    expect: m(401, 200, 200, 200, 200, 200, 404, 200),
    cell: async (w) => ({ path: `/appointments/${await insertAppointment(w, w.a.customer.id)}`, body: { status: 'cancelled' } }),
  },
  'PATCH /appointments/{id}': {
    expect: m(401, 200, 200, 200, 200, 200, 404, 200),
    cell: async (w) => ({ path: `/appointments/${await insertAppointment(w, w.a.customer.id)}`, body: { status: 'cancelled' } }),
  },
  'DELETE /appointments/{id}': {
    expect: m(401, 403, 204, 204, 204, 204, 404, 204),
    cell: async (w) => ({ path: `/appointments/${await insertAppointment(w, w.a.customer.id)}` }),
  },
  'GET /sync/appointments': {
    expect: m(401, 403, 200, 200, 200, 200, 404, 200),
    cell: (w) => ({ path: `/sync/appointments?company_id=${A(w)}` }),
  },
  // Audit log (docs/decisions/31-audit-log.md): a company's admins (not managers) their company's, global_admin any.
  'GET /audit-log': {
    expect: m(401, 403, 403, 403, 403, 200, 404, 200),
    writes: false,
    cell: (w) => ({ path: `/audit-log?company_id=${A(w)}` }),
  },
  // Calendar feeds (docs/decisions/24-calendar-feeds.md): a staff member's own, the company's for its admins.
  'GET /calendar/{token}': {
    expect: everyone(200),
    cell: async (w) => ({ path: new URL((await w.t.call('GET', '/me/calendar-feed', { token: w.a.employee.token })).body.url).pathname }),
  },
  'GET /me/calendar-feed': {
    expect: m(401, 403, 200, 200, 200, 200, 200, 403),
    writes: false,
    cell: () => ({ path: '/me/calendar-feed' }),
  },
  'POST /me/calendar-feed': { expect: m(401, 403, 200, 200, 200, 200, 200, 403), cell: () => ({ path: '/me/calendar-feed' }) },
  'GET /companies/{id}/calendar-feed': {
    expect: companyAdmins(200),
    writes: false,
    cell: (w) => ({ path: `/companies/${A(w)}/calendar-feed` }),
  },
  'POST /companies/{id}/calendar-feed': { expect: companyAdmins(200), cell: (w) => ({ path: `/companies/${A(w)}/calendar-feed` }) },
  // The company's outbox for its admins (docs/decisions/22-messaging.md).
  'GET /companies/{id}/messages': { expect: companyAdmins(200), writes: false, cell: (w) => ({ path: `/companies/${A(w)}/messages` }) },
  'POST /companies/{id}/messages/{message_id}/retry': {
    expect: companyAdmins(200),
    cell: async (w) => ({ path: `/companies/${A(w)}/messages/${await deadMessage(w)}/retry` }),
  },
  // Self-service links (docs/decisions/09-customer-self-service.md): the token is the credential, a Bearer token changes nothing.
  'GET /manage/{token}': { expect: everyone(200), writes: false, cell: async (w) => ({ path: `/manage/${await selfServiceToken(w)}` }) },
  'POST /manage/{token}/cancel': { expect: everyone(200), cell: async (w) => ({ path: `/manage/${await selfServiceToken(w)}/cancel` }) },
  'POST /manage/{token}/reschedule': {
    expect: everyone(200),
    cell: async (w) => ({ path: `/manage/${await selfServiceToken(w)}/reschedule`, body: { start_time: await freeSlot(w) } }),
  },

  // This server has no Stripe configured: callers who pass the access rule get 503, and so nothing
  // may change for anyone (the billing tests cover the configured answers).
  'POST /create-checkout-session': {
    expect: m(401, 403, 403, 403, 403, 503, 404, 503),
    cell: (w) => ({ path: '/create-checkout-session', body: { company_id: A(w), product_id: 'standard' } }),
  },
  'POST /billing/portal': {
    expect: m(401, 403, 403, 403, 403, 503, 404, 503),
    cell: (w) => ({ path: '/billing/portal', body: { company_id: A(w) } }),
  },
  'POST /stripe/webhook': {
    expect: everyone(503),
    cell: () => ({ path: '/stripe/webhook', body: { id: 'evt_matrix', type: 'invoice.paid', data: { object: {} } } }),
  },
};

async function ensureDefault(w: World, minutes = 30): Promise<number> {
  const existing = await w.t.db.selectFrom('company_duration_defaults').select('id').where('company_id', '=', A(w)).executeTakeFirst();
  if (existing) {
    await w.t.db
      .updateTable('company_duration_defaults')
      .set({ default_appointment_duration: minutes })
      .where('id', '=', existing.id)
      .execute();
    return existing.id;
  }
  return (
    await w.t.db
      .insertInto('company_duration_defaults')
      .values({ company_id: A(w), default_appointment_duration: minutes })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

function documentedRoutes(doc: any): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const method of Object.keys(item)) out.push(`${method.toUpperCase()} ${path}`);
  return out.sort();
}

describe.each(testDialects())('permission matrix on %s', (dialect) => {
  let w: World;
  let doc: any;
  beforeAll(async () => {
    const t = await startTestServer(dialect);
    const a = await bookableCompany(t, { name: 'Alpha', capacity: 50 });
    // A paid plan, so the many staff created below do not meet the trial's limit.
    await t.db
      .updateTable('companies')
      .set({ subscription_plan: 'standard', subscription_expires_at: new Date(Date.now() + 365 * 86_400_000).toISOString() })
      .where('id', '=', a.companyId)
      .execute();
    w = { t, a, b: await companyWithPeople(t, 'Beta'), global: await addGlobalAdmin(t), day: 0 };
    doc = (await t.call('GET', '/openapi.json')).body;
  }, 60_000);
  afterAll(async () => w?.t.close());

  it('has an entry for every route the API documents (and none for routes that do not exist)', () => {
    expect(Object.keys(MATRIX).sort()).toEqual(documentedRoutes(doc));
  });

  it('gives each caller exactly the expected answer, and refused calls change nothing', async () => {
    const failures: string[] = [];
    for (const [route, entry] of Object.entries(MATRIX)) {
      const [method] = route.split(' ');
      const writes = entry.writes ?? method !== 'GET';
      for (const actor of ACTORS) {
        const cell = await entry.cell(w, actor);
        const token = cell.token !== undefined ? cell.token : tokenOf(w, actor);
        const before = writes ? await databaseFingerprint(w.t.db) : '';
        const res = await w.t.call(method, cell.path, { body: cell.body, token });
        const expected = entry.expect[actor];
        if (res.status !== expected) {
          failures.push(`${route} as ${actor}: expected ${expected}, got ${res.status} ${res.text.slice(0, 160)}`);
          continue;
        }
        if (!writes) continue;
        const changed = (await databaseFingerprint(w.t.db)) !== before;
        if (expected < 300 && !changed) failures.push(`${route} as ${actor}: answered ${expected} but changed nothing`);
        if (expected >= 400 && changed) failures.push(`${route} as ${actor}: refused with ${expected} but changed the database`);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
