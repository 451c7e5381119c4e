// Property-based tests of the availability rules: invariants on random days, and agreement with a brute-force luxon reference.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  bookableSlots,
  bookingConflict,
  chooseEmployee,
  firstBookableStart,
  slotsForAnyEmployee,
  windowDates,
  type BusyAppointment,
  type DayHours,
  type Slot,
  type SlotQuery,
} from './availability.ts';
import { localDayBounds } from '../../lib/zoned-time.ts';

const MINUTE = 60_000;
const SERVICE = 1;
const EMPLOYEE = 1;

// Each zone with its two DST days and an ordinary day.
const DAYS: Record<string, string[]> = {
  'America/New_York': ['2026-03-08', '2026-11-01', '2026-06-17'],
  'Europe/London': ['2026-03-29', '2026-10-25', '2026-01-14'],
  'Australia/Lord_Howe': ['2026-04-05', '2026-10-04', '2026-07-21'],
};
const ZONES = Object.keys(DAYS);

// ---------------------------------------------------------------------------
// Reference: the local clock of every minute around the day, read one instant at a time through luxon.

interface Clock {
  dayStart: number;
  /** wall minute of the day -> first instant showing it */
  firstInstant: Map<number, number>;
  /** first instant at which the local clock shows `minute` of this day or later (1440 = next midnight) */
  reaching(minute: number): number;
}

const clocks = new Map<string, Clock>();

function clockOf(zone: string, date: string): Clock {
  const key = `${zone} ${date}`;
  const hit = clocks.get(key);
  if (hit) return hit;
  const midnight = Date.parse(`${date}T00:00:00.000Z`);
  const instants: number[] = [];
  const walls: number[] = []; // local wall clock as if UTC
  const firstInstant = new Map<number, number>();
  // These zones change offset on whole minutes, so a minute-by-minute scan sees every local time.
  for (let t = midnight - 15 * 60 * MINUTE; t <= midnight + 39 * 60 * MINUTE; t += MINUTE) {
    const local = DateTime.fromMillis(t, { zone });
    instants.push(t);
    walls.push(t + local.offset * MINUTE);
    if (local.toISODate() === date) {
      const m = local.hour * 60 + local.minute;
      if (!firstInstant.has(m)) firstInstant.set(m, t);
    }
  }
  const reaching = (minute: number) => {
    const i = walls.findIndex((w) => w >= midnight + minute * MINUTE);
    return instants[i];
  };
  const clock = { dayStart: reaching(0), firstInstant, reaching };
  clocks.set(key, clock);
  return clock;
}

const toMinutes = (hhmm: string, close: boolean) => {
  const m = Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  return close && (m === 0 || m === 1440) ? 1440 : m;
};
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

interface Busy {
  a: BusyAppointment;
  start: number;
  end: number;
}

/**
 * Booked appointments that occupy time, as the instants they hold (buffers included): an empty one
 * (end = start) holds nothing, even for its employee.
 */
function booked(q: SlotQuery): Busy[] {
  return q.appointments
    .filter((a) => a.status !== 'cancelled' && Date.parse(a.end) > Date.parse(a.start))
    .map((a) => ({
      a,
      start: Date.parse(a.start) - (a.bufferBeforeMinutes ?? 0) * MINUTE,
      end: Date.parse(a.end) + (a.bufferAfterMinutes ?? 0) * MINUTE,
    }));
}

/** The hours as a list of intervals ([] when closed). */
function intervalList(h: SlotQuery['companyHours'] | undefined): DayHours[] {
  if (h === null || h === undefined) return [];
  return Array.isArray(h) ? [...(h as DayHours[])] : [h as DayHours];
}

/** The hours as minute intervals, those that touch (one closes as the next opens) joined into one opening. */
function openings(h: SlotQuery['companyHours'] | undefined): { open: number; close: number }[] {
  const list = intervalList(h)
    .map((i) => ({ open: toMinutes(i.open, false), close: toMinutes(i.close, true) }))
    .sort((x, y) => x.open - y.open || x.close - y.close);
  const out: { open: number; close: number }[] = [];
  for (const i of list) {
    const last = out.at(-1);
    if (last && last.close === i.open && i.close > i.open) last.close = i.close;
    else out.push(i);
  }
  return out;
}

/** Most appointments of the service running at one instant inside [s, e): the count only rises at s or at an appointment's start. */
function peak(q: SlotQuery, s: number, e: number): number {
  const service = booked(q).filter((b) => b.a.serviceTypeIds.includes(q.serviceTypeId));
  const points = [s, ...service.map((b) => b.start).filter((p) => p > s && p < e)];
  return Math.max(0, ...points.map((p) => service.filter((b) => b.start <= p && p < b.end).length));
}

