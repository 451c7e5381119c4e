// Example-based tests of the availability rules (docs/decisions/05-scheduling-rules.md), including exact DST days.
import { Settings } from 'luxon';
import { describe, expect, it } from 'vitest';
import { bookableSlots, bookingConflict, windowDates, type BusyAppointment, type SlotQuery } from './availability.ts';
import { isoWeekday, localDayBounds } from '../../lib/zoned-time.ts';

const LONDON = 'Europe/London';
const NEW_YORK = 'America/New_York';
const LORD_HOWE = 'Australia/Lord_Howe';

// A June Monday in London (BST, UTC+1), queried from a week before so nothing is in the past.
function query(overrides: Partial<SlotQuery> = {}): SlotQuery {
  return {
    timezone: LONDON,
    date: '2026-06-15',
    now: new Date('2026-06-08T00:00:00.000Z'),
    incrementMinutes: 30,
    durationMinutes: 30,
    companyHours: { open: '09:00', close: '12:00' },
    serviceTypeId: 1,
    capacity: 1,
    appointments: [],
    ...overrides,
  };
}

const values = (q: Partial<SlotQuery>) => bookableSlots(query(q)).map((s) => s.value);

/** An appointment on 2026-06-15 in London, given local wall times. */
function appt(start: string, end: string, extra: Partial<BusyAppointment> = {}): BusyAppointment {
  const utc = (hhmm: string) => {
    const [h, m] = hhmm.split(':').map(Number);
    return new Date(Date.UTC(2026, 5, 15, h - 1, m)).toISOString();
  };
  return { start: utc(start), end: utc(end), employeeId: null, serviceTypeIds: [1], ...extra };
}

function range(from: string, to: string, step: number): string[] {
  const toMin = (v: string) => Number(v.slice(0, 2)) * 60 + Number(v.slice(3));
  const out: string[] = [];
  for (let m = toMin(from); m <= toMin(to); m += step) {
    out.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  }
  return out;
}

describe('opening hours and the grid', () => {
  it('offers every 30 minutes from opening, with exact UTC instants', () => {
    const slots = bookableSlots(query());
    expect(slots.map((s) => s.value)).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00', '11:30']);
    expect(slots[0]).toEqual({
      value: '09:00',
      label: '9:00 AM',
      start: '2026-06-15T08:00:00.000Z',
      end: '2026-06-15T08:30:00.000Z',
    });
    expect(slots[5].end).toBe('2026-06-15T11:00:00.000Z');
  });

  it.each([
    [15, range('09:00', '11:45', 15)],
    [30, range('09:00', '11:45', 30)],
    [45, ['09:00', '09:45', '10:30', '11:15']],
    [60, ['09:00', '10:00', '11:00']],
  ])('increment %i', (incrementMinutes, expected) => {
    expect(values({ incrementMinutes, durationMinutes: 15 })).toEqual(expected);
  });

  it('keeps only starts whose whole duration fits before closing', () => {
    expect(values({ durationMinutes: 90 })).toEqual(['09:00', '09:30', '10:00', '10:30']);
    expect(values({ durationMinutes: 180 })).toEqual(['09:00']);
    expect(values({ durationMinutes: 181 })).toEqual([]);
    expect(values({ incrementMinutes: 45, durationMinutes: 50 })).toEqual(['09:00', '09:45', '10:30']);
  });

  it('anchors the grid at the opening time, not at the hour', () => {
    expect(values({ companyHours: { open: '09:10', close: '11:00' } })).toEqual(['09:10', '09:40', '10:10']);
  });

  it('accepts HH:MM:SS and rounds seconds inwards', () => {
    expect(values({ companyHours: { open: '09:00:00', close: '12:00:00' } })).toEqual(values({}));
    expect(values({ companyHours: { open: '09:00:30', close: '10:00:59' } })).toEqual(['09:01']);
  });

  it('returns nothing on a closed day or for empty hours', () => {
    expect(values({ companyHours: null })).toEqual([]);
    expect(values({ companyHours: { open: '12:00', close: '09:00' } })).toEqual([]);
    expect(values({ companyHours: { open: '10:00', close: '10:00' } })).toEqual([]);
  });

  it.each(['00:00', '24:00', '00:00:00', '24:00:00'])('close %s means midnight, the end of the day', (close) => {
    const slots = bookableSlots(query({ companyHours: { open: '22:00', close } }));
    expect(slots.map((s) => s.value)).toEqual(['22:00', '22:30', '23:00', '23:30']);
    expect(slots[3].end).toBe('2026-06-15T23:00:00.000Z'); // midnight BST
  });

  it('open all day: 48 half-hour slots from 00:00 to 23:30', () => {
    const slots = bookableSlots(query({ companyHours: { open: '00:00', close: '00:00' } }));
    expect(slots).toHaveLength(48);
    expect(slots[0].start).toBe('2026-06-14T23:00:00.000Z');
    expect(slots[47].value).toBe('23:30');
  });
});

