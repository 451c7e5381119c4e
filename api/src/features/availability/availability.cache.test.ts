// The availability endpoints' cache never answers with something a write or the clock has changed:
// the endpoints on every dialect (the cache is keyed by each company's availability generation, which
// the database moves: docs/decisions/28-availability-generation.md), with writes from this server,
// from another connection, and a moving clock.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DatabaseHandle } from '@bookwell/db';
import { createTestDatabase, testDialects, type TestDatabase } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { bookableCompany, customerContact, setHours, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { appointmentRow } from '../../testing/rows.ts';

// Monday 23 November 2026, 10:15 in London.
const NOW = new Date('2026-11-23T10:15:00.000Z');

describe.each(testDialects())('cached availability answers on %s', (dialect) => {
  let database: TestDatabase;
  let t: TestServer;
  let other: DatabaseHandle;
  let clock = NOW;
  let co: BookableCompany;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    t = await startTestServer(dialect, { now: () => clock, database });
    other = connect(database.url);
    co = await bookableCompany(t, { name: 'Cache Cuts', timezone: 'Europe/London' });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
    await database?.drop();
  });

  const slotValues = async (date: string) => {
    const res = await t.call(
      'GET',
      `/appointments/available-slots?company_id=${co.companyId}&service_type_id=${co.serviceId}&date=${date}`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    return res.body.slots.map((s: { value: string }) => s.value) as string[];
  };
  const dateList = async () => {
    const res = await t.call('GET', `/appointments/available-dates?company_id=${co.companyId}&service_type_id=${co.serviceId}`);
    expect(res.status, res.text).toBe(200);
    return res.body.dates as string[];
  };

  it('is on for both databases (one generation read per request)', async () => {
    await slotValues('2026-11-24');
    const cache = t.server.deps.availabilityCache!;
    expect(cache.size).toBeGreaterThan(0);
    const hits = cache.hits;
    await slotValues('2026-11-24');
    expect(cache.hits).toBe(hits + 1);
  });

  it('follows the scheduling rules written by another connection: a closure, time off, assignments, buffers, notice', async () => {
    // docs/decisions/27-scheduling-rules.md: every table the rules read moves the company's generation (migration 052's triggers).
    const withEmployee = async (date: string, employeeId: number) => {
      const res = await t.call(
        'GET',
        `/appointments/available-slots?company_id=${co.companyId}&service_type_id=${co.serviceId}&date=${date}&employee_id=${employeeId}`,
      );
      expect(res.status, res.text).toBe(200);
      return res.body.slots.length as number;
    };
    expect(await dateList()).toContain('2026-12-01');
    await other.db
      .insertInto('date_overrides')
      .values({ company_id: co.companyId, user_id: null, date: '2026-12-01', is_closed: 1, intervals: null, note: null })
      .execute();
    expect(await dateList()).not.toContain('2026-12-01');
    expect(await slotValues('2026-12-01')).toEqual([]);

    expect(await withEmployee('2026-12-02', co.employee.id)).toBe(16);
    await other.db
      .insertInto('date_overrides')
      .values({ company_id: co.companyId, user_id: co.employee.id, date: '2026-12-02', is_closed: 1, intervals: null, note: null })
      .execute();
    expect(await withEmployee('2026-12-02', co.employee.id)).toBe(0);

    expect(await withEmployee('2026-12-03', co.manager.id)).toBe(16);
    await other.db.insertInto('service_employees').values({ service_type_id: co.serviceId, user_id: co.employee.id }).execute();
    expect(await withEmployee('2026-12-03', co.manager.id)).toBe(0);
    await other.db.deleteFrom('service_employees').where('service_type_id', '=', co.serviceId).execute();
    expect(await withEmployee('2026-12-03', co.manager.id)).toBe(16);

    const booked = await t.call('POST', '/appointments', {
      body: {
        company_id: co.companyId,
        service_type_ids: [co.serviceId],
        start_time: '2026-12-04T12:00:00.000Z',
        customer: customerContact(),
      },
    });
    expect(booked.status, booked.text).toBe(201);
    expect(await slotValues('2026-12-04')).toContain('12:30');
    await other.db.updateTable('service_types').set({ buffer_after_minutes: 30 }).where('id', '=', co.serviceId).execute();
    const buffered = await slotValues('2026-12-04');
    expect(buffered).not.toContain('12:30');
    expect(buffered).not.toContain('11:30');
    await other.db.updateTable('service_types').set({ buffer_after_minutes: 0 }).where('id', '=', co.serviceId).execute();

    expect((await slotValues('2026-11-23'))[0]).toBe('10:30');
    await other.db.updateTable('companies').set({ min_notice_minutes: 60 }).where('id', '=', co.companyId).execute();
    expect((await slotValues('2026-11-23'))[0]).toBe('11:30');
    await other.db.updateTable('companies').set({ min_notice_minutes: 0 }).where('id', '=', co.companyId).execute();
    await other.db.deleteFrom('date_overrides').where('company_id', '=', co.companyId).execute();
  });

  it('shows a booking written by another connection (another API process, an import) at once', async () => {
    expect(await slotValues('2026-11-25')).toContain('11:00');
    await other.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('appointments')
        .values(
          appointmentRow({
            company_id: co.companyId,
            start_time: '2026-11-25T11:00:00.000Z',
            end_time: '2026-11-25T11:30:00.000Z',
            created_at: NOW.toISOString(),
            updated_at: NOW.toISOString(),
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('appointment_service_types').values({ appointment_id: id, service_type_id: co.serviceId }).execute();
    });
    expect(await slotValues('2026-11-25')).not.toContain('11:00');
  });

  it("shows this server's own bookings and hours changes at once", async () => {
    expect(await slotValues('2026-11-26')).toContain('09:30');
    const booked = await t.call('POST', '/appointments', {
      body: {
        company_id: co.companyId,
        service_type_ids: [co.serviceId],
        start_time: '2026-11-26T09:30:00.000Z',
        customer: customerContact(),
      },
    });
    expect(booked.status, booked.text).toBe(201);
    expect(await slotValues('2026-11-26')).not.toContain('09:30');
    // Thursday 26 November closes at noon from now on.
    await setHours(t, co.admin.token, { day_of_week: 4, open_time: '09:00', close_time: '12:00' });
    expect((await slotValues('2026-11-26')).at(-1)).toBe('11:30');
  });

  it('follows the clock: a start that passes is no longer offered, and the window moves at local midnight', async () => {
    try {
      expect((await slotValues('2026-11-23'))[0]).toBe('10:30');
      clock = new Date('2026-11-23T10:31:00.000Z');
      expect((await slotValues('2026-11-23'))[0]).toBe('11:00');
      expect((await dateList())[0]).toBe('2026-11-23');
      clock = new Date('2026-11-23T23:59:00.000Z');
      expect((await dateList())[0]).toBe('2026-11-24');
      expect(await dateList()).not.toContain('2026-12-23');
      clock = new Date('2026-11-24T00:01:00.000Z');
      expect(await dateList()).toContain('2026-12-23');
      expect(await slotValues('2026-11-23')).toEqual([]);
    } finally {
      clock = NOW;
    }
  });

  it('stops answering for the public when the subscription ends, even with a fresh answer in hand', async () => {
    const c = await bookableCompany(t, { name: 'Ending Soon' });
    await t.db
      .updateTable('companies')
      .set({ subscription_expires_at: '2026-11-23T12:00:00.000Z' })
      .where('id', '=', c.companyId)
      .execute();
    const ask = () => t.call('GET', `/appointments/available-dates?company_id=${c.companyId}&service_type_id=${c.serviceId}`);
    try {
      expect((await ask()).status).toBe(200);
      clock = new Date('2026-11-23T12:00:01.000Z');
      const after = await ask();
      expect(after.status).toBe(403);
      expect(after.body.code).toBe('not_accepting_bookings');
      // Staff of the company still see their availability.
      expect(
        (
          await t.call('GET', `/appointments/available-dates?company_id=${c.companyId}&service_type_id=${c.serviceId}`, {
            token: c.admin.token,
          })
        ).status,
      ).toBe(200);
    } finally {
      clock = NOW;
    }
  });
});

// docs/decisions/35-sqlite-group-commit.md: answers computed while a group of transactions was still
// open may hold its writes; should its commit fail, those writes never happened and nothing cached stays.
describe('cached availability answers after a failed SQLite group commit', () => {
  let t: TestServer;
  let co: BookableCompany;
  beforeAll(async () => {
    // Every turn's transactions grouped, as a busy server's are.
    t = await startTestServer('sqlite', { now: () => NOW, connectOptions: { groupCommit: 'always' } });
    co = await bookableCompany(t, { name: 'Lost Commit Cuts', timezone: 'Europe/London' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('forgets every cached answer and remembered setting', async () => {
    const slots = async () =>
      (await t.call('GET', `/appointments/available-slots?company_id=${co.companyId}&service_type_id=${co.serviceId}&date=2026-11-24`)).body
        .slots;
    const before = await slots();
    const { availabilityCache, settingsMemo } = t.server.deps;
    expect(availabilityCache!.size).toBeGreaterThan(0);
    expect(settingsMemo!.size).toBeGreaterThan(0);
    // A deferred foreign key fails the group at COMMIT.
    await expect(
      t.db.transaction().execute(async (tx) => {
        await sql`pragma defer_foreign_keys = on`.execute(tx);
        await tx.insertInto('appointment_service_types').values({ appointment_id: 987654, service_type_id: co.serviceId }).execute();
      }),
    ).rejects.toThrow(/FOREIGN KEY/);
    expect(availabilityCache!.size).toBe(0);
    expect(settingsMemo!.size).toBe(0);
    expect(await slots()).toEqual(before);
  });
});
