// The scheduling rules of docs/decisions/27-scheduling-rules.md, one example at a time: breaks, date
// overrides (closures, special hours, time off), buffers, minimum notice and booking window, in the
// pure engine and over HTTP on every test dialect (available-slots, available-dates and bookings).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { bookableSlots, bookingConflict, chooseEmployee, slotsForAnyEmployee, type SlotQuery } from './availability.ts';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addService, bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';

const LONDON = 'Europe/London';
const NEW_YORK = 'America/New_York';

function query(overrides: Partial<SlotQuery> = {}): SlotQuery {
  return {
    timezone: LONDON,
    date: '2026-06-15',
    now: new Date('2026-06-08T00:00:00.000Z'),
    incrementMinutes: 30,
    durationMinutes: 30,
    companyHours: { open: '09:00', close: '17:00' },
    serviceTypeId: 1,
    capacity: 1,
    appointments: [],
    ...overrides,
  };
}
const values = (q: Partial<SlotQuery>) => bookableSlots(query(q)).map((s) => s.value);
/** 2026-06-15 London wall time (BST) as an ISO instant. */
const bst = (hhmm: string) => new Date(Date.parse(`2026-06-15T${hhmm}:00.000Z`) - 3600_000).toISOString();

describe('breaks (engine)', () => {
  const lunch = [
    { open: '09:00', close: '12:00' },
    { open: '13:00', close: '17:00' },
  ];

  it('a slot fits inside one interval: none crosses the break', () => {
    const v = values({ companyHours: lunch, durationMinutes: 60 });
    expect(v).toContain('11:00');
    expect(v).not.toContain('11:30');
    expect(v).not.toContain('12:00');
    expect(v).not.toContain('12:30');
    expect(v).toContain('13:00');
    expect(v.at(-1)).toBe('16:00');
  });

  it("intervals that touch are one opening: a slot runs across the join, on the first one's grid", () => {
    const touching = [
      { open: '12:00', close: '17:00' },
      { open: '09:00', close: '12:00' },
    ];
    const v = values({ companyHours: touching, durationMinutes: 60 });
    expect(v).toEqual(values({ companyHours: { open: '09:00', close: '17:00' }, durationMinutes: 60 }));
    expect(v).toContain('11:30');
    expect(
      values({ companyHours: { open: '09:00', close: '17:00' }, employeeId: 7, employeeHours: touching, durationMinutes: 60 }),
    ).toContain('11:30');
    // A gap of one minute is a break.
    expect(values({ companyHours: [touching[1], { open: '12:01', close: '17:00' }], durationMinutes: 60 })).not.toContain('11:30');
  });

  it("each interval anchors its own grid; the employee's breaks narrow the company's", () => {
    expect(
      values({
        companyHours: [
          { open: '09:00', close: '10:00' },
          { open: '10:10', close: '11:00' },
        ],
      }),
    ).toEqual(['09:00', '09:30', '10:10']);
    expect(
      values({
        companyHours: lunch,
        employeeId: 7,
        employeeHours: [
          { open: '09:00', close: '10:00' },
          { open: '14:00', close: '15:00' },
        ],
      }),
    ).toEqual(['09:00', '09:30', '14:00', '14:30']);
    expect(values({ companyHours: [] })).toEqual([]);
    expect(values({ employeeHours: [] })).toEqual([]);
  });

  it('New York spring forward with breaks: a break ending in the missing hour ends at the jump', () => {
    const v = values({
      timezone: NEW_YORK,
      date: '2026-03-08',
      now: new Date('2026-03-01T00:00:00Z'),
      companyHours: [
        { open: '00:30', close: '02:30' },
        { open: '03:00', close: '05:00' },
      ],
    });
    // 01:30 EST + 30 min is 03:00 EDT, the instant 02:30 "reaches".
    expect(v).toEqual(['00:30', '01:00', '01:30', '03:00', '03:30', '04:00', '04:30']);
  });

  it('New York fall back with breaks: the repeated hour is offered once, the break holds', () => {
    const slots = bookableSlots(
      query({
        timezone: NEW_YORK,
        date: '2026-11-01',
        now: new Date('2026-10-25T00:00:00Z'),
        companyHours: [
          { open: '00:00', close: '01:30' },
          { open: '02:00', close: '03:00' },
        ],
      }),
    );
    expect(slots.map((s) => s.value)).toEqual(['00:00', '00:30', '01:00', '02:00', '02:30']);
    expect(slots[2].start).toBe('2026-11-01T05:00:00.000Z'); // 01:00 EDT, the first occurrence
    expect(slots[3].start).toBe('2026-11-01T07:00:00.000Z'); // 02:00 EST
  });
});

