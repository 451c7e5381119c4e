// Booking integrity on every test dialect: concurrent bookings never exceed capacity, Idempotency-Key
// replays change nothing, and stale If-Match versions change nothing.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { databaseFingerprint } from '../../testing/fingerprint.ts';
import { IDEMPOTENCY_LEASE_MS, pruneIdempotencyKeys, requestHash } from '../../lib/idempotency.ts';
import {
  addService,
  bookableCompany,
  countRows,
  customerContact,
  doubleBookings,
  type BookableCompany,
} from '../../testing/booking-fixtures.ts';

const NOW = new Date('2026-11-23T08:00:00.000Z');

describe.each(testDialects())('booking integrity on %s', (dialect) => {
  let t: TestServer;
  let co: BookableCompany;

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW });
    co = await bookableCompany(t, { name: 'Race Salon', open: '08:00', close: '20:00' });
  });
  afterAll(async () => t?.close());

  const book = (body: Record<string, unknown>, opts: { token?: string; headers?: Record<string, string> } = {}) =>
    t.call('POST', '/appointments', { body, ...opts });
  const publicBody = (serviceId: number, start: string) => ({
    company_id: co.companyId,
    service_type_ids: [serviceId],
    start_time: start,
    customer: customerContact(),
  });

  describe('concurrent bookings', () => {
    it.each([[1], [3]])('50 simultaneous requests for one slot of capacity %i: exactly that many succeed', async (capacity) => {
      const serviceId = await addService(t, co.admin.token, { name: `Cap ${capacity}`, duration_minutes: 30, available_slots: capacity });
      const start = capacity === 1 ? '2026-11-24T10:00:00.000Z' : '2026-11-24T11:00:00.000Z';
      const results = await Promise.all(Array.from({ length: 50 }, () => book(publicBody(serviceId, start))));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(capacity);
      expect(statuses.filter((s) => s === 409)).toHaveLength(50 - capacity);
      for (const r of results.filter((x) => x.status === 409))
        expect(r.body).toEqual({ error: 'This time is no longer available', code: 'slot_taken' });
      const rows = await t.db
        .selectFrom('appointments as a')
        .innerJoin('appointment_service_types as ast', 'ast.appointment_id', 'a.id')
        .select('a.id')
        .where('ast.service_type_id', '=', serviceId)
        .where('a.status', '=', 'booked')
        .execute();
      expect(rows).toHaveLength(capacity);
      expect(await doubleBookings(t, serviceId, capacity)).toBe(0);
    });

    // Buffers and "any employee" (docs/decisions/27-scheduling-rules.md): the holds, not just the service times, never
    // exceed the capacity, and the server never puts one employee into two overlapping holds (a group session shares a start).
    async function rulesService(name: string, capacity: number) {
      const serviceId = await addService(t, co.admin.token, { name, duration_minutes: 30, available_slots: capacity });
      await t.db
        .updateTable('service_types')
        .set({ buffer_before_minutes: 15, buffer_after_minutes: 15 })
        .where('id', '=', serviceId)
        .execute();
      await t.db
        .insertInto('service_employees')
        .values([co.employee.id, co.manager.id].map((user_id) => ({ service_type_id: serviceId, user_id })))
        .execute();
      return serviceId;
    }
    async function holdsOf(serviceId: number) {
      const rows = await t.db
        .selectFrom('appointments as a')
        .innerJoin('appointment_service_types as ast', 'ast.appointment_id', 'a.id')
        .select(['a.start_time', 'a.end_time', 'a.employee_id'])
        .where('ast.service_type_id', '=', serviceId)
        .where('a.status', '=', 'booked')
        .execute();
      return rows.map((r) => ({ ...r, start: Date.parse(r.start_time) - 15 * 60_000, end: Date.parse(r.end_time) + 15 * 60_000 }));
    }
    function expectHoldsKept(holds: Awaited<ReturnType<typeof holdsOf>>, capacity: number) {
      for (const h of holds) {
        expect([co.employee.id, co.manager.id]).toContain(h.employee_id);
        expect(holds.filter((o) => o.start <= h.start && o.end > h.start).length).toBeLessThanOrEqual(capacity);
        const clash = holds.filter(
          (o) => o.employee_id === h.employee_id && o.start < h.end && o.end > h.start && o.start_time !== h.start_time,
        );
        expect(clash).toEqual([]);
      }
    }

    it('50 simultaneous "any employee" requests for one slot with buffers: exactly the capacity, one group session of one employee', async () => {
      const serviceId = await rulesService('Buffered group', 3);
      const results = await Promise.all(Array.from({ length: 50 }, () => book(publicBody(serviceId, '2026-11-26T10:00:00.000Z'))));
      expect(results.filter((r) => r.status === 201)).toHaveLength(3);
      expect(results.filter((r) => r.status === 409)).toHaveLength(47);
      const holds = await holdsOf(serviceId);
      expect(holds).toHaveLength(3);
      expect(new Set(holds.map((h) => h.employee_id)).size).toBe(1);
      expectHoldsKept(holds, 3);
    });

    it('60 simultaneous "any employee" requests over overlapping holds: capacity and every employee kept', async () => {
      const serviceId = await rulesService('Buffered overlap', 3);
      const starts = ['10:00', '10:30', '11:00', '11:30'].map((hm) => `2026-11-29T${hm}:00.000Z`);
      const results = await Promise.all(Array.from({ length: 60 }, (_, i) => book(publicBody(serviceId, starts[i % starts.length]))));
      for (const r of results) expect([201, 409], r.text).toContain(r.status);
      const holds = await holdsOf(serviceId);
      expect(holds.length).toBe(results.filter((r) => r.status === 201).length);
      expect(holds.length).toBeGreaterThanOrEqual(3);
      expectHoldsKept(holds, 3);
    });

    it('checks capacity by the peak, not the count: a long booking over two back-to-back ones fits a capacity of 2, a third does not', async () => {
      const serviceId = await addService(t, co.admin.token, { name: 'Pairs', duration_minutes: 30, available_slots: 2 });
      const staff = (start: string, end: string) =>
        book({ company_id: co.companyId, service_type_ids: [serviceId], start_time: start, end_time: end }, { token: co.admin.token });
      expect((await staff('2026-11-28T09:00:00.000Z', '2026-11-28T09:30:00.000Z')).status).toBe(201);
      expect((await staff('2026-11-28T09:30:00.000Z', '2026-11-28T10:00:00.000Z')).status).toBe(201);
      // Two bookings overlap 09:00-10:00, but never at once: one place is always free.
      expect((await staff('2026-11-28T09:00:00.000Z', '2026-11-28T10:00:00.000Z')).status).toBe(201);
      // Now 09:15-09:45 has two at once everywhere.
      const full = await staff('2026-11-28T09:15:00.000Z', '2026-11-28T09:45:00.000Z');
      expect(full.status).toBe(409);
      const rows = await t.db
        .selectFrom('appointments as a')
        .innerJoin('appointment_service_types as ast', 'ast.appointment_id', 'a.id')
        .select('a.id')
        .where('ast.service_type_id', '=', serviceId)
        .execute();
      expect(rows).toHaveLength(3);
    });

    it('staff racing to put one employee into overlapping appointments: one wins', async () => {
      const starts = Array.from({ length: 20 }, (_, i) => new Date(Date.parse('2026-11-25T09:00:00Z') + i * 60_000).toISOString());
      const results = await Promise.all(
        starts.map((start) =>
          book(
            {
              employee_id: co.employee.id,
              start_time: start,
              end_time: new Date(Date.parse(start) + 45 * 60_000).toISOString(),
              description: 'race',
            },
            { token: co.admin.token },
          ),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    });

    // A named employee's neighbours are read with the company lock on PostgreSQL, their range worked
    // out by the statement (docs/decisions/40-appointment-id-with-the-lock.md): it must reach back by
    // the company's widest buffer and its longest appointment, or these two would double-book.
    it("a named employee's booking sees a neighbour's buffer and an appointment that began long before", async () => {
      const plain = await addService(t, co.admin.token, { name: 'Reach plain', duration_minutes: 30 });
      const buffered = await addService(t, co.admin.token, { name: 'Reach buffered', duration_minutes: 30 });
      await t.db.updateTable('service_types').set({ buffer_after_minutes: 60 }).where('id', '=', buffered).execute();
      try {
        const staffBook = (serviceId: number, start: string, end?: string) =>
          book(
            {
              company_id: co.companyId,
              employee_id: co.employee.id,
              service_type_ids: [serviceId],
              start_time: start,
              end_time: end,
              customer: customerContact(),
            },
            { token: co.admin.token },
          );
        expect((await staffBook(buffered, '2026-11-26T10:00:00.000Z')).status).toBe(201);
        // 11:00 is inside the 10:00 appointment's hour after: the neighbour begins before the new one's own reach.
        expect((await staffBook(plain, '2026-11-26T11:00:00.000Z')).status).toBe(409);
        expect((await staffBook(plain, '2026-11-26T11:30:00.000Z')).status).toBe(201);
        // Four hours from 12:00: 15:30 falls inside it, far past any buffer's reach.
        expect((await staffBook(plain, '2026-11-26T12:00:00.000Z', '2026-11-26T16:00:00.000Z')).status).toBe(201);
        expect((await staffBook(plain, '2026-11-26T15:30:00.000Z')).status).toBe(409);
      } finally {
        await t.db.updateTable('service_types').set({ buffer_after_minutes: 0 }).where('id', '=', buffered).execute();
      }
    });

    it('moves racing into one free place: one wins', async () => {
      const serviceId = await addService(t, co.admin.token, { name: 'Movers', duration_minutes: 30 });
      const ids: number[] = [];
      for (let i = 0; i < 10; i++) {
        const r = await book(
          { service_type_ids: [serviceId], start_time: `2026-11-26T${String(8 + i).padStart(2, '0')}:00:00Z` },
          { token: co.admin.token },
        );
        expect(r.status).toBe(201);
        ids.push(r.body.id);
      }
      const results = await Promise.all(
        ids.map((id) => t.call('PUT', `/appointments/${id}`, { token: co.employee.token, body: { start_time: '2026-11-26T19:00:00Z' } })),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(9);
      expect(await doubleBookings(t, serviceId, 1)).toBe(0);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response (status, body, ETag) after a lost response and creates one appointment', async () => {
      const body = publicBody(co.serviceId, '2026-11-27T09:00:00.000Z');
      const headers = { 'Idempotency-Key': 'lost-response-1' };
      const first = await book(body, { headers }); // imagine this answer never reached the phone
      expect(first.status).toBe(201);
      const before = await databaseFingerprint(t.db);
      // The same JSON with its keys in another order is the same request.
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const replay = await book(reordered, { headers });
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await databaseFingerprint(t.db)).toBe(before);
      const rows = await t.db.selectFrom('appointments').select('id').where('start_time', '=', '2026-11-27T09:00:00.000Z').execute();
      expect(rows).toHaveLength(1);
    });

    it('lets simultaneous retries with one key create exactly one appointment', async () => {
      const body = publicBody(co.serviceId, '2026-11-27T10:00:00.000Z');
      const results = await Promise.all(Array.from({ length: 10 }, () => book(body, { headers: { 'Idempotency-Key': 'burst-1' } })));
      for (const r of results) expect([201, 409]).toContain(r.status);
      const created = results.filter((r) => r.status === 201);
      expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('idempotency_in_progress');
      const rows = await t.db.selectFrom('appointments').select('id').where('start_time', '=', '2026-11-27T10:00:00.000Z').execute();
      expect(rows).toHaveLength(1);
    });

    // PostgreSQL writes the key with the write's commit (docs/decisions/43-idempotency-key-in-the-transaction.md,
    // "Session 38"): another session holding the same key uncommitted makes that insert wait, then fail on the
    // key's unique constraint once it commits. The write rolls back and answers as a key found first does
    // (422 for another body), not a 500.
    // (SQLite keeps the insert that answers: idempotency.test.ts holds its case.)
    if (dialect === 'postgres')
      it('a key another request writes while this one commits: the write rolls back, 422 for another body', async () => {
        const start = '2026-11-27T15:00:00.000Z';
        const body = publicBody(co.serviceId, start);
        const stored = await book(publicBody(co.serviceId, '2026-11-27T15:30:00.000Z'), { headers: { 'Idempotency-Key': 'rival-probe' } });
        expect(stored.status).toBe(201);
        const probe = await t.db
          .selectFrom('idempotency_keys')
          .select(['scope', 'method', 'path'])
          .where('key', '=', 'rival-probe')
          .executeTakeFirstOrThrow();
        let result: Awaited<ReturnType<typeof book>> | undefined;
        await t.db.connection().execute(async (conn) => {
          await sql`begin`.execute(conn);
          await conn
            .insertInto('idempotency_keys')
            .values({
              ...probe,
              key: 'rival-1',
              request_hash: requestHash('{"another":"body"}'),
              state: 'done',
              owner_token: null,
              response_status: 201,
              response_body: '{}',
              response_headers: '{}',
              created_at: NOW.toISOString(),
              updated_at: NOW.toISOString(),
            })
            .execute();
          const pending = book(body, { headers: { 'Idempotency-Key': 'rival-1' } }).then((r) => (result = r));
          // The request's insert waits on our uncommitted key: then let it go.
          for (let i = 0; i < 200; i++) {
            const waiting = await sql<{
              n: number;
            }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%idempotency_keys%'`.execute(
              t.db,
            );
            if (waiting.rows[0].n > 0) break;
            expect(result).toBeUndefined();
            await new Promise((r) => setTimeout(r, 25));
          }
          await sql`commit`.execute(conn);
          await pending;
        });
        // The key went to another body: 422, as when the key is found before the write runs.
        expect(result!.status).toBe(422);
        expect(result!.body.code).toBe('idempotency_mismatch');
        expect(await t.db.selectFrom('appointments').select('id').where('start_time', '=', start).execute()).toEqual([]);
      });

    it('answers 422 for the same key with another body, changing nothing', async () => {
      const headers = { 'Idempotency-Key': 'mismatch-1' };
      expect((await book(publicBody(co.serviceId, '2026-11-27T11:00:00.000Z'), { headers })).status).toBe(201);
      const before = await databaseFingerprint(t.db);
      const other = await book(publicBody(co.serviceId, '2026-11-27T11:30:00.000Z'), { headers });
      expect(other.status).toBe(422);
      expect(other.body.code).toBe('idempotency_mismatch');
      expect(await databaseFingerprint(t.db)).toBe(before);
    });

    it('answers 409 idempotency_in_progress while the first is running, and takes over a lease that died', async () => {
      const body = { service_type_ids: [co.serviceId], start_time: '2026-11-27T12:00:00.000Z' };
      const iso = NOW.toISOString();
      const row = {
        scope: `user:${co.admin.id}`,
        method: 'POST',
        path: '/api/appointments',
        request_hash: requestHash(JSON.stringify(body)),
        state: 'in_progress' as const,
        owner_token: 'someone-else',
        response_status: null,
        response_body: null,
        response_headers: null,
      };
      await t.db
        .insertInto('idempotency_keys')
        .values({ ...row, key: 'running-1', created_at: iso, updated_at: iso })
        .execute();
      const busy = await book(body, { token: co.admin.token, headers: { 'Idempotency-Key': 'running-1' } });
      expect(busy.status).toBe(409);
      expect(busy.body.code).toBe('idempotency_in_progress');

      const stale = new Date(NOW.getTime() - IDEMPOTENCY_LEASE_MS - 1000).toISOString();
      await t.db
        .insertInto('idempotency_keys')
        .values({ ...row, key: 'crashed-1', created_at: stale, updated_at: stale })
        .execute();
      const retried = await book(body, { token: co.admin.token, headers: { 'Idempotency-Key': 'crashed-1' } });
      expect(retried.status, retried.text).toBe(201);
      const key = await t.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'crashed-1').executeTakeFirstOrThrow();
      expect(key).toMatchObject({ state: 'done', response_status: 201 });
      expect(JSON.parse(key.response_body!)).toEqual(retried.body);
    });

    it('keeps a refusal: the same key and body answer it again and change nothing, even once the slot is free', async () => {
      const start = '2026-11-27T13:00:00.000Z';
      const blocker = await book(publicBody(co.serviceId, start));
      expect(blocker.status).toBe(201);
      const body = publicBody(co.serviceId, start);
      const headers = { 'Idempotency-Key': 'retry-after-409' };
      const refused = await book(body, { headers });
      expect(refused.status).toBe(409);
      await t.call('PUT', `/appointments/${blocker.body.id}`, { token: co.admin.token, body: { status: 'cancelled' } });
      const before = await countRows(t, 'appointments');
      const replay = await book(body, { headers });
      expect(replay.status).toBe(409);
      expect(replay.body).toEqual(refused.body);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await countRows(t, 'appointments')).toBe(before);
      // A new attempt is a new key.
      expect((await book(body, { headers: { 'Idempotency-Key': 'retry-after-409-again' } })).status).toBe(201);
    });

    it('scopes keys to the caller, and refuses keys that are empty or longer than 200 characters', async () => {
      const headers = { 'Idempotency-Key': 'shared-key' };
      const a = await book({ service_type_ids: [co.serviceId], start_time: '2026-11-28T09:00:00Z' }, { token: co.admin.token, headers });
      const b = await book({ service_type_ids: [co.serviceId], start_time: '2026-11-28T10:00:00Z' }, { token: co.manager.token, headers });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.id).not.toBe(b.body.id);
      const before = await countRows(t, 'appointments');
      for (const key of ['x'.repeat(201), ' ', 'caf\u00e9']) {
        const res = await book(publicBody(co.serviceId, '2026-11-28T11:00:00Z'), { headers: { 'Idempotency-Key': key } });
        expect(res.status, key.slice(0, 10)).toBe(400);
      }
      expect(
        (await book(publicBody(co.serviceId, '2026-11-28T11:00:00Z'), { headers: { 'Idempotency-Key': 'y'.repeat(200) } })).status,
      ).toBe(201);
      expect(await countRows(t, 'appointments')).toBe(before + 1);
    });

    it('covers PUT and DELETE: a replayed cancel or delete changes nothing and answers as the first time', async () => {
      const made = await book({ service_type_ids: [co.serviceId], start_time: '2026-11-28T12:00:00Z' }, { token: co.admin.token });
      const id = made.body.id;
      const headers = { 'Idempotency-Key': 'cancel-1' };
      const first = await t.call('PUT', `/appointments/${id}`, { token: co.admin.token, headers, body: { status: 'cancelled' } });
      expect(first.status).toBe(200);
      const outbox = await countRows(t, 'outbox_messages');
      const again = await t.call('PUT', `/appointments/${id}`, { token: co.admin.token, headers, body: { status: 'cancelled' } });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('etag')).toBe('"2"');
      expect(await countRows(t, 'outbox_messages')).toBe(outbox);
      const del = await t.call('DELETE', `/appointments/${id}`, { token: co.admin.token, headers: { 'Idempotency-Key': 'delete-1' } });
      expect(del.status).toBe(204);
      const delAgain = await t.call('DELETE', `/appointments/${id}`, { token: co.admin.token, headers: { 'Idempotency-Key': 'delete-1' } });
      expect(delAgain.status).toBe(204);
      const plainAgain = await t.call('DELETE', `/appointments/${id}`, { token: co.admin.token });
      expect(plainAgain.status).toBe(404);
    });

    it('answers simultaneous retries of an edit and of a delete as the first, never with the 412 or 404 the first caused', async () => {
      const made = await book({ service_type_ids: [co.serviceId], start_time: '2026-11-28T14:00:00Z' }, { token: co.admin.token });
      const id = made.body.id;
      const edit = {
        token: co.admin.token,
        headers: { 'Idempotency-Key': 'edit-burst', 'If-Match': '"1"' },
        body: { description: 'moved' },
      };
      const edits = await Promise.all(Array.from({ length: 6 }, () => t.call('PUT', `/appointments/${id}`, edit)));
      for (const r of edits) expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
      for (const r of edits.filter((x) => x.status === 409)) expect(r.body.code).toBe('idempotency_in_progress');
      expect(new Set(edits.filter((r) => r.status === 200).map((r) => r.headers.get('etag')))).toEqual(new Set(['"2"']));
      const del = { token: co.admin.token, headers: { 'Idempotency-Key': 'delete-burst', 'If-Match': '"2"' } };
      const dels = await Promise.all(Array.from({ length: 6 }, () => t.call('DELETE', `/appointments/${id}`, del)));
      for (const r of dels) expect([204, 409], JSON.stringify(r.body)).toContain(r.status);
      expect(dels.some((r) => r.status === 204)).toBe(true);
    });

    it('keeps keys 30 days and prunes older ones', async () => {
      const old = new Date(NOW.getTime() - 31 * 24 * 3600_000).toISOString();
      const recent = new Date(NOW.getTime() - 29 * 24 * 3600_000).toISOString();
      const base = {
        scope: 'anon:test',
        method: 'POST',
        path: '/api/appointments',
        request_hash: 'x',
        state: 'done' as const,
        owner_token: null,
        response_status: 201,
        response_body: '{}',
        response_headers: '{}',
      };
      await t.db
        .insertInto('idempotency_keys')
        .values([
          { ...base, key: 'old', created_at: old, updated_at: old },
          { ...base, key: 'recent', created_at: recent, updated_at: recent },
        ])
        .execute();
      expect(await pruneIdempotencyKeys(t.db, NOW)).toBeGreaterThanOrEqual(1);
      const keys = (await t.db.selectFrom('idempotency_keys').select('key').where('scope', '=', 'anon:test').execute()).map((k) => k.key);
      expect(keys).toEqual(['recent']);
    });
  });

  describe('ETag and If-Match', () => {
    it('refuses a stale version with 412 and the current appointment, changing nothing; W/"n", "n" and * match', async () => {
      const made = await book({ service_type_ids: [co.serviceId], start_time: '2026-11-29T09:00:00Z' }, { token: co.admin.token });
      const id = made.body.id;
      const v2 = await t.call('PUT', `/appointments/${id}`, {
        token: co.admin.token,
        headers: { 'If-Match': '"1"' },
        body: { description: 'v2' },
      });
      expect(v2.status).toBe(200);
      expect(v2.headers.get('etag')).toBe('"2"');
      const before = await databaseFingerprint(t.db);
      const stale = await t.call('PUT', `/appointments/${id}`, {
        token: co.employee.token,
        headers: { 'If-Match': '"1"' },
        body: { start_time: '2026-11-29T10:00:00Z' },
      });
      expect(stale.status).toBe(412);
      expect(stale.body).toMatchObject({
        code: 'version_mismatch',
        error: expect.any(String),
        current: { id, version: 2, description: 'v2', start_time: '2026-11-29T09:00:00.000Z' },
      });
      const staleDelete = await t.call('DELETE', `/appointments/${id}`, { token: co.employee.token, headers: { 'If-Match': 'W/"1"' } });
      expect(staleDelete.status).toBe(412);
      expect(await databaseFingerprint(t.db)).toBe(before);

      const weak = await t.call('PUT', `/appointments/${id}`, {
        token: co.admin.token,
        headers: { 'If-Match': 'W/"2"' },
        body: { description: 'v3' },
      });
      expect(weak.status).toBe(200);
      const star = await t.call('PUT', `/appointments/${id}`, {
        token: co.admin.token,
        headers: { 'If-Match': '*' },
        body: { description: 'v4' },
      });
      expect(star.body.version).toBe(4);
      const list = await t.call('PUT', `/appointments/${id}`, {
        token: co.admin.token,
        headers: { 'If-Match': '"3", "4"' },
        body: { description: 'v5' },
      });
      expect(list.body.version).toBe(5);
      const bad = await t.call('PUT', `/appointments/${id}`, {
        token: co.admin.token,
        headers: { 'If-Match': 'five' },
        body: { description: 'v6' },
      });
      expect(bad.status).toBe(400);
      const get = await t.call('GET', `/appointments/${id}`, { token: co.admin.token });
      expect(get.headers.get('etag')).toBe('"5"');
      const gone = await t.call('DELETE', `/appointments/${id}`, { token: co.admin.token, headers: { 'If-Match': '"5"' } });
      expect(gone.status).toBe(204);
      expect(
        (await t.call('PUT', `/appointments/${id}`, { token: co.admin.token, headers: { 'If-Match': '"5"' }, body: { description: 'x' } }))
          .status,
      ).toBe(404);
    });
  });
});

describe('public booking rate limit', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { now: () => NOW, env: { RATE_LIMIT_PUBLIC: '3' } });
  });
  afterAll(async () => t?.close());

  it('limits anonymous bookings per IP per minute, not staff', async () => {
    const co = await bookableCompany(t, { name: 'Busy', capacity: 10 });
    await t.db.deleteFrom('rate_limit_hits').execute(); // signing up counted too
    const body = {
      company_id: co.companyId,
      service_type_ids: [co.serviceId],
      start_time: '2026-11-24T10:00:00Z',
      customer: customerContact(),
    };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.call('POST', '/appointments', { body })).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    const limited = await t.call('POST', '/appointments', { body });
    expect(limited.body.code).toBe('rate_limited');
    const staff = await t.call('POST', '/appointments', {
      token: co.admin.token,
      body: { service_type_ids: [co.serviceId], start_time: '2026-11-24T10:00:00Z' },
    });
    expect(staff.status).toBe(201);
  });
});