/** The employee's appointments that forbid [s, e): any overlap except the same single service starting at s. */
function employeeClashes(q: SlotQuery, s: number, e: number, ownStart: number = s): Busy[] {
  if (q.employeeId == null) return [];
  return booked(q).filter(
    (b) =>
      b.a.employeeId === q.employeeId &&
      b.start < e &&
      b.end > s &&
      !(Date.parse(b.a.start) === ownStart && b.a.serviceTypeIds.length > 0 && b.a.serviceTypeIds.every((id) => id === q.serviceTypeId)),
  );
}

function todayIn(zone: string, now: Date): string {
  return DateTime.fromJSDate(now, { zone }).toISODate()!;
}

function lastWindowDay(zone: string, now: Date, windowDays: number): string {
  return DateTime.fromJSDate(now, { zone })
    .startOf('day')
    .plus({ days: windowDays - 1 })
    .toISODate()!;
}

/**
 * Brute-force bookableSlots: every wall minute of the day checked against the rules one by one: on the
 * grid of one company interval and inside it, inside one of the employee's intervals, not sooner than
 * the notice, and its held range (buffers included) clear of full capacity and of the employee.
 */
function referenceSlots(q: SlotQuery): Slot[] {
  const windowDays = q.windowDays ?? 30;
  const company = openings(q.companyHours);
  const personal = q.employeeHours === undefined ? [{ open: 0, close: 1440 }] : openings(q.employeeHours);
  if (company.length === 0 || personal.length === 0 || windowDays < 1) return [];
  if (q.date < todayIn(q.timezone, q.now) || q.date > lastWindowDay(q.timezone, q.now, windowDays)) return [];
  const clock = clockOf(q.timezone, q.date);
  const before = (q.bufferBeforeMinutes ?? 0) * MINUTE;
  const after = (q.bufferAfterMinutes ?? 0) * MINUTE;
  const out: Slot[] = [];
  for (let m = 0; m < 1440; m++) {
    const s = clock.firstInstant.get(m);
    if (s === undefined) continue;
    const e = s + q.durationMinutes * MINUTE;
    const inside = (iv: { open: number; close: number }) =>
      m >= iv.open && m < iv.close && s >= clock.reaching(iv.open) && e <= clock.reaching(iv.close);
    if (!company.some((c) => inside(c) && (m - c.open) % q.incrementMinutes === 0)) continue;
    if (!personal.some(inside)) continue;
    if (s < q.now.getTime() + (q.minNoticeMinutes ?? 0) * MINUTE) continue;
    if (peak(q, s - before, e + after) >= q.capacity || employeeClashes(q, s - before, e + after, s).length > 0) continue;
    const h = Math.floor(m / 60);
    out.push({
      value: hhmm(m),
      label: `${h % 12 || 12}:${hhmm(m).slice(3)} ${h < 12 ? 'AM' : 'PM'}`,
      start: new Date(s).toISOString(),
      end: new Date(e).toISOString(),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Arbitraries

const minuteOfDay = fc.oneof(
  fc.integer({ min: 0, max: 95 }).map((q) => q * 15), // on the quarter hour, the common case
  fc.integer({ min: 0, max: 1439 }),
);

const singleHoursArb: fc.Arbitrary<DayHours> = fc
  .tuple(minuteOfDay, fc.oneof(fc.integer({ min: 15, max: 1440 }), fc.integer({ min: -120, max: 0 })), fc.boolean())
  .map(([open, length, alt]) => {
    const close = Math.min(open + length, 1440);
    return {
      open: hhmm(open),
      close: close === 1440 ? (alt ? '24:00' : '00:00') : alt ? `${hhmm(Math.max(close, 0))}:00` : hhmm(Math.max(close, 0)),
    };
  });

/** Two or three non-overlapping intervals (breaks between them), as the hours API stores them. */
const breaksArb: fc.Arbitrary<DayHours[]> = fc
  .uniqueArray(
    fc.oneof(
      fc.integer({ min: 0, max: 96 }).map((q) => q * 15),
      fc.integer({ min: 0, max: 1440 }),
    ),
    {
      minLength: 4,
      maxLength: 6,
    },
  )
  .map((points) => {
    const sorted = points.sort((x, y) => x - y);
    const out: DayHours[] = [];
    for (let i = 0; i + 1 < sorted.length; i += 2)
      out.push({ open: hhmm(sorted[i]), close: sorted[i + 1] === 1440 ? '24:00' : hhmm(sorted[i + 1]) });
    return out;
  });

/** Two or three intervals end to end (09:00-12:00, 12:00-14:30, ...), which the hours API accepts as not overlapping. */
const touchingArb: fc.Arbitrary<DayHours[]> = fc
  .uniqueArray(
    fc.integer({ min: 0, max: 96 }).map((q) => q * 15),
    { minLength: 3, maxLength: 4 },
  )
  .map((points) => {
    const sorted = points.sort((x, y) => x - y);
    const out: DayHours[] = [];
    for (let i = 0; i + 1 < sorted.length; i++)
      out.push({ open: hhmm(sorted[i]), close: sorted[i + 1] === 1440 ? '24:00' : hhmm(sorted[i + 1]) });
    return out;
  });

const hoursArb: fc.Arbitrary<DayHours | DayHours[]> = fc.oneof(
  singleHoursArb,
  singleHoursArb,
  breaksArb,
  touchingArb,
  fc.constant<DayHours[]>([]),
);
const bufferArb = fc.oneof(fc.constant(0), fc.constant(0), fc.constantFrom(5, 15, 30), fc.integer({ min: 0, max: 240 }));

/** A query for one of the zone's days, with appointments around that day. */
function queryArb(zone: string): fc.Arbitrary<SlotQuery> {
  return fc
    .record({
      date: fc.constantFrom(...DAYS[zone]),
      incrementMinutes: fc.constantFrom(15, 30, 45, 60),
      durationMinutes: fc.oneof(fc.constantFrom(15, 30, 45, 60, 90, 120), fc.integer({ min: 1, max: 300 })),
      companyHours: fc.option(hoursArb, { freq: 8, nil: null }),
      employeeHours: fc.oneof(fc.constant(undefined), fc.constant(null), hoursArb, hoursArb),
      employeeId: fc.option(fc.constant(EMPLOYEE), { freq: 2, nil: undefined }),
      capacity: fc.integer({ min: 1, max: 4 }),
      windowDays: fc.option(fc.integer({ min: 1, max: 31 }), { nil: undefined }),
      minNoticeMinutes: fc.option(fc.oneof(fc.constantFrom(30, 120, 1440), fc.integer({ min: 0, max: 10080 })), {
        freq: 2,
        nil: undefined,
      }),
      bufferBefore: bufferArb,
      bufferAfter: bufferArb,
      nowOffsetMinutes: fc.oneof(fc.integer({ min: -3 * 1440, max: 1440 }), fc.constant(-40 * 1440)),
      appointments: fc.array(
        fc.record({
          startMinutes: fc.oneof(
            fc.integer({ min: -16, max: 104 }).map((q) => q * 15),
            fc.integer({ min: -240, max: 1560 }),
          ),
          lengthMinutes: fc.oneof(fc.constantFrom(15, 30, 60, 90), fc.integer({ min: 0, max: 240 })),
          employeeId: fc.constantFrom(null, EMPLOYEE, 2),
          serviceTypeIds: fc.oneof(fc.constant<number[]>([SERVICE]), fc.subarray([1, 2, 3], { minLength: 1 })),
          cancelled: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
          bufferBefore: bufferArb,
          bufferAfter: bufferArb,
        }),
        { maxLength: 25 },
      ),
    })
    .map((r) => {
      const dayStart = clockOf(zone, r.date).dayStart;
      const iso = (t: number) => new Date(t).toISOString();
      return {
        timezone: zone,
        date: r.date,
        now: new Date(dayStart + r.nowOffsetMinutes * MINUTE),
        incrementMinutes: r.incrementMinutes,
        durationMinutes: r.durationMinutes,
        windowDays: r.windowDays,
        minNoticeMinutes: r.minNoticeMinutes,
        bufferBeforeMinutes: r.bufferBefore,
        bufferAfterMinutes: r.bufferAfter,
        companyHours: r.companyHours,
        employeeHours: r.employeeHours,
        serviceTypeId: SERVICE,
        capacity: r.capacity,
        employeeId: r.employeeId,
        appointments: r.appointments.map((a, i) => ({
          id: i + 1,
          start: iso(dayStart + a.startMinutes * MINUTE),
          end: iso(dayStart + (a.startMinutes + a.lengthMinutes) * MINUTE),
          employeeId: a.employeeId,
          serviceTypeIds: a.serviceTypeIds,
          bufferBeforeMinutes: a.bufferBefore,
          bufferAfterMinutes: a.bufferAfter,
          ...(a.cancelled ? { status: 'cancelled' } : {}),
        })),
      };
    });
}

const RUNS = 400;

describe.each(ZONES)('bookableSlots properties in %s', (zone) => {
  it('agrees with the brute-force luxon reference', () => {
    fc.assert(
      fc.property(queryArb(zone), (q) => {
        expect(bookableSlots(q)).toEqual(referenceSlots(q));
      }),
      { numRuns: RUNS },
    );
  });

  it("the date picker's first start is the reference's first slot, or null when it has none", () => {
    fc.assert(
      fc.property(queryArb(zone), (q) => {
        const first = referenceSlots(q)[0];
        expect(firstBookableStart(q)).toBe(first ? Date.parse(first.start) : null);
      }),
      { numRuns: RUNS },
    );
  });

  it('every slot is a real local time of the day inside company and employee hours, not before now, inside the window', () => {
    fc.assert(
      fc.property(queryArb(zone), (q) => {
        const clock = clockOf(q.timezone, q.date);
        for (const slot of bookableSlots(q)) {
          const start = DateTime.fromISO(slot.start, { zone });
          expect(start.toISODate()).toBe(q.date);
          expect(start.toFormat('HH:mm')).toBe(slot.value);
          expect(start.setLocale('en-US').toFormat('h:mm a')).toBe(slot.label);
          expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(q.durationMinutes * MINUTE);
          expect(Date.parse(slot.start)).toBeGreaterThanOrEqual(q.now.getTime() + (q.minNoticeMinutes ?? 0) * MINUTE);
          expect(slot.start).toBe(new Date(Date.parse(slot.start)).toISOString());
          const minute = toMinutes(slot.value, false);
          for (const hours of [q.companyHours, q.employeeHours]) {
            if (hours === undefined) continue;
            // Inside one whole opening: never across a break.
            const within = openings(hours).filter((h) => minute >= h.open && Date.parse(slot.end) <= clock.reaching(h.close));
            expect(within.length).toBeGreaterThan(0);
          }
          // Repeated wall times are offered at their first occurrence.
          expect(Date.parse(slot.start)).toBe(clock.firstInstant.get(minute));
          expect(slot.start >= new Date(clock.dayStart).toISOString()).toBe(true);
          expect(windowDates(zone, q.now, q.windowDays ?? 30)).toContain(q.date);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('"any employee": the offered times are the union of the reference for each candidate, and the chosen one can take it', () => {
    fc.assert(
      fc.property(queryArb(zone), fc.array(fc.oneof(fc.constant(undefined), hoursArb), { maxLength: 3 }), (q, hoursList) => {
        const candidates = hoursList.map((hours, i) => ({ id: i + 1, hours }));
        const expected = new Map<string, Slot>();
        for (const c of candidates)
          for (const s of referenceSlots({ ...q, employeeId: c.id, employeeHours: c.hours })) expected.set(s.start, s);
        const slots = slotsForAnyEmployee(q, candidates);
        expect(slots).toEqual([...expected.values()].sort((x, y) => Date.parse(x.start) - Date.parse(y.start)));
        for (const slot of slots) {
          const chosen = chooseEmployee(q, candidates, slot.start, new Map());
          expect(chosen).not.toBeNull();
          const c = candidates.find((x) => x.id === chosen)!;
          expect(referenceSlots({ ...q, employeeId: c.id, employeeHours: c.hours }).map((s) => s.start)).toContain(slot.start);
        }
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it('slots are strictly increasing in time and value', () => {
    fc.assert(
      fc.property(queryArb(zone), (q) => {
        const slots = bookableSlots(q);
        for (let i = 1; i < slots.length; i++) {
          expect(Date.parse(slots[i].start)).toBeGreaterThan(Date.parse(slots[i - 1].start));
          expect(slots[i].value > slots[i - 1].value).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('no slot overlaps a period where capacity is full, or a non-group appointment of the chosen employee', () => {
    fc.assert(
      fc.property(queryArb(zone), (q) => {
        const before = (q.bufferBeforeMinutes ?? 0) * MINUTE;
        const after = (q.bufferAfterMinutes ?? 0) * MINUTE;
        for (const slot of bookableSlots(q)) {
          const s = Date.parse(slot.start);
          const e = Date.parse(slot.end);
          expect(peak(q, s - before, e + after)).toBeLessThan(q.capacity);
          expect(employeeClashes(q, s - before, e + after, s)).toEqual([]);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('bookingConflict agrees: offered slots have no conflict, slots removed only by bookings have one', () => {
    fc.assert(
      fc.property(queryArb(zone), (q) => {
        const offered = bookableSlots(q);
        const serviceTypes = [{ id: q.serviceTypeId, capacity: q.capacity }];
        const employeeId = q.employeeId ?? null;
        const buffers = { bufferBeforeMinutes: q.bufferBeforeMinutes, bufferAfterMinutes: q.bufferAfterMinutes };
        for (const slot of offered) {
          expect(
            bookingConflict({ start: slot.start, end: slot.end, serviceTypes, employeeId, appointments: q.appointments, ...buffers }),
          ).toBeNull();
        }
        const offeredStarts = new Set(offered.map((s) => s.start));
        for (const slot of bookableSlots({ ...q, appointments: [] })) {
          if (offeredStarts.has(slot.start)) continue;
          expect(
            bookingConflict({ start: slot.start, end: slot.end, serviceTypes, employeeId, appointments: q.appointments, ...buffers }),
          ).not.toBeNull();
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('localDayBounds and windowDates match luxon', () => {
    fc.assert(
      fc.property(fc.integer({ min: -400, max: 800 }), fc.integer({ min: 0, max: 1439 }), (dayOffset, minute) => {
        const date = DateTime.fromISO('2026-01-01', { zone: 'utc' }).plus({ days: dayOffset }).toISODate()!;
        const day = DateTime.fromISO(date, { zone });
        expect(localDayBounds(zone, date)).toEqual({
          start: day.startOf('day').toUTC().toISO(),
          end: day.plus({ days: 1 }).startOf('day').toUTC().toISO(),
        });
        const now = day.startOf('day').plus({ minutes: minute });
        const dates = windowDates(zone, now.toJSDate(), 3);
        expect(dates).toEqual([0, 1, 2].map((i) => now.plus({ days: i }).toISODate()));
      }),
      { numRuns: 200 },
    );
  });
});

describe('bookingConflict properties', () => {
  it('is the naive check: peak of each service against its capacity, then the employee rule', () => {
    const arb = fc.record({
      start: fc.integer({ min: 0, max: 40 }),
      length: fc.integer({ min: 1, max: 12 }),
      capacities: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 })),
      services: fc.subarray([1, 2], { minLength: 1 }),
      employeeId: fc.constantFrom(null, 1),
      ignore: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
      appointments: fc.array(
        fc.record({
          start: fc.integer({ min: 0, max: 48 }),
          length: fc.integer({ min: 1, max: 12 }),
          employeeId: fc.constantFrom(null, 1, 2),
          serviceTypeIds: fc.subarray([1, 2], { minLength: 1 }),
          cancelled: fc.boolean(),
        }),
        { maxLength: 10 },
      ),
    });
    const base = Date.parse('2026-05-01T08:00:00.000Z');
    const at = (quarter: number) => new Date(base + quarter * 15 * MINUTE).toISOString();
    fc.assert(
      fc.property(arb, (r) => {
        const appointments: BusyAppointment[] = r.appointments.map((a, i) => ({
          id: i + 1,
          start: at(a.start),
          end: at(a.start + a.length),
          employeeId: a.employeeId,
          serviceTypeIds: a.serviceTypeIds,
          status: a.cancelled ? 'cancelled' : 'booked',
        }));
        const serviceTypes = r.services.map((id) => ({ id, capacity: r.capacities[id - 1] }));
        const s = r.start;
        const e = r.start + r.length;
        const live = r.appointments.filter((a, i) => !a.cancelled && i + 1 !== r.ignore);
        let expected: string | null = null;
        for (const st of serviceTypes) {
          // Quarter-hour grid: checking each quarter inside [s, e) finds the peak.
          for (let t = s; t < e && expected === null; t++) {
            const running = live.filter((a) => a.serviceTypeIds.includes(st.id) && a.start <= t && t < a.start + a.length).length;
            if (running >= st.capacity) expected = 'capacity';
          }
        }
        if (expected === null && r.employeeId !== null) {
          const same = (ids: number[]) => ids.length === r.services.length && ids.every((id) => r.services.includes(id));
          const clash = live.some(
            (a) => a.employeeId === r.employeeId && a.start < e && a.start + a.length > s && !(a.start === s && same(a.serviceTypeIds)),
          );
          if (clash) expected = 'employee_busy';
        }
        expect(
          bookingConflict({
            start: at(s),
            end: at(e),
            serviceTypes,
            employeeId: r.employeeId,
            appointments,
            ignoreAppointmentId: r.ignore,
          }),
        ).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});