describe('buffers (engine)', () => {
  const busy = (start: string, end: string, extra = {}) => ({
    start: bst(start),
    end: bst(end),
    employeeId: null,
    serviceTypeIds: [1],
    ...extra,
  });

  it("an appointment's buffer after holds the capacity; customers see only the service time", () => {
    const slots = bookableSlots(query({ appointments: [busy('10:00', '10:30', { bufferAfterMinutes: 15 })] }));
    const v = slots.map((s) => s.value);
    expect(v).toContain('09:30');
    expect(v).not.toContain('10:30');
    expect(v).toContain('11:00');
    expect(Date.parse(slots[0].end) - Date.parse(slots[0].start)).toBe(30 * 60_000);
  });

  it("the new booking's own buffers may not meet another's service time, and may reach outside hours", () => {
    const v = values({ bufferBeforeMinutes: 15, bufferAfterMinutes: 15, appointments: [busy('12:00', '12:30')] });
    expect(v[0]).toBe('09:00'); // its buffer before starts at 08:45, before opening
    expect(v).not.toContain('11:30');
    expect(v).not.toContain('12:30');
    expect(v).toContain('11:00');
    expect(v).toContain('13:00');
    expect(v.at(-1)).toBe('16:30');
  });

  it("an employee's buffers hold them across services, but a group session at the same start still joins", () => {
    const appointments = [busy('10:00', '10:30', { employeeId: 7, serviceTypeIds: [2], bufferAfterMinutes: 30 })];
    expect(values({ employeeId: 7, capacity: 5, appointments })).not.toContain('10:30');
    expect(values({ employeeId: 8, capacity: 5, appointments })).toContain('10:30');
    const group = [busy('10:00', '10:30', { employeeId: 7, bufferBeforeMinutes: 10, bufferAfterMinutes: 10 })];
    const v = values({ employeeId: 7, capacity: 3, bufferBeforeMinutes: 10, bufferAfterMinutes: 10, appointments: group });
    expect(v).toContain('10:00');
    expect(v).not.toContain('10:30');
    expect(v).not.toContain('09:30');
  });

  it('bookingConflict (staff) counts both holds', () => {
    const appointments = [busy('10:00', '10:30', { bufferAfterMinutes: 15 })];
    const st = [{ id: 1, capacity: 1 }];
    expect(bookingConflict({ start: bst('10:30'), end: bst('11:00'), serviceTypes: st, employeeId: null, appointments })).toBe('capacity');
    expect(bookingConflict({ start: bst('10:45'), end: bst('11:00'), serviceTypes: st, employeeId: null, appointments })).toBeNull();
    expect(
      bookingConflict({
        start: bst('11:00'),
        end: bst('11:30'),
        serviceTypes: st,
        employeeId: null,
        appointments,
        bufferBeforeMinutes: 16,
      }),
    ).toBe('capacity');
  });
});

describe('notice and window (engine)', () => {
  it('drops starts sooner than the notice and days past the window', () => {
    const now = new Date('2026-06-15T09:15:00.000Z'); // 10:15 BST
    expect(values({ now })[0]).toBe('10:30');
    expect(values({ now, minNoticeMinutes: 120 })[0]).toBe('12:30');
    expect(values({ now, minNoticeMinutes: 24 * 60 })).toEqual([]);
    expect(values({ now, date: '2026-06-21', windowDays: 7 })).toHaveLength(16);
    expect(values({ now, date: '2026-06-22', windowDays: 7 })).toEqual([]);
  });
});