describe('calendar dates', () => {
  it('names every day of four centuries as the Gregorian calendar does (leap years, 1900, 2000, 2100)', () => {
    const from = Date.UTC(1899, 11, 25);
    const dates = windowDates('UTC', new Date(from + 3_600_000), 150_000);
    expect(dates).toHaveLength(150_000);
    dates.forEach((d, i) => {
      if (d !== new Date(from + i * 86_400_000).toISOString().slice(0, 10)) throw new Error(`day ${i}: ${d}`);
    });
    expect(dates).toContain('2000-02-29');
    expect(dates).not.toContain('1900-02-29');
    expect(dates).not.toContain('2100-02-29');
  });
});

describe('limit (the date picker only asks whether a day has a slot left)', () => {
  it('answers the first free slots in order, skipping taken ones, and stops there', () => {
    const taken: BusyAppointment = {
      start: '2026-06-15T08:00:00.000Z',
      end: '2026-06-15T08:30:00.000Z',
      employeeId: null,
      serviceTypeIds: [1],
    };
    const all = bookableSlots(query({ appointments: [taken] }));
    expect(all.map((s) => s.value)).toEqual(['09:30', '10:00', '10:30', '11:00', '11:30']);
    expect(bookableSlots(query({ appointments: [taken], limit: 1 }))).toEqual(all.slice(0, 1));
    expect(bookableSlots(query({ appointments: [taken], limit: 2 }))).toEqual(all.slice(0, 2));
    expect(bookableSlots(query({ appointments: [taken], limit: 10 }))).toEqual(all);
  });

  it('finds the one free slot at the end of an otherwise full day', () => {
    const busy = ['08:00', '08:30', '09:00', '09:30', '10:00'].map((t): BusyAppointment => ({
      start: `2026-06-15T${t}:00.000Z`,
      end: new Date(Date.parse(`2026-06-15T${t}:00.000Z`) + 30 * 60_000).toISOString(),
      employeeId: null,
      serviceTypeIds: [1],
    }));
    expect(bookableSlots(query({ appointments: busy, limit: 1 })).map((s) => s.value)).toEqual(['11:30']);
    expect(
      bookableSlots(
        query({ appointments: [...busy, { ...busy[0], start: '2026-06-15T10:30:00.000Z', end: '2026-06-15T11:00:00.000Z' }], limit: 1 }),
      ),
    ).toEqual([]);
  });
});

describe('labels', () => {
  it('uses 12-hour clock without a leading zero', () => {
    const slots = bookableSlots(query({ incrementMinutes: 15, durationMinutes: 15, companyHours: { open: '00:00', close: '24:00' } }));
    const label = (value: string) => slots.find((s) => s.value === value)?.label;
    expect(label('00:00')).toBe('12:00 AM');
    expect(label('00:30')).toBe('12:30 AM');
    expect(label('09:30')).toBe('9:30 AM');
    expect(label('11:45')).toBe('11:45 AM');
    expect(label('12:00')).toBe('12:00 PM');
    expect(label('12:30')).toBe('12:30 PM');
    expect(label('13:15')).toBe('1:15 PM');
    expect(label('23:45')).toBe('11:45 PM');
  });
});

