import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMinutesWall,
  instantFromCalendarDate,
  toWallIso,
  toWallTime,
  wallFromCalendarDate,
  zonedTimeToUtc,
} from './zoned-time.ts';

const NY = 'America/New_York';

describe('company time', () => {
  it('reads an instant as New York wall time, winter and summer', () => {
    expect(toWallTime('2026-01-15T14:30:00Z', NY)).toEqual({ date: '2026-01-15', time: '09:30' });
    expect(toWallTime('2026-07-15T13:30:00Z', NY)).toEqual({ date: '2026-07-15', time: '09:30' });
    expect(toWallTime('2026-01-15T03:00:00Z', NY)).toEqual({ date: '2026-01-14', time: '22:00' });
    expect(toWallIso('2026-01-15T14:30:05Z', NY)).toBe('2026-01-15T09:30:05');
  });

  it('turns wall time back into the instant, across daylight saving', () => {
    expect(zonedTimeToUtc('2026-01-15', '09:30', NY).toISOString()).toBe('2026-01-15T14:30:00.000Z');
    expect(zonedTimeToUtc('2026-07-15', '09:30', NY).toISOString()).toBe('2026-07-15T13:30:00.000Z');
    // 2026-03-08 02:30 does not exist in New York: it moves forward to 03:30 EDT.
    expect(zonedTimeToUtc('2026-03-08', '02:30', NY).toISOString()).toBe('2026-03-08T07:30:00.000Z');
    // 2026-11-01 01:30 happens twice: the first (EDT) is taken.
    expect(zonedTimeToUtc('2026-11-01', '01:30', NY).toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  it('round-trips FullCalendar UTC-mode dates', () => {
    const fc = new Date(Date.UTC(2026, 6, 15, 9, 30));
    expect(wallFromCalendarDate(fc)).toEqual({ date: '2026-07-15', time: '09:30' });
    expect(instantFromCalendarDate(fc, NY).toISOString()).toBe('2026-07-15T13:30:00.000Z');
  });

  it('adds days and minutes on the wall clock', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    const end = addMinutesWall('2026-01-15', '23:30', 60, NY);
    expect({ date: end.date, time: end.time }).toEqual({ date: '2026-01-16', time: '00:30' });
    // 01:30 EST plus 60 minutes is 03:30 EDT: the clock skipped an hour.
    const dst = addMinutesWall('2026-03-08', '01:30', 60, NY);
    expect(dst.time).toBe('03:30');
  });
});
