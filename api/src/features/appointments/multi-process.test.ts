// Two API processes on one database (PostgreSQL, and also one SQLite file): bookings racing for one
// slot through both never exceed its capacity, and one Idempotency-Key sent to both creates one appointment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DatabaseHandle } from '@bookwell/db';
import { createTestDatabase, testDialects, type TestDatabase } from '@bookwell/db/testing';
import { call } from '../../testing/harness.ts';
import { spawnServer, type ServerProcess } from '../../testing/process.ts';

describe.each(testDialects())('booking through two API processes on one %s database', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let a: ServerProcess;
  let b: ServerProcess;
  let token: string;
  let companyId: number;
  // Tomorrow at noon UTC: ahead of the real clock these processes run on, and inside the 30-day window.
  const day = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const env = { DATABASE_URL: database.url, DISABLE_SCHEDULER: 'true', RATE_LIMIT_PUBLIC: '100000', JWT_SECRET: 'x'.repeat(40) };
    // One after the other: the first creates the schema (Kysely's migration lock is a no-op on SQLite).
    a = await spawnServer(env);
    b = await spawnServer(env);
    handle = connect(database.url);
    const reg = await call(a.url, 'POST', '/register', {
      body: { name: 'Owner', email: 'owner@two-processes.test', password: 'secret123', company_name: 'Two Doors', timezone: 'UTC' },
    });
    expect(reg.status, reg.text).toBe(200);
    token = reg.body.token;
    companyId = (await call(b.url, 'GET', '/me', { token })).body.company_id;
    for (let d = 1; d <= 7; d++) {
      const res = await call(a.url, 'POST', '/operating-hours', {
        token,
        body: { day_of_week: d, open_time: '06:00', close_time: '22:00' },
      });
      expect([200, 201]).toContain(res.status);
    }
  }, 90_000);

  afterAll(async () => {
    await handle?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  async function service(capacity: number): Promise<number> {
    const res = await call(a.url, 'POST', '/service-types', {
      token,
      body: { name: `Capacity ${capacity}`, duration_minutes: 30, available_slots: capacity },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.service_type.id;
  }

  async function bookedAt(serviceId: number, start: string): Promise<number> {
    const rows = await handle.db
      .selectFrom('appointments as x')
      .innerJoin('appointment_service_types as s', 's.appointment_id', 'x.id')
      .select('x.id')
      .where('s.service_type_id', '=', serviceId)
      .where('x.start_time', '=', start)
      .where('x.status', '=', 'booked')
      .execute();
    return rows.length;
  }

  it.each([
    [1, '12:00'],
    [3, '13:00'],
  ])(
    '50 requests split across both processes for capacity %i succeed exactly that often',
    async (capacity, time) => {
      const serviceId = await service(capacity);
      const start = `${day}T${time}:00.000Z`;
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          call(i % 2 ? b.url : a.url, 'POST', '/appointments', {
            body: {
              company_id: companyId,
              service_type_ids: [serviceId],
              start_time: start,
              customer: { name: `Racer ${i}`, email: `racer${i}@two-processes.test`, phone: '+1 415 555 0123' },
            },
          }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(capacity);
      expect(statuses.filter((s) => s === 409)).toHaveLength(50 - capacity);
      // Both processes took part in the race: each turned some requests away.
      expect(results.filter((r, i) => i % 2 === 0 && r.status === 409).length).toBeGreaterThan(0);
      expect(results.filter((r, i) => i % 2 === 1 && r.status === 409).length).toBeGreaterThan(0);
      expect(await bookedAt(serviceId, start)).toBe(capacity);
    },
    60_000,
  );

  it('buffers and "any employee" across both processes: holds never exceed capacity, the one employee is never in two', async () => {
    const serviceId = await service(2);
    await handle.db
      .updateTable('service_types')
      .set({ buffer_before_minutes: 15, buffer_after_minutes: 15 })
      .where('id', '=', serviceId)
      .execute();
    // 16:00 and 16:30 holds overlap (15:45-16:45, 16:15-17:15); 16:00 and 17:00 only touch.
    const starts = ['16:00', '16:30', '17:00'].map((hm) => `${day}T${hm}:00.000Z`);
    const results = await Promise.all(
      Array.from({ length: 48 }, (_, i) =>
        call(i % 2 ? b.url : a.url, 'POST', '/appointments', {
          body: {
            company_id: companyId,
            service_type_ids: [serviceId],
            start_time: starts[i % 3],
            customer: { name: `Buffer ${i}`, email: `buffer${i}@two-processes.test`, phone: '+1 415 555 0123' },
          },
        }),
      ),
    );
    for (const r of results) expect([201, 409], r.text).toContain(r.status);
    const rows = await handle.db
      .selectFrom('appointments as x')
      .innerJoin('appointment_service_types as s', 's.appointment_id', 'x.id')
      .select(['x.start_time', 'x.end_time', 'x.employee_id'])
      .where('s.service_type_id', '=', serviceId)
      .where('x.status', '=', 'booked')
      .execute();
    expect(rows.length).toBe(results.filter((r) => r.status === 201).length);
    // The owner is the only staff member: one group session of 2, or the two sessions that only touch.
    expect([2, 4]).toContain(rows.length);
    const holds = rows.map((r) => ({ ...r, start: Date.parse(r.start_time) - 15 * 60_000, end: Date.parse(r.end_time) + 15 * 60_000 }));
    for (const h of holds) {
      expect(h.employee_id).not.toBeNull();
      expect(holds.filter((o) => o.start <= h.start && o.end > h.start).length).toBeLessThanOrEqual(2);
      expect(
        holds.filter((o) => o.employee_id === h.employee_id && o.start < h.end && o.end > h.start && o.start_time !== h.start_time),
      ).toEqual([]);
    }
  }, 60_000);

  it('one Idempotency-Key sent to both processes at once creates one appointment', async () => {
    const serviceId = await service(5);
    const start = `${day}T14:00:00.000Z`;
    const body = {
      company_id: companyId,
      service_type_ids: [serviceId],
      start_time: start,
      customer: { name: 'Twice', email: 'twice@two-processes.test', phone: '+1 415 555 0123' },
    };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(i % 2 ? b.url : a.url, 'POST', '/appointments', {
          body,
          headers: { 'Idempotency-Key': 'both-doors' },
        }),
      ),
    );
    for (const r of results) expect([201, 409]).toContain(r.status);
    const replay = await call(b.url, 'POST', '/appointments', { body, headers: { 'Idempotency-Key': 'both-doors' } });
    expect(replay.status).toBe(201);
    expect(await bookedAt(serviceId, start)).toBe(1);
  }, 60_000);
});