describe('the clock and the 30-day window', () => {
  const today = { date: '2026-06-15' };

  it('drops past slots of today and keeps the one starting exactly now', () => {
    expect(values({ ...today, now: new Date('2026-06-15T09:10:00.000Z') })).toEqual(['10:30', '11:00', '11:30']); // 10:10 BST
    expect(values({ ...today, now: new Date('2026-06-15T09:30:00.000Z') })).toEqual(['10:30', '11:00', '11:30']);
    expect(values({ ...today, now: new Date('2026-06-15T09:30:00.001Z') })).toEqual(['11:00', '11:30']);
    expect(values({ ...today, now: new Date('2026-06-15T12:00:00.000Z') })).toEqual([]);
  });

  it('offers nothing for past days', () => {
    expect(values({ date: '2026-06-14', now: new Date('2026-06-15T00:00:00.000Z') })).toEqual([]);
  });

  it('offers today .. today+29 by default and nothing after', () => {
    const now = new Date('2026-06-01T10:00:00.000Z');
    expect(values({ date: '2026-06-30', now })).toHaveLength(6);
    expect(values({ date: '2026-07-01', now })).toEqual([]);
    expect(values({ date: '2026-06-03', now, windowDays: 3 })).toHaveLength(6);
    expect(values({ date: '2026-06-04', now, windowDays: 3 })).toEqual([]);
    expect(values({ date: '2026-06-01', now, windowDays: 0 })).toEqual([]);
  });

  it('counts the window in the company zone, not in UTC', () => {
    // 02:00 UTC on June 1 is still May 31 in New York, so June 29 is the 30th day and June 30 is out.
    const now = new Date('2026-06-01T02:00:00.000Z');
    const ny = { timezone: NEW_YORK, now };
    expect(values({ ...ny, date: '2026-06-29' })).toHaveLength(6);
    expect(values({ ...ny, date: '2026-06-30' })).toEqual([]);
    expect(windowDates(NEW_YORK, now)).toHaveLength(30);
    expect(windowDates(NEW_YORK, now)[0]).toBe('2026-05-31');
    expect(windowDates(NEW_YORK, now)[29]).toBe('2026-06-29');
    expect(windowDates(LONDON, now, 3)).toEqual(['2026-06-01', '2026-06-02', '2026-06-03']);
  });

  it('windowDates crosses month and year ends, and ahead-of-UTC zones are already tomorrow', () => {
    expect(windowDates('Pacific/Kiritimati', new Date('2026-12-30T10:30:00.000Z'), 3)).toEqual(['2026-12-31', '2027-01-01', '2027-01-02']);
    expect(windowDates('Pacific/Pago_Pago', new Date('2026-01-01T10:30:00.000Z'), 2)).toEqual(['2025-12-31', '2026-01-01']);
    expect(windowDates(LONDON, new Date('2028-02-28T12:00:00.000Z'), 3)).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
  });
});

describe('capacity', () => {
  it('capacity 1: an appointment blocks the slots it overlaps, half-open at both ends', () => {
    const appointments = [appt('10:00', '10:30')];
    expect(values({ appointments })).toEqual(['09:00', '09:30', '10:30', '11:00', '11:30']);
    expect(values({ appointments, durationMinutes: 60 })).toEqual(['09:00', '10:30', '11:00']);
  });

  it('only appointments that include the service count', () => {
    const appointments = [appt('10:00', '10:30', { serviceTypeIds: [2] }), appt('11:00', '11:30', { serviceTypeIds: [2, 1] })];
    expect(values({ appointments })).toEqual(['09:00', '09:30', '10:00', '10:30', '11:30']);
  });

  it('capacity 3: blocks only where three overlap at once', () => {
    const two = [appt('10:00', '11:00'), appt('10:00', '10:30')];
    expect(values({ appointments: two, capacity: 3 })).toEqual(range('09:00', '11:30', 30));
    const three = [...two, appt('10:15', '10:45')];
    expect(values({ appointments: three, capacity: 3 })).toEqual(['09:00', '09:30', '10:30', '11:00', '11:30']);
    expect(values({ appointments: three, capacity: 3, durationMinutes: 60 })).toEqual(['09:00', '10:30', '11:00']);
  });

  it('capacity 3: three appointments inside the slot that never overlap each other leave room', () => {
    // 10:00-11:00 holds 10:00-10:30, 10:30-11:00 and 10:00-11:00: at most two at any instant.
    const appointments = [appt('10:00', '10:30'), appt('10:30', '11:00'), appt('10:00', '11:00')];
    expect(values({ appointments, capacity: 3, durationMinutes: 60 })).toContain('10:00');
    expect(values({ appointments, capacity: 2, durationMinutes: 60 })).toEqual(['09:00', '11:00']);
  });

  it('a cancelled appointment frees its place (the caller passes only booked ones)', () => {
    const booked = appt('10:00', '10:30');
    expect(values({ appointments: [booked] })).not.toContain('10:00');
    expect(values({ appointments: [] })).toContain('10:00');
  });

  it('an empty appointment (end = start) occupies nothing', () => {
    expect(values({ appointments: [appt('10:10', '10:10', { employeeId: 7, serviceTypeIds: [2] })], employeeId: 7 })).toEqual(
      range('09:00', '11:30', 30),
    );
  });

  it('ignores cancelled appointments if one is passed', () => {
    const appointments = [appt('10:00', '10:30', { status: 'cancelled' }), appt('11:00', '11:30', { status: 'booked' })];
    expect(values({ appointments })).toEqual(['09:00', '09:30', '10:00', '10:30', '11:30']);
  });

  it('is not fooled by appointments on other days or unsorted input', () => {
    const appointments = [
      appt('11:00', '11:30'),
      appt('09:00', '09:30'),
      { ...appt('10:00', '10:30'), start: '2026-06-16T09:00:00.000Z', end: '2026-06-16T09:30:00.000Z' },
    ];
    expect(values({ appointments })).toEqual(['09:30', '10:00', '10:30', '11:30']);
  });
});

