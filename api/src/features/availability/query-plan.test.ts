// The time-bounded appointment queries read through the (company_id, start_time),
// (employee_id, start_time) and (service_type_id, start_time) indexes with both ends of start_time
// bounded, as the databases' own query planners report on tables with enough rows (and fresh
// statistics) that a full scan would be chosen if it were possible.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { appointmentRow, companyRow, serviceTypeRow, userRow } from '../../testing/rows.ts';
import { bookableCompany, customerContact } from '../../testing/booking-fixtures.ts';
import {
  busyAppointmentsQuery,
  employeeAppointmentsQuery,
  manyEmployeeAppointmentsQuery,
  manyServiceAndEmployeeAppointmentsQuery,
  ownAndOverlappingQuery,
  performersQuery,
  qualifiedAppointmentsQuery,
  qualifiedStaff,
  serviceAndEmployeeAppointmentsQuery,
  serviceBookingsQuery,
  startBound,
} from './availability.repository.ts';
import { appointmentListQuery } from '../appointments/appointment.repository.ts';
import { manyKeysQuery } from '../../lib/idempotency.ts';

const COMPANIES = 10;
const PER_COMPANY = 2000;

/** The database's own plan of a compiled query, as text (SQLite's details or PostgreSQL's lines). */
async function planOf(t: TestServer, compiled: CompiledQuery): Promise<string> {
  const prefix = t.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
  const res = await t.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(prefix + compiled.sql, [...compiled.parameters]));
  return res.rows.map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n');
}

