// Per-company availability generation (docs/decisions/28-availability-generation.md), on every
// dialect: each write that can change a company's availability moves that company's generation in
// the same transaction, whichever endpoint (or process) makes it; other companies' writes and writes
// that change no availability (logins, rate-limit hits, notes, customer details, manage links) leave
// it, and the cached answers keyed by it, alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availabilityGeneration } from '@bookwell/db';
import { createTestDatabase, testDialects, type TestDatabase } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addService, bookableCompany, customerContact, setHours, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { addGlobalAdmin, addPerson, type TestPerson } from '../../testing/company-people.ts';
import { manageLinkKey, manageToken, manageTokenHash, newManageNonce } from '../../lib/manage-token.ts';
import { call } from '../../testing/harness.ts';
import { spawnServer, type ServerProcess } from '../../testing/process.ts';

// Monday 23 November 2026, 08:00 in London; both companies open 09:00-17:00 every day.
const NOW = new Date('2026-11-23T08:00:00.000Z');

describe.each(testDialects())('availability generation on %s', (dialect) => {
  let database: TestDatabase;
  let t: TestServer;
  let a: BookableCompany;
  let b: BookableCompany;
  let global: TestPerson;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    t = await startTestServer(dialect, { now: () => NOW, database, env: { RATE_LIMIT_LOGIN: '1000' } });
    a = await bookableCompany(t, { name: 'Generation A' });
    b = await bookableCompany(t, { name: 'Generation B' });
    global = await addGlobalAdmin(t);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const generations = async () => [await availabilityGeneration(t.db, a.companyId), await availabilityGeneration(t.db, b.companyId)];

  /** Runs `write` and answers whether it moved A's generation; B's must never move. */
  async function movesA(write: () => Promise<unknown>): Promise<boolean> {
    const [a0, b0] = await generations();
    await write();
    const [a1, b1] = await generations();
    expect(b1, "another company's generation").toBe(b0);
    expect(a1!).toBeGreaterThanOrEqual(a0!);
    return a1 !== a0;
  }

  const ok = (status: number) => (res: { status: number; text: string }) => expect(res.status, res.text).toBe(status);
  const slots = (co: BookableCompany, date: string) =>
    t.call('GET', `/appointments/available-slots?company_id=${co.companyId}&service_type_id=${co.serviceId}&date=${date}`);
  const book = async (start: string) => {
    const res = await t.call('POST', '/appointments', {
      body: { company_id: a.companyId, service_type_ids: [a.serviceId], start_time: start, customer: customerContact() },
    });
    ok(201)(res);
    return res.body.id as number;
  };

  it("a write in one company keeps the other company's cached answers, and its own are recomputed", async () => {
    const cache = t.server.deps.availabilityCache!;
    expect(cache).not.toBeNull();
    ok(200)(await slots(a, '2026-11-24'));
    ok(200)(await slots(b, '2026-11-24'));
    const hits = cache.hits;
    await book('2026-11-24T10:00:00Z');
    const bAfter = await slots(b, '2026-11-24');
    expect(cache.hits, 'B served from the cache').toBe(hits + 1);
    expect(bAfter.body.slots.map((s: { value: string }) => s.value)).toContain('10:00');
    const aAfter = await slots(a, '2026-11-24');
    expect(cache.hits, 'A recomputed').toBe(hits + 1);
    expect(aAfter.body.slots.map((s: { value: string }) => s.value)).not.toContain('10:00');
  });

  it('moves with every appointment write: create, edit of the time, cancel, delete, and the self-service link', async () => {
    let id = 0;
    expect(await movesA(async () => (id = await book('2026-11-25T09:00:00Z')))).toBe(true);
    expect(
      await movesA(async () =>
        ok(200)(await t.call('PATCH', `/appointments/${id}`, { token: a.admin.token, body: { start_time: '2026-11-25T11:00:00Z' } })),
      ),
    ).toBe(true);
    expect(
      await movesA(async () =>
        ok(200)(await t.call('PATCH', `/appointments/${id}`, { token: a.admin.token, body: { status: 'cancelled' } })),
      ),
    ).toBe(true);
    expect(await movesA(async () => ok(204)(await t.call('DELETE', `/appointments/${id}`, { token: a.admin.token })))).toBe(true);

    // The customer's link: issuing it changes nothing bookable; cancelling through it does.
    const own = await book('2026-11-25T13:00:00Z');
    const nonce = newManageNonce();
    const token = manageToken(manageLinkKey(t.server.deps.jwtKey), nonce);
    expect(
      await movesA(() =>
        t.db
          .updateTable('appointments')
          .set({ manage_nonce: nonce, manage_token_hash: manageTokenHash(token) })
          .where('id', '=', own)
          .execute(),
      ),
    ).toBe(false);
    expect(
      await movesA(async () =>
        ok(200)(await t.call('POST', `/manage/${token}/reschedule`, { body: { start_time: '2026-11-25T14:00:00Z' } })),
      ),
    ).toBe(true);
    expect(await movesA(async () => ok(200)(await t.call('POST', `/manage/${token}/cancel`)))).toBe(true);
  });

  it("moves once for a booking, and with every change of an appointment's services, whoever writes it", async () => {
    const colour = await addService(t, a.admin.token, { name: 'Colour', duration_minutes: 30 });
    const [before] = await generations();
    const id = await book('2026-11-26T09:00:00Z');
    const [after] = await generations();
    // The appointment's row moves it; its service link, written with it, does not again (migration 061).
    expect(after! - before!, 'moves for one booking').toBe(1);
    const links = t.db.selectFrom('appointment_service_types').select('service_type_id').where('appointment_id', '=', id);
    expect(await links.execute()).toEqual([{ service_type_id: a.serviceId }]);
    // Links changed by hand (an import, a script, another program): each change of the services moves it.
    expect(
      await movesA(() => t.db.insertInto('appointment_service_types').values({ appointment_id: id, service_type_id: colour }).execute()),
    ).toBe(true);
    expect(
      await movesA(() =>
        t.db.deleteFrom('appointment_service_types').where('appointment_id', '=', id).where('service_type_id', '=', a.serviceId).execute(),
      ),
    ).toBe(true);
    expect(
      await movesA(() =>
        t.db
          .updateTable('appointment_service_types')
          .set({ service_type_id: a.serviceId })
          .where('appointment_id', '=', id)
          .where('service_type_id', '=', colour)
          .execute(),
      ),
    ).toBe(true);
    expect(await links.execute()).toEqual([{ service_type_id: a.serviceId }]);
    // An edit naming the same services changes nothing bookable.
    expect(
      await movesA(async () =>
        ok(200)(await t.call('PATCH', `/appointments/${id}`, { token: a.admin.token, body: { service_type_ids: [a.serviceId] } })),
      ),
    ).toBe(false);
  });

  it('moves with hours, date overrides, services, assignments, staff and settings; not with names or notes', async () => {
    expect(await movesA(() => setHours(t, a.admin.token, { day_of_week: 3, open_time: '10:00', close_time: '16:00' }))).toBe(true);
    let overrideId = 0;
    expect(
      await movesA(async () => {
        const res = await t.call('POST', '/date-overrides', {
          token: a.admin.token,
          body: { date: '2026-12-01', is_closed: true, note: 'Stocktake' },
        });
        ok(201)(res);
        overrideId = res.body.id;
      }),
    ).toBe(true);
    expect(await movesA(async () => ok(204)(await t.call('DELETE', `/date-overrides/${overrideId}`, { token: a.admin.token })))).toBe(true);

    const patchService = (body: Record<string, unknown>) => async () =>
      ok(200)(await t.call('PATCH', `/service-types/${a.serviceId}`, { token: a.admin.token, body }));
    expect(await movesA(patchService({ buffer_after_minutes: 15 }))).toBe(true);
    expect(await movesA(patchService({ duration_minutes: 45 }))).toBe(true);
    expect(await movesA(patchService({ employee_ids: [a.employee.id] }))).toBe(true);
    expect(await movesA(patchService({ name: 'Haircut and style' }))).toBe(false);

    expect(await movesA(() => addPerson(t, a.companyId, 'employee', 'New Stylist'))).toBe(true);
    expect(await movesA(() => addPerson(t, a.companyId, 'customer', 'New Customer'))).toBe(false);

    const patchCompany = (body: Record<string, unknown>) => async () =>
      ok(200)(await t.call('PATCH', `/companies/${a.companyId}`, { token: a.admin.token, body }));
    expect(await movesA(patchCompany({ min_notice_minutes: 60 }))).toBe(true);
    expect(await movesA(patchCompany({ booking_window_days: 60 }))).toBe(true);
    expect(await movesA(patchCompany({ timezone: 'Europe/Paris' }))).toBe(true);
    expect(await movesA(patchCompany({ name: 'Generation A and Sons' }))).toBe(false);
    expect(
      await movesA(async () =>
        ok(200)(
          await t.call('PUT', `/admin/companies/${a.companyId}/subscription`, {
            token: global.token,
            body: { subscription_expires_at: '2027-01-01T00:00:00.000Z' },
          }),
        ),
      ),
    ).toBe(true);
  });

  it('bookings racing changes to their service and to the hours all finish: the bump waits for nothing a booking holds', async () => {
    // A service change locks its row (a booking's foreign-key check waits for it) and a booking locks
    // the company: were the bump taken on the company row before commit, the two would deadlock on PostgreSQL.
    const starts = Array.from(
      { length: 24 },
      (_, i) => `2026-11-27T${String(9 + Math.floor(i / 4)).padStart(2, '0')}:${['00', '15', '30', '45'][i % 4]}:00Z`,
    );
    await t.call('PATCH', `/service-types/${a.serviceId}`, {
      token: a.admin.token,
      body: { available_slots: 100, buffer_after_minutes: 0, employee_ids: [] },
    });
    const results = await Promise.all([
      ...starts.map((start) =>
        t.call('POST', '/appointments', {
          body: { company_id: a.companyId, service_type_ids: [a.serviceId], start_time: start, customer: customerContact() },
        }),
      ),
      ...Array.from({ length: 8 }, (_, i) =>
        t.call('PATCH', `/service-types/${a.serviceId}`, {
          token: a.admin.token,
          body: { price: 20 + i, duration_minutes: 30 + (i % 2) * 15 },
        }),
      ),
      ...Array.from({ length: 4 }, (_, i) =>
        setHours(t, a.admin.token, { day_of_week: 5, open_time: '09:00', close_time: i % 2 ? '17:00' : '18:00' }),
      ),
    ]);
    const statuses = results.filter((r) => r && typeof r === 'object' && 'status' in r).map((r) => (r as { status: number }).status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(0);

    // Removing a service locks its row for the whole transaction (service-type.repository.ts lockServiceType).
    for (let round = 0; round < 4; round++) {
      const svc = await addService(t, a.admin.token, { name: `Short-lived ${round}`, duration_minutes: 15, available_slots: 50 });
      const raced = await Promise.all([
        ...Array.from({ length: 6 }, (_, i) =>
          t.call('POST', '/appointments', {
            body: {
              company_id: a.companyId,
              service_type_ids: [svc],
              start_time: `2026-11-28T1${round}:${String(15 * (i % 4)).padStart(2, '0')}:00Z`,
              customer: customerContact(),
            },
          }),
        ),
        t.call('DELETE', `/service-types/${svc}`, { token: a.admin.token }),
      ]);
      expect(
        raced.map((r) => r.status).filter((s) => s >= 500),
        raced.map((r) => r.text).join('\n'),
      ).toEqual([]);
    }
  });

  it('stays put for logins, rate-limit hits and edits that change nothing bookable', async () => {
    const email = (await t.db.selectFrom('users').select('email').where('id', '=', a.admin.id).executeTakeFirstOrThrow()).email;
    expect(await movesA(async () => ok(400)(await t.call('POST', '/login', { body: { email, password: 'not-the-password' } })))).toBe(
      false,
    );
    expect(await movesA(async () => ok(200)(await t.call('GET', '/me', { token: a.admin.token })))).toBe(false);
    const id = await book('2026-11-26T09:00:00Z');
    expect(
      await movesA(async () =>
        ok(200)(await t.call('PATCH', `/appointments/${id}`, { token: a.admin.token, body: { description: 'Bring photos' } })),
      ),
    ).toBe(false);
  });
});

describe.each(testDialects())('cached availability across two API processes on one %s database', (dialect) => {
  let database: TestDatabase;
  let p1: ServerProcess;
  let p2: ServerProcess;
  let token: string;
  let companyId: number;
  let serviceId: number;
  // Two days ahead at the real clock these processes run on, inside the default 30-day window.
  const day = new Date(Date.now() + 2 * 24 * 3600_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const env = { DATABASE_URL: database.url, DISABLE_SCHEDULER: 'true', RATE_LIMIT_PUBLIC: '100000', JWT_SECRET: 'y'.repeat(40) };
    // One after the other: the first creates the schema.
    p1 = await spawnServer(env);
    p2 = await spawnServer(env);
    const reg = await call(p1.url, 'POST', '/register', {
      body: { name: 'Owner', email: 'owner@generation-processes.test', password: 'secret123', company_name: 'Two Desks', timezone: 'UTC' },
    });
    expect(reg.status, reg.text).toBe(200);
    token = reg.body.token;
    companyId = (await call(p1.url, 'GET', '/me', { token })).body.company_id;
    for (let d = 1; d <= 7; d++)
      expect([200, 201]).toContain(
        (await call(p1.url, 'POST', '/operating-hours', { token, body: { day_of_week: d, open_time: '09:00', close_time: '17:00' } }))
          .status,
      );
    const svc = await call(p1.url, 'POST', '/service-types', { token, body: { name: 'Cut', duration_minutes: 30, available_slots: 1 } });
    expect(svc.status, svc.text).toBe(201);
    serviceId = svc.body.service_type.id;
  }, 90_000);
  afterAll(async () => {
    await Promise.all([p1?.stop(), p2?.stop()]);
    await database?.drop();
  });

  const offered = async (url: string) => {
    const res = await call(url, 'GET', `/appointments/available-slots?company_id=${companyId}&service_type_id=${serviceId}&date=${day}`);
    expect(res.status, res.text).toBe(200);
    return res.body.slots.map((s: { value: string }) => s.value) as string[];
  };

  it("each process's cached answers follow the other's writes at once", async () => {
    // Asked twice: the second answer is the first one's cache entry.
    expect(await offered(p1.url)).toContain('10:00');
    expect(await offered(p1.url)).toContain('10:00');
    const booked = await call(p2.url, 'POST', '/appointments', {
      body: { company_id: companyId, service_type_ids: [serviceId], start_time: `${day}T10:00:00.000Z`, customer: customerContact() },
    });
    expect(booked.status, booked.text).toBe(201);
    expect(await offered(p1.url)).not.toContain('10:00');

    expect(await offered(p2.url)).toContain('16:30');
    const weekday = ((new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;
    const hours = await call(p1.url, 'POST', '/operating-hours', {
      token,
      body: { day_of_week: weekday, open_time: '09:00', close_time: '12:00' },
    });
    expect([200, 201]).toContain(hours.status);
    expect((await offered(p2.url)).at(-1)).toBe('11:30');
  });
});