describe('employees', () => {
  const E = 7;

  it("an employee's appointment of another service blocks them but not the service", () => {
    const appointments = [appt('10:00', '10:30', { employeeId: E, serviceTypeIds: [2] })];
    expect(values({ appointments, employeeId: E })).toEqual(['09:00', '09:30', '10:30', '11:00', '11:30']);
    expect(values({ appointments })).toEqual(range('09:00', '11:30', 30));
    expect(values({ appointments, employeeId: 8 })).toEqual(range('09:00', '11:30', 30));
  });

  it('group session: the employee may take more of the same service at the same start while capacity lasts', () => {
    const one = [appt('10:00', '11:00', { employeeId: E })];
    expect(values({ appointments: one, employeeId: E, capacity: 3 })).toEqual(['09:00', '09:30', '10:00', '11:00', '11:30']);
    expect(values({ appointments: one, employeeId: E, capacity: 3, durationMinutes: 60 })).toEqual(['09:00', '10:00', '11:00']);
    const full = [...one, appt('10:00', '11:00', { employeeId: E }), appt('10:00', '11:00', { employeeId: 9 })];
    expect(values({ appointments: full, employeeId: E, capacity: 3 })).toEqual(['09:00', '09:30', '11:00', '11:30']);
  });

  it('no group session with a different service or a mixed appointment', () => {
    const mixed = [appt('10:00', '11:00', { employeeId: E, serviceTypeIds: [1, 2] })];
    expect(values({ appointments: mixed, employeeId: E, capacity: 3 })).toEqual(['09:00', '09:30', '11:00', '11:30']);
    const other = [appt('10:00', '11:00', { employeeId: E, serviceTypeIds: [2] })];
    expect(values({ appointments: other, employeeId: E, capacity: 3 })).toEqual(['09:00', '09:30', '11:00', '11:30']);
  });

  it('a group session does not allow a different start overlapping it', () => {
    const appointments = [appt('10:00', '11:00', { employeeId: E }), appt('10:30', '11:30', { employeeId: E })];
    // 10:00-10:30 only touches the 10:30 session (half-open), so it joins the 10:00 one.
    expect(values({ appointments, employeeId: E, capacity: 5 })).toEqual(['09:00', '09:30', '10:00', '11:30']);
    expect(values({ appointments, employeeId: E, capacity: 5, durationMinutes: 60 })).toEqual(['09:00']);
  });

  it('personal hours narrow the company hours (intersection), on the company grid', () => {
    expect(values({ employeeHours: { open: '10:00', close: '17:00' } })).toEqual(['10:00', '10:30', '11:00', '11:30']);
    expect(values({ employeeHours: { open: '08:00', close: '10:30' } })).toEqual(['09:00', '09:30', '10:00']);
    expect(values({ employeeHours: { open: '10:15', close: '11:30' } })).toEqual(['10:30', '11:00']);
    expect(values({ employeeHours: { open: '13:00', close: '17:00' } })).toEqual([]);
  });

  it('an employee off that day gets nothing; no personal hours means company hours', () => {
    expect(values({ employeeId: E, employeeHours: null })).toEqual([]);
    expect(values({ employeeId: E, employeeHours: undefined })).toEqual(range('09:00', '11:30', 30));
  });
});

