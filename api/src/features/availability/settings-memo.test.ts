// The settings memo (lib/settings-memo.ts, docs/decisions/28-availability-generation.md "Settings
// generation"), on every dialect, with the answer cache off so every answer is computed: the
// company's set-up is read once per settings generation, every change to it shows in the next
// answer, and bookings (which never move that generation) show at once because appointments are
// always read. The settings generation moves with set-up writes only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availabilityGenerations } from '@bookwell/db';
import { createTestDatabase, testDialects, type TestDatabase } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { bookableCompany, customerContact, setHours, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { addPerson } from '../../testing/company-people.ts';

// Monday 23 November 2026, 08:00 UTC; the company is open 09:00-17:00 UTC every day.
const NOW = new Date('2026-11-23T08:00:00.000Z');
const DAY = '2026-11-25'; // a Wednesday (ISO weekday 3)

describe.each(testDialects())('settings memo on %s', (dialect) => {
  let database: TestDatabase;
  let t: TestServer;
  let a: BookableCompany;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    t = await startTestServer(dialect, { now: () => NOW, database, env: { AVAILABILITY_CACHE: 'off' } });
    a = await bookableCompany(t, { name: 'Memo Salon', timezone: 'UTC', employeeBooking: true });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const ok = (status: number) => (res: { status: number; text: string }) => expect(res.status, res.text).toBe(status);
  const offered = async (employee?: number) => {
    const who = employee === undefined ? '' : `&employee_id=${employee}`;
    const res = await t.call(
      'GET',
      `/appointments/available-slots?company_id=${a.companyId}&service_type_id=${a.serviceId}&date=${DAY}${who}`,
    );
    ok(200)(res);
    return res.body.slots.map((s: { value: string }) => s.value) as string[];
  };
  const dates = async () => {
    const res = await t.call('GET', `/appointments/available-dates?company_id=${a.companyId}&service_type_id=${a.serviceId}`);
    ok(200)(res);
    return res.body.dates as string[];
  };
  const generations = async () => (await availabilityGenerations(t.db, a.companyId))!;

  it('is used: asking again reads the set-up from the memo', async () => {
    const memo = t.server.deps.settingsMemo!;
    expect(memo).not.toBeNull();
    expect(t.server.deps.availabilityCache).toBeNull();
    await offered();
    const held = memo.size;
    expect(held).toBeGreaterThan(0);
    await offered();
    expect(memo.size, 'nothing new loaded for the same question').toBe(held);
  });

  it("holds one read of the booking window's date overrides for every date's slots and the date picker", async () => {
    const memo = t.server.deps.settingsMemo!;
    await offered();
    const held = memo.size;
    const slotsOn = async (date: string) =>
      ok(200)(await t.call('GET', `/appointments/available-slots?company_id=${a.companyId}&service_type_id=${a.serviceId}&date=${date}`));
    await slotsOn('2026-11-26');
    await slotsOn('2026-12-03');
    await dates();
    expect(memo.size, 'no read of its own for another date').toBe(held);
  });

  it('shows every change to hours, date overrides, services and settings in the next answer', async () => {
    expect((await offered()).at(-1)).toBe('16:30');
    await setHours(t, a.admin.token, { day_of_week: 3, open_time: '09:00', close_time: '12:00' });
    expect((await offered()).at(-1)).toBe('11:30');

    const closed = await t.call('POST', '/date-overrides', {
      token: a.admin.token,
      body: { date: DAY, is_closed: true, note: 'Stocktake' },
    });
    ok(201)(closed);
    expect(await offered()).toEqual([]);
    expect(await dates()).not.toContain(DAY);
    ok(204)(await t.call('DELETE', `/date-overrides/${closed.body.id}`, { token: a.admin.token }));
    expect((await offered()).at(-1)).toBe('11:30');
    expect(await dates()).toContain(DAY);

    ok(200)(await t.call('PATCH', `/service-types/${a.serviceId}`, { token: a.admin.token, body: { duration_minutes: 60 } }));
    expect((await offered()).at(-1)).toBe('11:00');
    ok(200)(await t.call('PATCH', `/companies/${a.companyId}`, { token: a.admin.token, body: { booking_window_days: 1 } }));
    expect(await offered()).toEqual([]);
    ok(200)(await t.call('PATCH', `/companies/${a.companyId}`, { token: a.admin.token, body: { booking_window_days: 30 } }));
    expect((await offered()).at(-1)).toBe('11:00');

    // Who performs the service: only the employee, and then the employee archived.
    ok(200)(await t.call('PATCH', `/service-types/${a.serviceId}`, { token: a.admin.token, body: { employee_ids: [a.employee.id] } }));
    expect(await offered(a.manager.id)).toEqual([]);
    expect((await offered(a.employee.id)).at(-1)).toBe('11:00');
    ok(200)(await t.call('PATCH', `/service-types/${a.serviceId}`, { token: a.admin.token, body: { employee_ids: [] } }));
    expect((await offered(a.manager.id)).at(-1)).toBe('11:00');
  });

  it('shows bookings at once, a booking longer than any before included, without moving the settings generation', async () => {
    const book = async (start: string) =>
      ok(201)(
        await t.call('POST', '/appointments', {
          body: {
            company_id: a.companyId,
            service_type_ids: [a.serviceId],
            employee_id: a.employee.id,
            start_time: start,
            customer: customerContact(),
          },
        }),
      );
    expect((await offered(a.employee.id)).slice(0, 2)).toEqual(['09:00', '09:30']);
    // The company's first booking sets its longest appointment (a setting the answers read).
    await book(`${DAY}T09:00:00Z`);
    expect(await offered(a.employee.id)).not.toContain('09:00');
    const before = await generations();
    await book(`${DAY}T11:00:00Z`);
    const after = await generations();
    expect(after.availability).toBeGreaterThan(before.availability);
    expect(after.settings, 'a booking no longer than the longest moves no setting').toBe(before.settings);
    expect(await offered(a.employee.id)).not.toContain('11:00');

    // A staff booking of 22 hours from the day before reaches into the morning: further back than the
    // company's longest appointment so far, which the answers' reads look back by.
    ok(200)(await t.call('PATCH', `/service-types/${a.serviceId}`, { token: a.admin.token, body: { available_slots: 5 } }));
    expect(await offered(a.manager.id)).toContain('09:00');
    const long = await t.call('POST', '/appointments', {
      token: a.admin.token,
      body: {
        company_id: a.companyId,
        user_id: a.customer.id,
        employee_id: a.manager.id,
        service_type_ids: [a.serviceId],
        start_time: '2026-11-24T12:00:00Z',
        end_time: `${DAY}T10:00:00Z`,
      },
    });
    ok(201)(long);
    const offeredManager = await offered(a.manager.id);
    expect(offeredManager).not.toContain('09:00');
    expect(offeredManager).not.toContain('09:30');
    expect(offeredManager).toContain('10:00');
  });

  it('moves the settings generation with set-up writes only', async () => {
    const moves = async (write: () => Promise<unknown>) => {
      const before = await generations();
      await write();
      return (await generations()).settings !== before.settings;
    };
    expect(await moves(() => setHours(t, a.admin.token, { day_of_week: 4, open_time: '10:00', close_time: '16:00' }))).toBe(true);
    expect(await moves(() => addPerson(t, a.companyId, 'employee', 'Another Stylist'))).toBe(true);
    expect(await moves(() => addPerson(t, a.companyId, 'customer', 'Another Customer'))).toBe(false);
    expect(
      await moves(async () =>
        ok(200)(await t.call('PATCH', `/companies/${a.companyId}`, { token: a.admin.token, body: { min_notice_minutes: 30 } })),
      ),
    ).toBe(true);
    expect(
      await moves(async () =>
        ok(200)(await t.call('PATCH', `/companies/${a.companyId}`, { token: a.admin.token, body: { name: 'Memo Salon and Co' } })),
      ),
    ).toBe(false);
  });
});
