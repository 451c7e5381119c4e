import { describe, expect, it } from 'vitest';
import { formatLongDate, zonedTimeToUtc, zoneOffsetMinutes } from './zoned-time.ts';

describe('zonedTimeToUtc', () => {
  it('converts a plain winter and summer time', () => {
    expect(zonedTimeToUtc('2026-01-15', '09:30', 'Europe/Paris').toISOString()).toBe('2026-01-15T08:30:00.000Z');
    expect(zonedTimeToUtc('2026-07-15', '09:30', 'Europe/Paris').toISOString()).toBe('2026-07-15T07:30:00.000Z');
    expect(zonedTimeToUtc('2026-07-15', '09:30', 'America/New_York').toISOString()).toBe('2026-07-15T13:30:00.000Z');
    expect(zonedTimeToUtc('2026-07-15', '23:45', 'UTC').toISOString()).toBe('2026-07-15T23:45:00.000Z');
  });

  it('handles zones ahead of UTC across midnight', () => {
    expect(zonedTimeToUtc('2026-03-02', '00:30', 'Asia/Tokyo').toISOString()).toBe('2026-03-01T15:30:00.000Z');
    expect(zonedTimeToUtc('2026-03-02', '08:00', 'Asia/Kolkata').toISOString()).toBe('2026-03-02T02:30:00.000Z');
  });

  it('takes the first of a repeated hour and skips past a missing one', () => {
    // Europe/Berlin falls back on 2026-10-25 at 03:00 -> 02:00.
    expect(zonedTimeToUtc('2026-10-25', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // ...and springs forward on 2026-03-29 at 02:00 -> 03:00: 02:30 does not exist.
    expect(zonedTimeToUtc('2026-03-29', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(zonedTimeToUtc('2026-03-29', '03:00', 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:00:00.000Z');
  });

  it('reads offsets', () => {
    expect(zoneOffsetMinutes(Date.UTC(2026, 0, 1), 'Europe/Paris')).toBe(60);
    expect(zoneOffsetMinutes(Date.UTC(2026, 6, 1), 'America/Los_Angeles')).toBe(-420);
  });
});

describe('formatLongDate', () => {
  it('never shifts the day', () => {
    expect(formatLongDate('2026-11-24', 'en-US')).toBe('Tuesday, November 24, 2026');
  });
});