describe('daylight saving time', () => {
  const night = { companyHours: { open: '00:00', close: '06:00' }, now: new Date('2026-01-01T00:00:00.000Z'), windowDays: 400 };
  const slotsOf = (timezone: string, date: string, extra: Partial<SlotQuery> = {}) =>
    bookableSlots(query({ ...night, timezone, date, ...extra })).map((s) => `${s.value} ${s.start.slice(11, 16)}`);

  it('New York spring forward 2026-03-08: 02:00-02:59 do not exist', () => {
    expect(slotsOf(NEW_YORK, '2026-03-08')).toEqual([
      '00:00 05:00',
      '00:30 05:30',
      '01:00 06:00',
      '01:30 06:30',
      '03:00 07:00',
      '03:30 07:30',
      '04:00 08:00',
      '04:30 08:30',
      '05:00 09:00',
      '05:30 09:30',
    ]);
  });

  it('New York fall back 2026-11-01: 01:00-01:59 repeat and are offered once, at their first occurrence', () => {
    expect(slotsOf(NEW_YORK, '2026-11-01')).toEqual([
      '00:00 04:00',
      '00:30 04:30',
      '01:00 05:00',
      '01:30 05:30',
      '02:00 07:00',
      '02:30 07:30',
      '03:00 08:00',
      '03:30 08:30',
      '04:00 09:00',
      '04:30 09:30',
      '05:00 10:00',
      '05:30 10:30',
    ]);
  });

  it('London spring forward 2026-03-29: 01:00-01:59 do not exist', () => {
    expect(slotsOf(LONDON, '2026-03-29')).toEqual([
      '00:00 00:00',
      '00:30 00:30',
      '02:00 01:00',
      '02:30 01:30',
      '03:00 02:00',
      '03:30 02:30',
      '04:00 03:00',
      '04:30 03:30',
      '05:00 04:00',
      '05:30 04:30',
    ]);
  });

  it('London fall back 2026-10-25: 01:00-01:59 offered once (BST)', () => {
    expect(slotsOf(LONDON, '2026-10-25')).toEqual([
      '00:00 23:00',
      '00:30 23:30',
      '01:00 00:00',
      '01:30 00:30',
      '02:00 02:00',
      '02:30 02:30',
      '03:00 03:00',
      '03:30 03:30',
      '04:00 04:00',
      '04:30 04:30',
      '05:00 05:00',
      '05:30 05:30',
    ]);
  });

  it('Lord Howe 2026-04-05: clocks go back 30 minutes, 01:30-01:59 offered once (UTC+11)', () => {
    expect(
      slotsOf(LORD_HOWE, '2026-04-05', { incrementMinutes: 15, durationMinutes: 15, companyHours: { open: '01:00', close: '03:00' } }),
    ).toEqual(['01:00 14:00', '01:15 14:15', '01:30 14:30', '01:45 14:45', '02:00 15:30', '02:15 15:45', '02:30 16:00', '02:45 16:15']);
  });

  it('Lord Howe 2026-10-04: clocks go forward 30 minutes, 02:00-02:29 do not exist', () => {
    expect(
      slotsOf(LORD_HOWE, '2026-10-04', { incrementMinutes: 15, durationMinutes: 15, companyHours: { open: '01:00', close: '03:00' } }),
    ).toEqual(['01:00 14:30', '01:15 14:45', '01:30 15:00', '01:45 15:15', '02:30 15:30', '02:45 15:45']);
  });

  it('durations are real time across a transition', () => {
    const [s] = bookableSlots(
      query({ ...night, timezone: NEW_YORK, date: '2026-03-08', companyHours: { open: '01:30', close: '06:00' }, durationMinutes: 60 }),
    );
    expect(s).toMatchObject({ value: '01:30', start: '2026-03-08T06:30:00.000Z', end: '2026-03-08T07:30:00.000Z' }); // ends 03:30 EDT
    // 05:00 EST-midnight day: 04:00 EDT + 2h ends 06:00 EDT exactly at closing.
    expect(slotsOf(NEW_YORK, '2026-03-08', { durationMinutes: 120 }).at(-1)).toBe('04:00 08:00');
    // Fall back: 00:00-06:00 is 7 real hours; spring forward: 5.
    expect(slotsOf(NEW_YORK, '2026-11-01', { durationMinutes: 420 })).toEqual(['00:00 04:00']);
    expect(slotsOf(NEW_YORK, '2026-11-01', { durationMinutes: 390 })).toEqual(['00:00 04:00', '00:30 04:30']);
    expect(slotsOf(NEW_YORK, '2026-03-08', { durationMinutes: 300 })).toEqual(['00:00 05:00']);
    expect(slotsOf(NEW_YORK, '2026-03-08', { durationMinutes: 301 })).toEqual([]);
  });

  it('a closing time inside the gap closes at the jump; a repeated closing time at its first occurrence', () => {
    expect(slotsOf(NEW_YORK, '2026-03-08', { companyHours: { open: '00:00', close: '02:30' } })).toEqual([
      '00:00 05:00',
      '00:30 05:30',
      '01:00 06:00',
      '01:30 06:30',
    ]);
    expect(slotsOf(NEW_YORK, '2026-03-08', { companyHours: { open: '00:00', close: '02:30' }, durationMinutes: 60 })).toEqual([
      '00:00 05:00',
      '00:30 05:30',
      '01:00 06:00',
    ]);
    expect(slotsOf(NEW_YORK, '2026-11-01', { companyHours: { open: '00:00', close: '01:30' } })).toEqual([
      '00:00 04:00',
      '00:30 04:30',
      '01:00 05:00',
    ]);
    expect(slotsOf(NEW_YORK, '2026-11-01', { companyHours: { open: '00:00', close: '01:30' }, durationMinutes: 60 })).toEqual([
      '00:00 04:00',
      '00:30 04:30',
    ]);
  });

  it('opening inside the gap starts at the first wall time that exists', () => {
    expect(slotsOf(NEW_YORK, '2026-03-08', { companyHours: { open: '02:00', close: '04:00' } })).toEqual(['03:00 07:00', '03:30 07:30']);
  });

  it('an appointment in the repeated hour blocks by instant, not by wall time', () => {
    // 01:00-01:30 EST (the second 01:00) is 06:00Z-06:30Z: it does not touch the offered 01:00 EDT (05:00Z).
    const appointments: BusyAppointment[] = [
      { start: '2026-11-01T06:00:00.000Z', end: '2026-11-01T06:30:00.000Z', employeeId: null, serviceTypeIds: [1] },
    ];
    expect(slotsOf(NEW_YORK, '2026-11-01', { appointments })).toEqual(slotsOf(NEW_YORK, '2026-11-01'));
    expect(slotsOf(NEW_YORK, '2026-11-01', { appointments, durationMinutes: 90 })).not.toContain('01:00 05:00');
  });

  it("does not depend on the server's clock (luxon resolves repeated times by today's offset)", () => {
    const before = Settings.now;
    try {
      Settings.now = () => Date.parse('2026-07-01T00:00:00.000Z');
      const summer = slotsOf('America/Chicago', '2026-11-01');
      Settings.now = () => Date.parse('2026-01-15T00:00:00.000Z');
      const winter = slotsOf('America/Chicago', '2026-11-01');
      expect(summer).toEqual(winter);
      expect(summer[2]).toBe('01:00 06:00'); // CDT, the first 01:00
    } finally {
      Settings.now = before;
    }
  });

  it('localDayBounds: 23, 25, 23.5 and 24.5 hour days, and a day that starts at 01:00', () => {
    expect(localDayBounds(NEW_YORK, '2026-03-08')).toEqual({ start: '2026-03-08T05:00:00.000Z', end: '2026-03-09T04:00:00.000Z' });
    expect(localDayBounds(NEW_YORK, '2026-11-01')).toEqual({ start: '2026-11-01T04:00:00.000Z', end: '2026-11-02T05:00:00.000Z' });
    expect(localDayBounds(LONDON, '2026-03-29')).toEqual({ start: '2026-03-29T00:00:00.000Z', end: '2026-03-29T23:00:00.000Z' });
    expect(localDayBounds(LORD_HOWE, '2026-04-05')).toEqual({ start: '2026-04-04T13:00:00.000Z', end: '2026-04-05T13:30:00.000Z' });
    expect(localDayBounds(LORD_HOWE, '2026-10-04')).toEqual({ start: '2026-10-03T13:30:00.000Z', end: '2026-10-04T13:00:00.000Z' });
    // Chile springs forward at midnight: 2026-09-06 begins at 01:00 local.
    expect(localDayBounds('America/Santiago', '2026-09-06')).toEqual({
      start: '2026-09-06T04:00:00.000Z',
      end: '2026-09-07T03:00:00.000Z',
    });
  });

  it('a day that does not exist (Samoa skipped 2011-12-30) has no slots', () => {
    const b = localDayBounds('Pacific/Apia', '2011-12-30');
    expect(b.start).toBe(b.end);
    expect(
      bookableSlots(
        query({ ...night, timezone: 'Pacific/Apia', date: '2011-12-30', now: new Date('2011-12-01T00:00:00Z'), windowDays: 60 }),
      ),
    ).toEqual([]);
  });
});

