// A booking on PostgreSQL opens its transaction in the same message as the company lock and sends its
// audit entry, sync change, service link and messages with the commit (docs/decisions/34-batched-round-trips.md),
// and what it wrote is all there afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';

const NOW = new Date('2026-11-23T08:00:00.000Z');

// Round trips exist on PostgreSQL only; this runs when TEST_DATABASE_URL is set. Without it the file
// still holds a (skipped, explained) test: a file with no suite at all fails `npm test` on a machine
// without PostgreSQL, which the README's test command must not.
if (!testDialects().includes('postgres')) {
  console.log('SKIPPED api/src/features/appointments/round-trips.test.ts: TEST_DATABASE_URL is not set (PostgreSQL only)');
  describe('a booking’s round trips', () => it.skip('skipped: TEST_DATABASE_URL is not set (PostgreSQL only)', () => {}));
}
describe.each(testDialects().filter((d) => d === 'postgres'))('a booking’s round trips on %s', (dialect) => {
  let t: TestServer;
  let co: BookableCompany;
  let sent: string[] = [];

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW, connectOptions: { onRoundTrip: (text) => sent.push(text) } });
    co = await bookableCompany(t, { name: 'Round Trip Salon', open: '08:00', close: '20:00' });
  });
  afterAll(async () => t?.close());

  /**
   * A connection runs a statement it has prepared by name inside a shared message, and prepares it by
   * sending it on its own the first time (docs/decisions/41-named-statements-in-shared-messages.md):
   * a booking of the same kind first, so the one counted is what every later booking costs.
   */
  const warmUp = async (body: Record<string, unknown>, token?: string) => {
    const res = await t.call('POST', '/appointments', { body: { ...body, customer: customerContact() }, token });
    expect(res.status).toBe(201);
  };

  /** The messages of the booking's transaction: from the one that opens it to the one that commits it. */
  const transactionOf = (messages: string[]) => {
    const first = messages.findIndex((m) => m.startsWith('begin') && m.includes('for no key update'));
    const last = messages.findIndex((m, i) => i >= first && /(^|\n)commit$/.test(m));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(last).toBeGreaterThan(first);
    return messages.slice(first, last + 1);
  };

  // In messages per transaction, it took 16 for the staff booking and 21 for the public one ("any
  // employee" read the hours and buffers twice), one per statement; with the held writes of decision
  // 34 the public one took 16, and with the buffers read in the lock's statement 15 (staff: 6); with
  // a new customer's lookup and insert in one statement (decision 38) 14 (staff: 5); with the chosen
  // employee's appointments and the service's overlapping bookings read together (decision 39) 13;
  // with the appointment's id drawn in the lock's statement and its insert held (decision 40) 12 (staff: 4);
  // with "any employee"'s six reads sent together, the neighbours among them and the chosen one's name
  // read with the performers (decision 40) 5; with the customer's statement in the lock's message 4 (staff: 3);
  // with the staff notice's recipient taken from the performers' read 3. (A staff booking naming its
  // employee reads the neighbours in the lock's message too: 2, the next test.)
  it.each([
    ['a customer booking from the public page', false, 3],
    ['a staff booking for a new customer', true, 3],
  ])('%s: begin goes with the lock, the bookkeeping rows with later statements', async (_, staff, most) => {
    const customer = customerContact();
    const start = staff ? '2026-11-24T10:00:00.000Z' : '2026-11-24T11:00:00.000Z';
    const token = staff ? co.admin.token : undefined;
    await warmUp({ company_id: co.companyId, service_type_ids: [co.serviceId], start_time: start.replace('24T', '25T') }, token);
    sent = [];
    const res = await t.call('POST', '/appointments', {
      body: { company_id: co.companyId, service_type_ids: [co.serviceId], start_time: start, customer },
      token,
    });
    expect(res.status).toBe(201);
    const trx = transactionOf(sent);
    expect(trx[0]).toMatch(
      /^begin;\nset local plan_cache_mode = force_generic_plan;\nselect "id", "longest_appointment_minutes", "reminder_hours_before", \(select string_agg\([^]*\) as "buffers", nextval\('appointments_id_seq'\) as "new_appointment_id" from "companies" [^]* for no key update;\nwith "found" as \(select [^]* from "users" [^]*insert into "users"[^]*$/,
    );
    // The transaction runs on kept plans (decision 41), said in the lock's message.
    // The buffers come with the lock: no statement of its own while it is held.
    expect(trx.filter((m) => m.includes('"buffer_before_minutes" >'))).toEqual([]);
    // No row the booking writes and never reads again costs a message of its own.
    for (const table of ['appointments', 'appointment_service_types', 'sync_changes', 'audit_log', 'outbox_messages']) {
      const carrying = trx.filter((m) => m.includes(`insert into "${table}"`));
      expect(carrying.length).toBeGreaterThan(0);
      for (const m of carrying) expect(m.split(';\n').length).toBeGreaterThan(1);
    }
    expect(trx[trx.length - 1]).toMatch(/^insert into [^]*;\ncommit$/);
    expect(trx.length).toBeLessThanOrEqual(most);
    if (!staff) {
      // "Any employee": the performers, the hours, the overrides, the neighbours and the day's counts in one message.
      const together = trx.filter((m) => m.includes('from "operating_hours"'));
      expect(together).toHaveLength(1);
      for (const part of ['from "users"', 'from "date_overrides"', 'from "appointments"', 'group by "employee_id"'])
        expect(together[0]).toContain(part);
      expect(trx.filter((m) => m.includes('from "service_bookings"'))).toEqual([]);
      // Before it: the rate limit and the opening read. The day's hours are read under the lock only:
      // whether the start is offered at all (400) or taken (409) is answered there (session 38).
      const before = sent.slice(0, sent.indexOf(trx[0]));
      expect(before.filter((m) => m.includes('from "operating_hours"'))).toEqual([]);
      expect(before).toHaveLength(2);
    }
    // The public write's rate limit is one statement (migration 055), not a transaction of three messages.
    if (!staff) expect(sent.filter((m) => /rate.limit/.test(m))).toEqual([expect.stringMatching(/^\s*select rate_limit_consume\(/)]);

    const id = res.body.id as number;
    const count = async (table: 'appointment_service_types' | 'sync_changes' | 'outbox_messages') =>
      (await t.db.selectFrom(table).select('appointment_id').where('appointment_id', '=', id).execute()).length;
    expect(await count('appointment_service_types')).toBe(1);
    expect(await count('sync_changes')).toBe(1);
    expect(await count('outbox_messages')).toBeGreaterThanOrEqual(2); // the confirmation and the reminder
    const audit = await t.db
      .selectFrom('audit_log')
      .select('entity')
      .where('entity_id', '=', id)
      .where('entity', '=', 'appointment')
      .execute();
    expect(audit).toHaveLength(1);
  });

  // Before its transaction a booking read its company, its service, its employee and whether that
  // employee performs the service in four messages (after the caller's own read), and under its lock
  // the employee's appointments and the service's overlapping bookings in two; now one each
  // (docs/decisions/39-booking-opening-read.md).
  it('a staff booking naming its employee: company, service and employee in one message, its neighbours in one under the lock', async () => {
    const body = { company_id: co.companyId, employee_id: co.admin.id, service_type_ids: [co.serviceId] };
    await warmUp({ ...body, start_time: '2026-11-25T12:00:00.000Z' }, co.admin.token);
    sent = [];
    const res = await t.call('POST', '/appointments', {
      body: {
        company_id: co.companyId,
        employee_id: co.admin.id,
        service_type_ids: [co.serviceId],
        start_time: '2026-11-24T12:00:00.000Z',
        customer: customerContact(),
      },
      token: co.admin.token,
    });
    expect(res.status).toBe(201);
    expect(res.body.employee_id).toBe(co.admin.id);
    const before = sent.slice(
      0,
      sent.findIndex((m) => m.startsWith('begin')),
    );
    const opening = before.filter((m) => m.includes('from "companies"'));
    expect(opening).toHaveLength(1);
    for (const part of ['left join "service_types"', 'left join "users"', 'from "service_employees"']) expect(opening[0]).toContain(part);
    // The caller's session read (when not already known) and the opening read: nothing else.
    expect(before.length).toBeLessThanOrEqual(2);
    expect(before.filter((m) => m.includes('from "service_types"') && !m.includes('from "companies"'))).toEqual([]);

    const trx = transactionOf(sent);
    const neighbours = trx.filter((m) => m.includes('from "service_bookings"'));
    expect(neighbours).toHaveLength(1);
    expect(neighbours[0]).toMatch(/"appointments"[^]*"service_bookings"/);
    // In the lock's message, after the lock and the customer: the range worked out there (decision 40).
    expect(neighbours[0]).toMatch(/^begin;\n[^]* for no key update;\nwith "found" as [^]*;\nselect \(select string_agg/);
    expect(neighbours[0]).toContain('make_interval(mins => (select greatest(0, c.longest_appointment_minutes)');
    // The lock with the customer and the neighbours, then the appointment and its bookkeeping with the commit.
    expect(trx.length).toBeLessThanOrEqual(2);
    expect(trx[trx.length - 1]).toMatch(/(^|\n)insert into "appointments" [^]*;\ncommit$/);
  });

  // A staff move took 16 messages, 12 of them while the company lock was held (the lock, the row and
  // its services again, the capacities, the neighbours, the update, the view and its services, the
  // reschedule notice, each reminder's lookup and write, the commit); a deletion 7. Now the row comes
  // with the lock, the capacities with the neighbours, the view after the held writes, and the
  // messages and reminders with the commit (docs/decisions/34-batched-round-trips.md, "Session 38").
  const staffBooking = async (start: string) => {
    const res = await t.call('POST', '/appointments', {
      body: {
        company_id: co.companyId,
        employee_id: co.admin.id,
        service_type_ids: [co.serviceId],
        start_time: start,
        customer: customerContact(),
      },
      token: co.admin.token,
    });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };

  it('a staff move: the row with the lock, the capacities with the neighbours, the reminders and notice with the commit', async () => {
    const warm = await staffBooking('2026-11-26T09:00:00.000Z');
    // A move of the same kind first (its named statements prepared: decision 41), as in warmUp.
    const warmMove = await t.call('PATCH', `/appointments/${warm}`, {
      body: { start_time: '2026-11-26T09:30:00.000Z' },
      token: co.admin.token,
      headers: { 'Idempotency-Key': 'move-round-trips-warm' },
    });
    expect(warmMove.status).toBe(200);
    const id = await staffBooking('2026-11-26T12:00:00.000Z');
    sent = [];
    // With the Idempotency-Key the app sends: written with the commit (decision 43, "Session 38").
    const res = await t.call('PATCH', `/appointments/${id}`, {
      body: { start_time: '2026-11-27T13:00:00.000Z' },
      token: co.admin.token,
      headers: { 'Idempotency-Key': 'move-round-trips' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ start_time: '2026-11-27T13:00:00.000Z', end_time: '2026-11-27T13:30:00.000Z', version: 2 });
    const trx = transactionOf(sent);
    expect(trx[0]).toMatch(/ for no key update;\nselect \* from "appointments" where "id" = /);
    const neighbours = trx.filter((m) => m.includes('"available_slots" from "service_types"'));
    expect(neighbours).toHaveLength(1);
    expect(neighbours[0]).toMatch(/from "appointments" as "a" where "a"."company_id" = /);
    expect(trx.filter((m) => m.includes('update "appointments"'))).toEqual([
      expect.stringMatching(/^update "appointments"[^]*insert into "audit_log"[^]*select "a".\*[^]*from "appointment_service_types"/),
    ]);
    expect(trx[trx.length - 1]).toMatch(
      /^insert into "outbox_messages"[^]*'reschedule'[^]*on conflict \("dedupe_key"\) do update [^]*;\ninsert into "idempotency_keys" [^]*'move-round-trips'[^]*;\ncommit$/,
    );
    expect(trx).toHaveLength(4);
    // Before the transaction: the caller's session (when not known), the key's lookup, and the
    // appointment with its company in one message.
    const before = sent.slice(0, sent.indexOf(trx[0]));
    expect(before.filter((m) => m.includes('from "companies"'))).toEqual([
      expect.stringMatching(/^select \* from "appointments" [^]*;\nselect [^]* from "companies" /),
    ]);
    expect(before.length).toBeLessThanOrEqual(3);

    const reminders = await t.db
      .selectFrom('outbox_messages')
      .select(['dedupe_key', 'state'])
      .where('appointment_id', '=', id)
      .where('kind', '=', 'reminder')
      .orderBy('id')
      .execute();
    expect(reminders).toEqual([
      { dedupe_key: `reminder:email:${id}:2026-11-26T12:00:00.000Z`, state: 'cancelled' },
      { dedupe_key: `reminder:email:${id}:2026-11-27T13:00:00.000Z`, state: 'pending' },
    ]);
    const notices = await t.db
      .selectFrom('outbox_messages')
      .select('kind')
      .where('appointment_id', '=', id)
      .where('kind', '=', 'reschedule')
      .execute();
    expect(notices).toHaveLength(1);
  });

  it('a staff deletion: the row and its view with the lock, everything else with the commit', async () => {
    const id = await staffBooking('2026-11-26T15:00:00.000Z');
    sent = [];
    const res = await t.call('DELETE', `/appointments/${id}`, { token: co.admin.token });
    expect(res.status).toBe(204);
    const trx = transactionOf(sent);
    expect(trx[0]).toMatch(
      / for no key update;\nselect \* from "appointments" where [^]*;\nselect "a".\*[^]*;\nselect "ast"."appointment_id"/,
    );
    expect(trx[1]).toMatch(/^delete from "appointments"[^]*'cancellation'[^]*;\ncommit$/);
    expect(trx).toHaveLength(2);
    expect(await t.db.selectFrom('appointments').select('id').where('id', '=', id).execute()).toEqual([]);
    const left = await t.db
      .selectFrom('outbox_messages')
      .select(['kind', 'state'])
      .where('appointment_id', '=', id)
      .orderBy('id')
      .execute();
    expect(left).toEqual([
      { kind: 'confirmation', state: 'pending' },
      { kind: 'reminder', state: 'cancelled' },
      { kind: 'cancellation', state: 'pending' },
    ]);
  });
});