describe('any employee (engine)', () => {
  const appt = (start: string, end: string, employeeId: number, serviceTypeIds = [1]) => ({
    start: bst(start),
    end: bst(end),
    employeeId,
    serviceTypeIds,
  });

  it('offers a time when some qualified employee can take it', () => {
    const q = query({ capacity: 5, appointments: [appt('10:00', '11:00', 1, [2]), appt('10:00', '11:00', 2, [2])] });
    const both = [
      { id: 1, hours: undefined },
      { id: 2, hours: { open: '09:00', close: '12:00' } },
    ];
    expect(slotsForAnyEmployee(q, both).map((s) => s.value)).not.toContain('10:00');
    expect(slotsForAnyEmployee(q, both).map((s) => s.value)).toContain('12:00');
    expect(slotsForAnyEmployee(q, [{ id: 2, hours: { open: '09:00', close: '12:00' } }]).at(-1)!.value).toBe('11:30');
    expect(slotsForAnyEmployee(q, [])).toEqual([]);
    expect(slotsForAnyEmployee({ ...q, limit: 1 }, both).map((s) => s.value)).toEqual(['09:00']);
  });

  it('chooses the free one with the fewest appointments that day, ties to the lowest id, and joins a group session', () => {
    const candidates = [3, 1, 2].map((id) => ({ id, hours: undefined }));
    const q = query({ capacity: 3, appointments: [appt('09:00', '09:30', 1, [2])] });
    expect(chooseEmployee(q, candidates, bst('09:00'), new Map())).toBe(2);
    expect(chooseEmployee(q, candidates, bst('10:00'), new Map())).toBe(1);
    expect(
      chooseEmployee(
        q,
        candidates,
        bst('10:00'),
        new Map([
          [1, 2],
          [2, 1],
        ]),
      ),
    ).toBe(3);
    const group = query({ capacity: 3, appointments: [appt('10:00', '10:30', 3)] });
    expect(chooseEmployee(group, candidates, bst('10:00'), new Map([[3, 5]]))).toBe(3);
    const full = query({ capacity: 1, appointments: [appt('10:00', '10:30', 3)] });
    expect(chooseEmployee(full, candidates, bst('10:00'), new Map())).toBeNull();
  });
});

// ---------------------------------------------------------------------------
// Over HTTP, rows written directly (the hours and overrides endpoints are tested with their features).

// Monday 23 November 2026, 10:15 in London.
const NOW = new Date('2026-11-23T10:15:00.000Z');