describe('isoWeekday', () => {
  it('Monday is 1 and Sunday is 7', () => {
    expect(isoWeekday(LONDON, '2026-06-15')).toBe(1);
    expect(isoWeekday(NEW_YORK, '2026-03-08')).toBe(7);
    expect(isoWeekday(LORD_HOWE, '2026-10-03')).toBe(6);
    expect(isoWeekday('UTC', '2028-02-29')).toBe(2);
  });
});

describe('invalid input throws a clear Error', () => {
  it.each<[string, Partial<SlotQuery>, RegExp]>([
    ['unknown zone', { timezone: 'Mars/Olympus' }, /Invalid time zone "Mars\/Olympus"/],
    ['empty zone', { timezone: '' }, /Invalid time zone/],
    ['non-existent date', { date: '2026-02-30' }, /Invalid date "2026-02-30"/],
    ['unpadded date', { date: '2026-6-15' }, /Invalid date/],
    ['date with time', { date: '2026-06-15T00:00' }, /Invalid date/],
    ['bad opening', { companyHours: { open: '9am', close: '12:00' } }, /Invalid company opening time "9am"/],
    ['bad closing', { companyHours: { open: '09:00', close: '24:30' } }, /Invalid company closing time "24:30"/],
    ['bad minutes', { employeeHours: { open: '09:60', close: '12:00' } }, /Invalid employee opening time/],
    ['zero increment', { incrementMinutes: 0 }, /Invalid incrementMinutes 0/],
    ['fractional increment', { incrementMinutes: 7.5 }, /Invalid incrementMinutes/],
    ['zero duration', { durationMinutes: 0 }, /Invalid durationMinutes/],
    ['NaN duration', { durationMinutes: NaN }, /Invalid durationMinutes/],
    ['NaN capacity', { capacity: NaN }, /Invalid capacity/],
    ['negative window', { windowDays: -1 }, /Invalid windowDays/],
    ['invalid clock', { now: new Date('nope') }, /Invalid clock/],
    [
      'bad appointment',
      { appointments: [{ start: 'yesterday', end: '2026-06-15T10:00:00.000Z', employeeId: null, serviceTypeIds: [1] }] },
      /Invalid instant "yesterday"/,
    ],
  ])('%s', (_name, overrides, message) => {
    expect(() => bookableSlots(query(overrides))).toThrow(message);
  });

  it('also validates outside the window and on closed days', () => {
    expect(() => bookableSlots(query({ date: '2020-02-30', companyHours: null }))).toThrow(/Invalid date/);
    expect(() => bookableSlots(query({ timezone: 'Nope', companyHours: null }))).toThrow(/Invalid time zone/);
    expect(() => bookableSlots(query({ date: '2027-01-01', companyHours: { open: 'x', close: 'y' } }))).toThrow(
      /Invalid company opening time/,
    );
  });

  it('helpers validate too', () => {
    expect(() => isoWeekday('Nope/Nope', '2026-01-01')).toThrow(/Invalid time zone/);
    expect(() => isoWeekday(LONDON, '2026-13-01')).toThrow(/Invalid date/);
    expect(() => localDayBounds(LONDON, '2026-02-29')).toThrow(/Invalid date/);
    expect(() => windowDates('Nope', new Date())).toThrow(/Invalid time zone/);
    expect(() => windowDates(LONDON, new Date(NaN))).toThrow(/Invalid clock/);
  });
});

