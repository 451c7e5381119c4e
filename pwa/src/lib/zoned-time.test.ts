import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMinutesWall,
  formatDate,
  formatLongDate,
  formatTime,
  formatWallTime,
  instantFromCalendarDate,
  toWallIso,
  toWallTime,
  wallFromCalendarDate,
  zonedTimeToUtc,
  zoneAbbreviation,
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

// The formatters are kept and reused (one per locale and options): each call still formats with its own.
describe('formatting company dates and times', () => {
  it('gives each set of options, zone and locale its own format, however often and in whatever order', () => {
    for (let round = 0; round < 2; round++) {
      expect(formatDate('2026-11-24')).toBe('Tue, Nov 24, 2026');
      expect(formatDate('2026-11-24', { weekday: 'long', month: 'long', day: 'numeric' })).toBe('Tuesday, November 24');
      expect(formatWallTime('09:30')).toBe('9:30 AM');
      expect(formatWallTime('17:05')).toBe('5:05 PM');
      expect(formatTime('2026-11-24T14:30:00Z', NY)).toBe('9:30 AM');
      expect(formatTime('2026-11-24T14:30:00Z', 'Europe/London')).toBe('2:30 PM');
      expect(zoneAbbreviation(NY, new Date('2026-11-24T12:00:00Z'))).toBe('EST');
      expect(zoneAbbreviation(NY, new Date('2026-07-24T12:00:00Z'))).toBe('EDT');
      expect(zoneAbbreviation('UTC', new Date('2026-07-24T12:00:00Z'))).toBe('UTC');
      expect(formatLongDate('2026-11-24', 'en-US')).toBe('Tuesday, November 24, 2026');
      expect(formatLongDate('2026-11-24', 'de-DE')).toBe('Dienstag, 24. November 2026');
    }
  });
});