describe.each(testDialects())('appointment query plans on %s', (dialect) => {
  let t: TestServer;
  const companyIds: number[] = [];
  const employeeIds: number[] = [];
  const serviceIds: number[] = [];

  beforeAll(async () => {
    // One connection on PostgreSQL: what it has prepared (pg_prepared_statements) is then the server's.
    t = await startTestServer(dialect, dialect === 'postgres' ? { connectOptions: { poolSize: 1 } } : {});
    const iso = new Date().toISOString();
    for (let c = 0; c < COMPANIES; c++) {
      const company = await t.db
        .insertInto('companies')
        .values(companyRow({ name: `Plan ${c}`, slug: `plan-${c}`, created_at: iso, updated_at: iso }))
        .returning('id')
        .executeTakeFirstOrThrow();
      companyIds.push(company.id);
      for (let k = 0; k < 3; k++) {
        const service = await t.db
          .insertInto('service_types')
          .values(serviceTypeRow({ company_id: company.id, name: `S${k}`, duration_minutes: 45, updated_at: iso }))
          .returning('id')
          .executeTakeFirstOrThrow();
        serviceIds.push(service.id);
      }
      for (let e = 0; e < 5; e++) {
        const user = await t.db
          .insertInto('users')
          .values(userRow({ company_id: company.id, name: `E${e}`, email: `e${e}.c${c}@plan.test`, updated_at: iso }))
          .returning('id')
          .executeTakeFirstOrThrow();
        employeeIds.push(user.id);
      }
    }
    // A year of appointments per company, spread over every day.
    const rows = [];
    for (let c = 0; c < COMPANIES; c++) {
      for (let i = 0; i < PER_COMPANY; i++) {
        const start = Date.parse('2026-01-01T08:00:00Z') + Math.floor((i * 365) / PER_COMPANY) * 86_400_000 + (i % 8) * 3600_000;
        rows.push(
          appointmentRow({
            company_id: companyIds[c],
            employee_id: employeeIds[c * 5 + (i % 5)],
            start_time: new Date(start).toISOString(),
            end_time: new Date(start + 45 * 60_000).toISOString(),
            created_at: iso,
            updated_at: iso,
          }),
        );
      }
    }
    for (let i = 0; i < rows.length; i += 1000) {
      const ids = await t.db
        .insertInto('appointments')
        .values(rows.slice(i, i + 1000))
        .returning(['id', 'company_id'])
        .execute();
      // Links written the way a seed would: triggers add their service bookings.
      await t.db
        .insertInto('appointment_service_types')
        .values(ids.map((r, k) => ({ appointment_id: r.id, service_type_id: serviceIds[companyIds.indexOf(r.company_id) * 3 + (k % 3)] })))
        .execute();
    }
    await sql`analyze`.execute(t.db);
  }, 120_000);
  afterAll(async () => t?.close());

  const plan = (compiled: CompiledQuery) => planOf(t, compiled);

  const dayStart = '2026-06-10T00:00:00.000Z';
  const dayEnd = '2026-06-11T00:00:00.000Z';

  it("keeps one service booking per service link, with its appointment's time and status", async () => {
    const links = await t.db
      .selectFrom('appointment_service_types')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const exact = await t.db
      .selectFrom('service_bookings as b')
      .innerJoin('appointment_service_types as s', (j) =>
        j.onRef('s.appointment_id', '=', 'b.appointment_id').onRef('s.service_type_id', '=', 'b.service_type_id'),
      )
      .innerJoin('appointments as a', 'a.id', 'b.appointment_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .whereRef('b.start_time', '=', 'a.start_time')
      .whereRef('b.end_time', '=', 'a.end_time')
      .whereRef('b.status', '=', 'a.status')
      .executeTakeFirstOrThrow();
    const all = await t.db
      .selectFrom('service_bookings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(links.n)).toBe(COMPANIES * PER_COMPANY);
    expect(Number(exact.n)).toBe(Number(links.n));
    expect(Number(all.n)).toBe(Number(links.n));
  });

  it('writes read one stretch of a company through (company_id, start_time), bounded at both ends', async () => {
    const text = await plan(
      busyAppointmentsQuery(t.db, { companyId: companyIds[3], startFrom: startBound(dayStart, 45), startBefore: dayEnd }).compile(),
    );
    if (dialect === 'sqlite') {
      expect(text).toMatch(/SEARCH a USING INDEX appointments_company_start_idx \(company_id=\? AND start_time>\? AND start_time<\?\)/);
      expect(text).not.toMatch(/SCAN a\b/);
    } else {
      expect(text).toMatch(
        /Index Scan using appointments_company_start_idx on appointments a\s.*\n\s*Index Cond: \(\(company_id = \d+\) AND \(start_time >= .+\) AND \(start_time < .+\)\)/,
      );
      expect(text).not.toMatch(/Seq Scan on appointments/);
    }
  });

  /** The service's bookings by (service_type_id, start_time), the employee's appointments by (employee_id, start_time), both bounded. */
  function expectServiceAndEmployeeIndexes(text: string) {
    if (dialect === 'sqlite') {
      expect(text).toMatch(
        /SEARCH s USING COVERING INDEX service_bookings_service_start_idx \(service_type_id=\? AND start_time>\? AND start_time<\?\)/,
      );
      // Covering: the appointment rows themselves are never read (docs/decisions/27-scheduling-rules.md, "Engine speed").
      expect(text).toMatch(
        /SEARCH a USING COVERING INDEX appointments_employee_start_idx \(employee_id=\? AND start_time>\? AND start_time<\?\)/,
      );
      expect(text).not.toMatch(/SCAN (a|s)\b/);
    } else {
      expect(text).toMatch(
        /Index (Only )?Scan using service_bookings_service_start_idx on service_bookings s\s.*\n\s*Index Cond: \(\(service_type_id = \d+\) AND \(start_time >= .+\) AND \(start_time < .+\)/,
      );
      expect(text).toMatch(
        /Index (Only )?Scan using appointments_employee_start_idx on appointments a\s.*\n\s*Index Cond: \(\(employee_id = \d+\) AND \(start_time >= .+\) AND \(start_time < .+\)\)/,
      );
      expect(text).not.toMatch(/Seq Scan on (appointments|service_bookings)/);
    }
  }

  it("slots read the service's bookings by (service_type_id, start_time) and the employee's appointments by (employee_id, start_time)", async () => {
    const range = { startFrom: startBound(dayStart, 45), startBefore: dayEnd };
    const text = [
      await plan(serviceBookingsQuery(t.db, { ...range, serviceTypeId: serviceIds[9] }, true).compile()),
      await plan(serviceBookingsQuery(t.db, { ...range, serviceTypeId: serviceIds[9] }, false).compile()),
      await plan(employeeAppointmentsQuery(t.db, { ...range, companyId: companyIds[3], employeeId: employeeIds[15] }).compile()),
    ].join('\n');
    expectServiceAndEmployeeIndexes(text);
  });

  it("the date picker's first read, the service's bookings and an employee's appointments in one statement, uses the same two indexes", async () => {
    const range = { startFrom: startBound('2026-06-01T00:00:00.000Z', 45), startBefore: '2026-07-01T00:00:00.000Z' };
    const text = await plan(
      serviceAndEmployeeAppointmentsQuery(t.db, {
        ...range,
        serviceTypeId: serviceIds[9],
        companyId: companyIds[3],
        employeeId: employeeIds[15],
      }).compile(),
    );
    expectServiceAndEmployeeIndexes(text);
  });

  it("a booking's check under its lock, the employee's appointments and the count of the service's overlapping bookings in one statement, uses the same two indexes", async () => {
    // A long appointment's range (a month, as above): on an hour and a half PostgreSQL may as well
    // take the (company_id, start_time) index for the employee's part, also bounded both ways.
    const start = '2026-06-01T00:00:00.000Z';
    const text = await plan(
      ownAndOverlappingQuery(t.db, {
        employeeId: employeeIds[15],
        companyId: companyIds[3],
        startFrom: startBound(start, 45),
        end: '2026-07-01T00:00:00.000Z',
        serviceTypeId: serviceIds[9],
        start,
      }).compile(),
    );
    expectServiceAndEmployeeIndexes(text);
  });

  // PostgreSQL's pool sends the first reads of one round's date pickers as one statement, and their
  // later candidates' own reads as another (availability.repository.ts).
  if (dialect === 'postgres')
    it("many date pickers' first reads, and many employees' own reads, in one statement read each question through the same indexes", async () => {
      const from = startBound('2026-06-01T00:00:00.000Z', 45);
      const before = '2026-07-01T00:00:00.000Z';
      const questions = {
        employeeIds: [employeeIds[15], employeeIds[16]],
        companyIds: [companyIds[3], companyIds[3]],
        startFroms: [from, from],
        startBefores: [before, before],
      };
      const first = await plan(
        manyServiceAndEmployeeAppointmentsQuery(t.db, { ...questions, serviceTypeIds: [serviceIds[9], serviceIds[10]] }).compile(),
      );
      const own = await plan(manyEmployeeAppointmentsQuery(t.db, questions).compile());
      expect(first).toMatch(
        /Index (Only )?Scan (on|using) service_bookings_service_start_idx( on service_bookings s)?\s.*\n\s*Index Cond: \(\(service_type_id = q\.svc\) AND \(start_time >= q\.f\) AND \(start_time < q\.b\)/,
      );
      for (const text of [first, own]) {
        expect(text).toMatch(
          /Index (Only )?Scan (on|using) appointments_employee_start_idx( on appointments a)?\s.*\n\s*Index Cond: \(\(employee_id = q\.emp\) AND \(start_time >= q\.f\) AND \(start_time < q\.b\)\)/,
        );
        expect(text).not.toMatch(/Seq Scan on (appointments|service_bookings)/);
      }
    });

  it('"any employee" slots read the stretch of the company through (company_id, start_time), bounded at both ends', async () => {
    const text = await plan(
      qualifiedAppointmentsQuery(t.db, {
        companyId: companyIds[3],
        serviceTypeId: serviceIds[9],
        startFrom: startBound(dayStart, 45),
        startBefore: dayEnd,
      }).compile(),
    );
    if (dialect === 'sqlite') {
      expect(text).toMatch(/SEARCH a USING INDEX appointments_company_start_idx \(company_id=\? AND start_time>\? AND start_time<\?\)/);
      expect(text).not.toMatch(/SCAN a\b/);
    } else {
      expect(text).toMatch(/Index Cond: \(\(company_id = \d+\) AND \(start_time >= .+\) AND \(start_time < .+\)\)/);
      expect(text).not.toMatch(/Seq Scan on appointments/);
    }
  });

  /**
   * PostgreSQL's plan made without the values (its generic plan) of `explain execute <what>`, on the
   * server's connection; `prepare` makes the statement plan_probe first (and drops only it after: the
   * server's own prepared statements stay).
   */
  const genericPlan = (what: string, prepare?: string) =>
    t.db.connection().execute(async (c) => {
      await sql`set plan_cache_mode = force_generic_plan`.execute(c);
      try {
        if (prepare) await c.executeQuery(CompiledQuery.raw(`prepare plan_probe as ${prepare}`));
        const res = await c.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`explain execute ${what}`));
        return res.rows.map((r) => String(r['QUERY PLAN'])).join('\n');
      } finally {
        if (prepare) await sql`deallocate plan_probe`.execute(c);
        await sql`reset plan_cache_mode`.execute(c);
      }
    });

  // The server runs these as prepared statements (db/src/prepared.ts), which PostgreSQL may plan once
  // without the parameters' values (its generic plan, and always inside a booking's transaction:
  // decision 41): the plan that matters, and not the one a query with its values written in gets. A
  // join form hash-joined the whole link table here.
  if (dialect === 'postgres')
    it("the company's stretch, as the prepared statements run it, reads no link", async () => {
      // EXECUTE takes its arguments as literals; the plan is the generic one whatever they are.
      const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
      const genericPlanOfQuery = (compiled: CompiledQuery) =>
        genericPlan(`plan_probe(${compiled.parameters.map(literal).join(', ')})`, compiled.sql);
      const range = { companyId: companyIds[3], startFrom: startBound(dayStart, 45), startBefore: dayEnd };
      for (const compiled of [
        busyAppointmentsQuery(t.db, range).compile(),
        qualifiedAppointmentsQuery(t.db, { ...range, serviceTypeId: serviceIds[9] }).compile(),
      ]) {
        const text = await genericPlanOfQuery(compiled);
        expect(text).toMatch(/Index Scan using appointments_company_start_idx on appointments a/);
        expect(text).not.toMatch(/Seq Scan on appointments/);
        // Each appointment's services come from its own row (migration 059): never a service's whole history.
        expect(text).not.toMatch(/appointment_service_types/);
      }
    });

  // Every keyed write (all the PWA sends) looks its key up first; on PostgreSQL a round's lookups share
  // a statement (lib/idempotency.ts), which must find each key through the table's unique index
  // whatever the values (its generic plan): the table keeps every key for 30 days.
  if (dialect === 'postgres')
    it("a round's Idempotency-Key lookups find each key through the key's unique index", async () => {
      const at = new Date().toISOString();
      const keys = Array.from({ length: 3000 }, (_, n) => ({
        scope: `user:${n % 50}`,
        method: 'POST',
        path: '/api/appointments',
        key: `plan-${n}`,
        request_hash: 'h',
        state: 'done' as const,
        response_status: 201,
        response_body: '{}',
        response_headers: '{}',
        created_at: at,
        updated_at: at,
      }));
      for (let i = 0; i < keys.length; i += 500)
        await t.db
          .insertInto('idempotency_keys')
          .values(keys.slice(i, i + 500))
          .execute();
      await sql`analyze idempotency_keys`.execute(t.db);
      const text = (s: string) => `'${s.replace(/'/g, "''")}'`;
      const compiled = manyKeysQuery(t.db, [
        ['user:1', 'user:2'],
        ['POST', 'POST'],
        ['/api/appointments', '/api/appointments'],
        ['plan-1', 'plan-2'],
      ]).compile();
      const args = compiled.parameters.map((v) => `ARRAY[${(v as string[]).map(text).join(', ')}]`);
      const plan = await genericPlan(`plan_probe(${args.join(', ')})`, compiled.sql);
      expect(plan).toMatch(
        /Index Scan using idempotency_keys_uq on idempotency_keys ik\s.*\n\s*Index Cond: \(\(scope = q\.scope\) AND \(method = q\.method\) AND \(path = q\.path\) AND \(key = q\.key\)\)/,
      );
      expect(plan).not.toMatch(/Seq Scan on idempotency_keys/);
    });

  // A booking's transaction runs every statement on the plan its connection keeps for it, planned
  // without the values (docs/decisions/41-named-statements-in-shared-messages.md): each of those
  // plans, whatever the values, reads the large tables through an index.
  if (dialect === 'postgres')
    it("a booking's statements run on their kept plans, and those read the appointments through their indexes", async () => {
      const co = await bookableCompany(t, { name: 'Kept Plans', open: '08:00', close: '20:00' });
      const body = { company_id: co.companyId, service_type_ids: [co.serviceId], customer: customerContact() };
      // Within the public page's booking window, which counts from today.
      const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
      const named = await t.call('POST', '/appointments', {
        body: { ...body, employee_id: co.admin.id, start_time: `${day}T09:00:00.000Z` },
        token: co.admin.token,
      });
      expect(named.status).toBe(201);
      const anyone = await t.call('POST', '/appointments', { body: { ...body, start_time: `${day}T10:00:00.000Z` } });
      expect(anyone.body).toMatchObject({ id: expect.any(Number) });
      const { rows } = await sql<{ name: string; statement: string; parameter_types: string; generic_plans: number; custom_plans: number }>`
        select name, statement, parameter_types::text, generic_plans, custom_plans from pg_prepared_statements where name like 'bw\_%'`.execute(
        t.db,
      );
      const of = (part: RegExp) => rows.filter((r) => part.test(r.statement));
      // The named employee's neighbours (read with the lock) and "any employee"'s company stretch and day's counts.
      const bookingReads = [...of(/"service_bookings"[^]*make_interval/), ...of(/group by "employee_id"/)];
      expect(bookingReads.length).toBeGreaterThanOrEqual(2);
      for (const r of bookingReads)
        expect({ statement: r.statement, custom: r.custom_plans }).toEqual({ statement: r.statement, custom: 0 });
      const kept = rows.filter((r) => r.generic_plans > 0 && /"(appointments|service_bookings)"/.test(r.statement));
      expect(kept.length).toBeGreaterThanOrEqual(bookingReads.length);
      for (const r of kept) {
        const arity = r.parameter_types === '{}' ? 0 : r.parameter_types.split(',').length;
        const text = await genericPlan(`${r.name}${arity ? `(${Array(arity).fill('null').join(', ')})` : ''}`);
        expect({ statement: r.statement, plan: text }).not.toEqual({
          statement: r.statement,
          plan: expect.stringMatching(/Seq Scan on (appointments|service_bookings)/),
        });
      }
    });

  it("reads one employee's day of the calendar through (employee_id, start_time), bounded at both ends", async () => {
    const text = await plan(
      appointmentListQuery(t.db, {
        companyId: companyIds[3],
        employeeId: employeeIds[16],
        from: dayStart,
        to: dayEnd,
        longestMinutes: 45,
      }).compile(),
    );
    if (dialect === 'sqlite') {
      expect(text).toMatch(/SEARCH a USING INDEX appointments_employee_start_idx \(employee_id=\? AND start_time>\? AND start_time<\?\)/);
      expect(text).not.toMatch(/SCAN a\b/);
    } else {
      expect(text).toMatch(
        /Index Scan using appointments_employee_start_idx on appointments a\s.*\n\s*Index Cond: \(\(employee_id = \d+\) AND \(start_time >= .+\) AND \(start_time < .+\)\)/,
      );
      expect(text).not.toMatch(/Seq Scan on appointments/);
    }
  });
});

// Customers are users of their company too: a business with thousands of them must not make every
// "any employee" answer and every booking that lets the server choose read them all (migration 058).
describe.each(testDialects())('staff query plans on %s', (dialect) => {
  let t: TestServer;
  let companyId = 0;
  let serviceId = 0;
  const CUSTOMERS = 3000;

  beforeAll(async () => {
    t = await startTestServer(dialect);
    const iso = new Date().toISOString();
    for (let c = 0; c < 3; c++) {
      const company = await t.db
        .insertInto('companies')
        .values(companyRow({ name: `Staff plan ${c}`, slug: `staff-plan-${c}`, created_at: iso, updated_at: iso }))
        .returning('id')
        .executeTakeFirstOrThrow();
      const service = await t.db
        .insertInto('service_types')
        .values(serviceTypeRow({ company_id: company.id, name: 'Cut', duration_minutes: 30, updated_at: iso }))
        .returning('id')
        .executeTakeFirstOrThrow();
      companyId = company.id;
      serviceId = service.id;
      const people = [];
      for (let e = 0; e < 5; e++)
        people.push(userRow({ company_id: company.id, name: `E${e}`, email: `e${e}.s${c}@plan.test`, updated_at: iso }));
      for (let k = 0; k < CUSTOMERS; k++)
        people.push(userRow({ company_id: company.id, name: `C${k}`, email: `c${k}.s${c}@plan.test`, role: 'customer', updated_at: iso }));
      for (let i = 0; i < people.length; i += 500)
        await t.db
          .insertInto('users')
          .values(people.slice(i, i + 500))
          .execute();
    }
    await sql`analyze`.execute(t.db);
  }, 120_000);
  afterAll(async () => t?.close());

  it("reads who performs a service through (company_id, role), never the company's customers", async () => {
    const text = await planOf(t, performersQuery(t.db, companyId, serviceId).compile());
    if (dialect === 'sqlite') {
      expect(text).toMatch(/SEARCH users USING COVERING INDEX users_company_role_idx \(company_id=\? AND role=\? AND archived_at=\?\)/);
      expect(text).not.toMatch(/SCAN users/);
    } else {
      expect(text).toMatch(/Index (Only )?Scan using users_company_role_idx on users|Bitmap Index Scan on users_company_role_idx/);
      expect(text).not.toMatch(/Seq Scan on users/);
    }
    expect(await qualifiedStaff(t.db, companyId, serviceId)).toHaveLength(5);
  });
});