describe('bookingConflict (staff writes)', () => {
  const at = (start: string, end: string) => ({ start: appt(start, end).start, end: appt(start, end).end });
  const base = { serviceTypes: [{ id: 1, capacity: 1 }], employeeId: null as number | null };

  it('no conflict on an empty calendar, and outside opening hours (staff may)', () => {
    expect(bookingConflict({ ...at('10:00', '10:30'), ...base, appointments: [] })).toBeNull();
    expect(bookingConflict({ ...at('06:00', '07:00'), ...base, appointments: [appt('07:00', '08:00')] })).toBeNull();
  });

  it('capacity: half-open intervals and the peak inside the interval', () => {
    const appointments = [appt('10:00', '10:30'), appt('10:30', '11:00')];
    expect(bookingConflict({ ...at('09:30', '10:00'), ...base, appointments })).toBeNull();
    expect(bookingConflict({ ...at('10:15', '10:45'), ...base, appointments })).toBe('capacity');
    expect(bookingConflict({ ...at('10:15', '10:45'), serviceTypes: [{ id: 1, capacity: 2 }], employeeId: null, appointments })).toBeNull();
    expect(
      bookingConflict({
        ...at('10:15', '10:45'),
        serviceTypes: [{ id: 1, capacity: 2 }],
        employeeId: null,
        appointments: [...appointments, appt('10:20', '10:25')],
      }),
    ).toBe('capacity');
  });

  it('checks every listed service', () => {
    const appointments = [appt('10:00', '11:00', { serviceTypeIds: [2] })];
    const serviceTypes = [
      { id: 1, capacity: 5 },
      { id: 2, capacity: 1 },
    ];
    expect(bookingConflict({ ...at('10:30', '11:30'), serviceTypes, employeeId: null, appointments })).toBe('capacity');
    expect(bookingConflict({ ...at('11:00', '11:30'), serviceTypes, employeeId: null, appointments })).toBeNull();
  });

  it('employee busy, except a group session of the same services at the same start', () => {
    const appointments = [appt('10:00', '11:00', { employeeId: 3, serviceTypeIds: [1] })];
    const group = { serviceTypes: [{ id: 1, capacity: 3 }], appointments };
    expect(bookingConflict({ ...at('10:00', '11:00'), ...group, employeeId: 3 })).toBeNull();
    expect(bookingConflict({ ...at('10:00', '10:30'), ...group, employeeId: 3 })).toBeNull();
    expect(bookingConflict({ ...at('10:30', '11:30'), ...group, employeeId: 3 })).toBe('employee_busy');
    expect(bookingConflict({ ...at('10:30', '11:30'), ...group, employeeId: 4 })).toBeNull();
    expect(bookingConflict({ ...at('10:00', '11:00'), serviceTypes: [{ id: 2, capacity: 3 }], appointments, employeeId: 3 })).toBe(
      'employee_busy',
    );
    expect(
      bookingConflict({
        ...at('10:00', '11:00'),
        serviceTypes: [
          { id: 1, capacity: 3 },
          { id: 2, capacity: 3 },
        ],
        appointments,
        employeeId: 3,
      }),
    ).toBe('employee_busy');
    expect(bookingConflict({ ...at('10:00', '11:00'), serviceTypes: [{ id: 1, capacity: 1 }], appointments, employeeId: 3 })).toBe(
      'capacity',
    );
  });

  it('ignores the appointment being moved and cancelled ones', () => {
    const appointments = [
      appt('10:00', '11:00', { id: 41, employeeId: 3 }),
      appt('11:00', '12:00', { id: 42, employeeId: 3, status: 'cancelled' }),
    ];
    expect(bookingConflict({ ...at('10:30', '11:30'), ...base, employeeId: 3, appointments })).toBe('capacity');
    expect(bookingConflict({ ...at('10:30', '11:30'), ...base, employeeId: 3, appointments, ignoreAppointmentId: 41 })).toBeNull();
    expect(bookingConflict({ ...at('10:30', '11:30'), serviceTypes: [{ id: 1, capacity: 9 }], employeeId: 3, appointments })).toBe(
      'employee_busy',
    );
  });

  it('rejects an empty or reversed interval', () => {
    expect(() => bookingConflict({ ...at('10:00', '10:00'), ...base, appointments: [] })).toThrow(/not after start/);
    expect(() => bookingConflict({ start: 'x', end: 'y', ...base, appointments: [] })).toThrow(/Invalid instant/);
  });
});