describe.each(testDialects())('scheduling rules over HTTP on %s', (dialect) => {
  let t: TestServer;
  let clock = NOW;

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => clock });
  });
  afterAll(async () => t?.close());

  const slotValues = async (c: BookableCompany, date: string, extra = '', token?: string) => {
    const res = await t.call(
      'GET',
      `/appointments/available-slots?company_id=${c.companyId}&service_type_id=${c.serviceId}&date=${date}${extra}`,
      {
        token,
      },
    );
    expect(res.status, res.text).toBe(200);
    return res.body.slots.map((s: { value: string }) => s.value) as string[];
  };
  const dateList = async (c: BookableCompany, extra = '') => {
    const res = await t.call('GET', `/appointments/available-dates?company_id=${c.companyId}&service_type_id=${c.serviceId}${extra}`);
    expect(res.status, res.text).toBe(200);
    return res.body.dates as string[];
  };
  const book = (c: BookableCompany, start: string, extra: Record<string, unknown> = {}, token?: string) =>
    t.call('POST', '/appointments', {
      token,
      body: { company_id: c.companyId, service_type_ids: [c.serviceId], start_time: start, customer: customerContact(), ...extra },
    });
  const override = (c: BookableCompany, date: string, o: { user_id?: number; is_closed?: boolean; intervals?: [string, string][] }) =>
    t.db
      .insertInto('date_overrides')
      .values({
        company_id: c.companyId,
        user_id: o.user_id ?? null,
        date,
        is_closed: o.is_closed ? 1 : 0,
        intervals: o.intervals ? JSON.stringify(o.intervals.map(([open_time, close_time]) => ({ open_time, close_time }))) : null,
        note: 'test',
      })
      .execute();

  /** The company's Wednesday closes at noon, then these rows ([user, open, close]; null: the company's) are added. */
  const wednesdayUntilNoonThen = async (c: BookableCompany, rows: [number | null, string, string][]) => {
    await t.db
      .updateTable('operating_hours')
      .set({ close_time: '12:00:00' })
      .where('company_id', '=', c.companyId)
      .where('user_id', 'is', null)
      .where('day_of_week', '=', 3)
      .execute();
    await t.db
      .insertInto('operating_hours')
      .values(
        rows.map(([user_id, open_time, close_time]) => ({
          company_id: c.companyId,
          user_id,
          day_of_week: 3,
          open_time,
          close_time,
          is_closed: 0,
        })),
      )
      .execute();
  };

  it('a company closure removes the day from dates and slots, refuses public bookings, and still lets staff book', async () => {
    const c = await bookableCompany(t, { name: 'Holiday Salon' });
    expect(await dateList(c)).toContain('2026-12-18');
    await override(c, '2026-12-18', { is_closed: true });
    expect(await dateList(c)).not.toContain('2026-12-18');
    expect(await dateList(c)).toContain('2026-12-17');
    expect(await slotValues(c, '2026-12-18')).toEqual([]);
    const refused = await book(c, '2026-12-18T10:00:00.000Z');
    expect(refused.status, refused.text).toBe(400);
    const staff = await book(c, '2026-12-18T10:00:00.000Z', {}, c.admin.token);
    expect(staff.status, staff.text).toBe(201);
  });

  it('weekday breaks (several hours rows) for the company and a person, in slots, dates and bookings', async () => {
    const c = await bookableCompany(t, { name: 'Lunch Break', employeeBooking: true });
    // Wednesdays: 09:00-12:00 and 13:00-17:00 for the company; the employee works 09:00-10:00 and 16:00-17:00.
    await wednesdayUntilNoonThen(c, [
      [null, '13:00:00', '17:00:00'],
      [c.employee.id, '09:00:00', '10:00:00'],
      [c.employee.id, '16:00:00', '17:00:00'],
    ]);
    const v = await slotValues(c, '2026-11-25');
    expect(v).toContain('11:30');
    expect(v).not.toContain('12:00');
    expect(v).not.toContain('12:30');
    expect(v).toContain('13:00');
    expect(v).toHaveLength(14);
    expect(await slotValues(c, '2026-11-25', `&employee_id=${c.employee.id}`)).toEqual(['09:00', '09:30', '16:00', '16:30']);
    expect(await dateList(c, `&employee_id=${c.employee.id}`)).toContain('2026-11-25');
    expect((await book(c, '2026-11-25T12:00:00.000Z')).status).toBe(400);
    expect((await book(c, '2026-11-25T11:00:00.000Z', { employee_id: c.employee.id })).status).toBe(400);
    expect((await book(c, '2026-11-25T16:00:00.000Z', { employee_id: c.employee.id })).status).toBe(201);
  });

  it('hours split into intervals that touch offer and book across the join', async () => {
    const c = await bookableCompany(t, { name: 'Split Day', durationMinutes: 60 });
    // Wednesdays: 09:00-12:00 and 12:00-17:00, entered as two rows.
    await wednesdayUntilNoonThen(c, [[null, '12:00:00', '17:00:00']]);
    const v = await slotValues(c, '2026-11-25');
    expect(v).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '12:00',
      '12:30',
      '13:00',
      '13:30',
      '14:00',
      '14:30',
      '15:00',
      '15:30',
      '16:00',
    ]);
    const booked = await book(c, '2026-11-25T11:30:00.000Z');
    expect(booked.status, booked.text).toBe(201);
    expect(booked.body.end_time).toBe('2026-11-25T12:30:00.000Z');
  });

  it('special hours with a break replace the weekday on that date only', async () => {
    const c = await bookableCompany(t, { name: 'Short Day' });
    await override(c, '2026-11-27', {
      intervals: [
        ['10:00:00', '11:00:00'],
        ['14:00:00', '15:00:00'],
      ],
    });
    expect(await slotValues(c, '2026-11-27')).toEqual(['10:00', '10:30', '14:00', '14:30']);
    expect(await slotValues(c, '2026-11-26')).toHaveLength(16);
    expect((await book(c, '2026-11-27T12:00:00.000Z')).status).toBe(400);
    expect((await book(c, '2026-11-27T14:30:00.000Z')).status).toBe(201);
  });

  it("a person's time off removes only their slots", async () => {
    const c = await bookableCompany(t, { name: 'Time Off', employeeBooking: true });
    await override(c, '2026-11-30', { user_id: c.employee.id, is_closed: true });
    await override(c, '2026-12-01', { user_id: c.employee.id, intervals: [['09:00:00', '10:00:00']] });
    const emp = `&employee_id=${c.employee.id}`;
    expect(await slotValues(c, '2026-11-30', emp)).toEqual([]);
    expect(await slotValues(c, '2026-11-30', `&employee_id=${c.manager.id}`)).toHaveLength(16);
    expect(await slotValues(c, '2026-11-30')).toHaveLength(16);
    expect(await slotValues(c, '2026-12-01', emp)).toEqual(['09:00', '09:30']);
    expect(await dateList(c, emp)).not.toContain('2026-11-30');
    expect((await book(c, '2026-11-30T10:00:00.000Z', { employee_id: c.employee.id })).status).toBe(400);
  });

  it('a closure on the New York daylight-saving day and special hours with a break on the other', async () => {
    clock = new Date('2027-03-01T12:00:00.000Z');
    try {
      const c = await bookableCompany(t, { name: 'NY DST Rules', timezone: NEW_YORK, open: '00:00', close: '06:00' });
      await override(c, '2027-03-14', { is_closed: true }); // spring forward
      await override(c, '2026-11-01', { intervals: [['00:00:00', '01:30:00']] }); // before the window: ignored
      const dates = await dateList(c);
      expect(dates).toContain('2027-03-13');
      expect(dates).not.toContain('2027-03-14');
      expect(dates).toContain('2027-03-15');
      expect(await slotValues(c, '2027-03-14')).toEqual([]);
    } finally {
      clock = NOW;
    }
  });

  it('buffers: the next public slot waits for the buffer; staff cannot book into it; slots show the service time', async () => {
    const c = await bookableCompany(t, { name: 'Colour Bar' });
    await t.db.updateTable('service_types').set({ buffer_after_minutes: 15 }).where('id', '=', c.serviceId).execute();
    expect((await book(c, '2026-11-24T10:00:00.000Z')).status).toBe(201);
    const v = await slotValues(c, '2026-11-24');
    expect(v).not.toContain('10:00');
    expect(v).not.toContain('10:30');
    expect(v).toContain('11:00');
    // The hold after 10:30 ends at 10:45: the 10:30 slot's own start would meet it.
    expect((await book(c, '2026-11-24T10:30:00.000Z')).status).toBe(409);
    const staff = await book(c, '2026-11-24T10:40:00.000Z', { end_time: '2026-11-24T10:50:00.000Z' }, c.admin.token);
    expect(staff.status, staff.text).toBe(409);
    const later = await book(c, '2026-11-24T11:00:00.000Z');
    expect(later.status, later.text).toBe(201);
    expect(Date.parse(later.body.end_time) - Date.parse(later.body.start_time)).toBe(30 * 60_000);
  });

  it('the widest buffer of any service is respected, however far it reaches, by every kind of booking', async () => {
    // A booking's check reads only as far as the company's widest buffers reach (not the 240-minute
    // maximum): here a 240-minute cleanup after a colour at 08:00-08:30 holds the employee to 12:30.
    const c = await bookableCompany(t, { name: 'Long Cleanup', open: '08:00', close: '17:00', employeeBooking: true });
    const colour = await addService(t, c.admin.token, { name: 'Colour', duration_minutes: 30 });
    await t.db.updateTable('service_types').set({ buffer_after_minutes: 240 }).where('id', '=', colour).execute();
    const first = await book(c, '2026-11-24T08:00:00.000Z', { service_type_ids: [colour], employee_id: c.employee.id }, c.admin.token);
    expect(first.status, first.text).toBe(201);
    const at = (time: string, extra: Record<string, unknown> = {}, token?: string) =>
      book(c, `2026-11-24T${time}:00.000Z`, { employee_id: c.employee.id, ...extra }, token);
    expect((await at('12:00', { end_time: '2026-11-24T12:30:00.000Z' }, c.admin.token)).status).toBe(409);
    expect(await slotValues(c, '2026-11-24', `&employee_id=${c.employee.id}`)).not.toContain('12:00');
    // Moving a later appointment into the hold is refused the same way.
    const later = await at('13:00', { end_time: '2026-11-24T13:30:00.000Z' }, c.admin.token);
    expect(later.status, later.text).toBe(201);
    const moved = await t.call('PATCH', `/appointments/${later.body.id}`, {
      token: c.admin.token,
      body: { start_time: '2026-11-24T12:15:00.000Z', end_time: '2026-11-24T12:45:00.000Z' },
    });
    expect(moved.status, moved.text).toBe(409);
    expect((await at('12:30', { end_time: '2026-11-24T13:00:00.000Z' }, c.admin.token)).status).toBe(201);
  });

  it("a slot's own buffer before meets a neighbour's buffer after from the day before: not offered", async () => {
    // Long buffers on both sides: a prep of 4 hours before a 00:00 slot reaches back to 20:00, where
    // a 2-hour cleanup after an 18:00-18:30 appointment the day before still holds the employee.
    const c = await bookableCompany(t, { name: 'Night Prep', open: '00:00', close: '06:00', employeeBooking: true });
    const cleanup = await addService(t, c.admin.token, { name: 'Cleanup', duration_minutes: 30 });
    await t.db.updateTable('service_types').set({ buffer_after_minutes: 120 }).where('id', '=', cleanup).execute();
    await t.db.updateTable('service_types').set({ buffer_before_minutes: 240 }).where('id', '=', c.serviceId).execute();
    const before = await book(c, '2026-11-24T18:00:00.000Z', { service_type_ids: [cleanup], employee_id: c.employee.id }, c.admin.token);
    expect(before.status, before.text).toBe(201);
    expect((await slotValues(c, '2026-11-25', `&employee_id=${c.employee.id}`))[0]).toBe('00:30');
    // The others are free at 00:00, so "any employee" offers it and gives it to one of them.
    expect(await slotValues(c, '2026-11-25')).toContain('00:00');
    expect((await book(c, '2026-11-25T00:00:00.000Z', { employee_id: c.employee.id })).status).toBe(409);
    expect((await book(c, '2026-11-25T00:30:00.000Z', { employee_id: c.employee.id })).status).toBe(201);
  });

  it('employee_ids: only assigned staff are offered and booked; "any employee" stores the least busy free one', async () => {
    const c = await bookableCompany(t, { name: 'Colour Team', employeeBooking: true, capacity: 3 });
    await t.db
      .insertInto('service_employees')
      .values([
        { service_type_id: c.serviceId, user_id: c.employee.id },
        { service_type_id: c.serviceId, user_id: c.manager.id },
      ])
      .execute();
    expect(await slotValues(c, '2026-11-24', `&employee_id=${c.admin.id}`)).toEqual([]);
    expect(await dateList(c, `&employee_id=${c.admin.id}`)).toEqual([]);
    expect(await slotValues(c, '2026-11-24', `&employee_id=${c.employee.id}`)).toHaveLength(16);
    expect((await book(c, '2026-11-24T10:00:00.000Z', { employee_id: c.admin.id })).status).toBe(400);
    const staffWrong = await book(c, '2026-11-24T10:00:00.000Z', { employee_id: c.admin.id }, c.admin.token);
    expect(staffWrong.status, staffWrong.text).toBe(400);

    const [low, high] = [c.employee.id, c.manager.id].sort((x, y) => x - y);
    // "Any employee" dates: a day both assigned employees take off is gone, a day one of them works stays.
    await override(c, '2026-12-07', { user_id: c.employee.id, is_closed: true });
    await override(c, '2026-12-07', { user_id: c.manager.id, is_closed: true });
    await override(c, '2026-12-08', { user_id: low, is_closed: true });
    const anyDates = await dateList(c);
    expect(anyDates).not.toContain('2026-12-07');
    expect(anyDates).toContain('2026-12-08');
    expect(anyDates).toContain('2026-12-06');
    expect(await slotValues(c, '2026-12-07')).toEqual([]);
    expect(await slotValues(c, '2026-12-08')).toHaveLength(16);
    const first = await book(c, '2026-11-24T10:00:00.000Z');
    expect(first.status, first.text).toBe(201);
    expect(first.body.employee_id).toBe(low);
    // The same start joins the group session of the employee holding it, while places last.
    expect((await book(c, '2026-11-24T10:00:00.000Z')).body.employee_id).toBe(low);
    // Overlapping but not the same start: the other qualified employee, never the unassigned admin.
    expect((await book(c, '2026-11-24T10:15:00.000Z', {}, undefined)).status).toBe(400); // off the grid
    const other = await book(c, '2026-11-24T09:30:00.000Z');
    expect(other.status, other.text).toBe(201);
    expect(other.body.employee_id).toBe(high);
    expect(await slotValues(c, '2026-11-24', `&employee_id=${high}`)).toContain('09:30'); // a group with places left
    // Later the same day: the one with fewer appointments that day (high has 1, low has 2).
    expect((await book(c, '2026-11-24T14:00:00.000Z')).body.employee_id).toBe(high);
    expect((await book(c, '2026-11-24T15:00:00.000Z')).body.employee_id).toBe(low);
  });

  // A performer with hours of their own on Mondays only is off on Tuesdays, not on the company's hours.
  const weeklyDayOff = async (server: TestServer) => {
    const c = await bookableCompany(server, { name: 'Day Off Team', employeeBooking: true });
    const [off, on] = [c.employee.id, c.manager.id].sort((x, y) => x - y);
    await server.db
      .insertInto('service_employees')
      .values([off, on].map((user_id) => ({ service_type_id: c.serviceId, user_id })))
      .execute();
    await server.db
      .insertInto('operating_hours')
      .values({ company_id: c.companyId, user_id: off, day_of_week: 1, open_time: '09:00:00', close_time: '17:00:00', is_closed: 0 })
      .execute();
    // Whoever else is free: the one working that day is busy at 11:00.
    const busy = await server.call('POST', '/appointments', {
      token: c.admin.token,
      body: {
        company_id: c.companyId,
        service_type_ids: [c.serviceId],
        employee_id: on,
        start_time: '2026-11-24T11:00:00.000Z',
        customer: customerContact(),
      },
    });
    expect(busy.status, busy.text).toBe(201);
    return { c, off, on };
  };
  const anyEmployeeSkipsTheDayOff = async (server: TestServer) => {
    const { c, off, on } = await weeklyDayOff(server);
    const slots = async (extra = '') =>
      (
        await server.call(
          'GET',
          `/appointments/available-slots?company_id=${c.companyId}&service_type_id=${c.serviceId}&date=2026-11-24${extra}`,
        )
      ).body.slots.map((x: { value: string }) => x.value);
    expect(await slots(`&employee_id=${off}`)).toEqual([]);
    const any = await slots();
    expect(any).toContain('10:00');
    expect(any).not.toContain('11:00');
    const bookAt = (start: string) =>
      server.call('POST', '/appointments', {
        body: { company_id: c.companyId, service_type_ids: [c.serviceId], start_time: start, customer: customerContact() },
      });
    const first = await bookAt('2026-11-24T10:00:00.000Z');
    expect(first.status, first.text).toBe(201);
    expect(first.body.employee_id).toBe(on);
    expect((await bookAt('2026-11-24T11:00:00.000Z')).status).toBe(409);
  };

  it('"any employee" never picks a performer on their weekly day off, in slots or in the booking', async () => {
    await anyEmployeeSkipsTheDayOff(t);
  });

  it('"any employee" slots skip a weekly day off also when the settings are read every request', async () => {
    const fresh = await startTestServer(dialect, { now: () => clock, env: { SETTINGS_MEMO: 'off' } });
    try {
      await anyEmployeeSkipsTheDayOff(fresh);
    } finally {
      await fresh.close();
    }
  });

  it('minimum notice and window: public answers follow the company settings, staff keep their freedom', async () => {
    const c = await bookableCompany(t, { name: 'Notice Salon' });
    await t.db.updateTable('companies').set({ min_notice_minutes: 120, booking_window_days: 7 }).where('id', '=', c.companyId).execute();
    expect((await slotValues(c, '2026-11-23'))[0]).toBe('12:30');
    expect((await slotValues(c, '2026-11-23', '', c.admin.token))[0]).toBe('10:30');
    expect(await dateList(c)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(await slotValues(c, '2026-11-30')).toEqual([]);
    expect((await book(c, '2026-11-23T11:00:00.000Z')).status).toBe(400);
    expect((await book(c, '2026-11-30T11:00:00.000Z')).status).toBe(400);
    expect((await book(c, '2026-11-23T12:30:00.000Z')).status).toBe(201);
    expect((await book(c, '2026-11-23T11:00:00.000Z', {}, c.admin.token)).status).toBe(201);
  });
});
