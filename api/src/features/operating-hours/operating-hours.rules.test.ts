// The weekday-hours rules on their own: time forms, midnight as closing time, the messages of docs/product/05-validation.md.
import { describe, expect, it } from 'vitest';
import {
  CLOSE_TIME_PATTERN,
  DAY_NAMES,
  OPEN_TIME_PATTERN,
  closingSeconds,
  dayHoursProblem,
  normaliseTime,
  placeDayHours,
  slotValueOf,
} from './operating-hours.rules.ts';

describe('hours rules', () => {
  it('accepts HH:MM and HH:MM:SS, and 24:00 only as a closing time', () => {
    for (const ok of ['00:00', '9:30', '09:30', '23:59', '23:59:59', '12:00:30']) expect(OPEN_TIME_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['24:00', '25:00', '12:60', '12:00:60', '1230', '12:0', 'noon', '', ' 12:00', '12:00:00.000', '-1:00']) {
      expect(OPEN_TIME_PATTERN.test(bad), bad).toBe(false);
    }
    expect(CLOSE_TIME_PATTERN.test('24:00')).toBe(true);
    expect(CLOSE_TIME_PATTERN.test('24:00:00')).toBe(true);
    expect(CLOSE_TIME_PATTERN.test('24:01')).toBe(false);
  });

  it('normalises to HH:MM:SS, with 24:00 stored as 00:00:00', () => {
    expect(normaliseTime('9:05')).toBe('09:05:00');
    expect(normaliseTime('17:30:15')).toBe('17:30:15');
    expect(normaliseTime('24:00')).toBe('00:00:00');
    expect(normaliseTime('00:00')).toBe('00:00:00');
  });

  it('reads a closing time of midnight as the end of the day', () => {
    expect(closingSeconds('00:00:00')).toBe(86_400);
    expect(closingSeconds('18:00:00')).toBe(64_800);
  });

  it('gives the time slot value only for whole minutes', () => {
    expect(slotValueOf('09:15:00')).toBe('09:15');
    expect(slotValueOf('09:15:30')).toBeNull();
    expect(slotValueOf(null)).toBeNull();
  });

  it('words each missing-time error with the day name, as docs/product/05-validation.md does', () => {
    DAY_NAMES.forEach((day, i) => {
      const d = i + 1;
      expect(dayHoursProblem({ day_of_week: d, open_time: '09:00:00', close_time: null, is_closed: false })?.message).toBe(
        `${day} end time is required when start time is provided`,
      );
      expect(dayHoursProblem({ day_of_week: d, open_time: null, close_time: '17:00:00', is_closed: false })?.message).toBe(
        `${day} start time is required when end time is provided`,
      );
    });
    expect(dayHoursProblem({ day_of_week: 1, open_time: '09:00:00', close_time: null, is_closed: true })).toBeNull();
    expect(dayHoursProblem({ day_of_week: 1, open_time: null, close_time: null, is_closed: true })).toBeNull();
    expect(dayHoursProblem({ day_of_week: 1, open_time: null, close_time: null, is_closed: false })?.message).toBe(
      'Monday start and end times are required unless the day is closed',
    );
  });

  it('needs the start before the end, midnight closing included', () => {
    const check = (open: string, close: string) =>
      dayHoursProblem({ day_of_week: 3, open_time: open, close_time: close, is_closed: false });
    expect(check('09:00:00', '17:00:00')).toBeNull();
    expect(check('18:00:00', '00:00:00')).toBeNull();
    expect(check('00:00:00', '00:00:00')).toBeNull();
    expect(check('17:00:00', '09:00:00')?.message).toBe('Wednesday end time must be after start time');
    expect(check('09:00:00', '09:00:00')?.message).toBe('Wednesday end time must be after start time');
    expect(check('22:00:00', '02:00:00')?.message).toBe('Wednesday end time must be after start time');
  });
});

describe('placeDayHours (breaks)', () => {
  const row = (id: number, open: string | null, close: string | null, closed = 0) => ({
    id,
    open_time: open,
    close_time: close,
    is_closed: closed,
  });
  const open = (o: string, c: string) => ({ day_of_week: 1, open_time: o, close_time: c, is_closed: false });
  it('inserts the first interval, replaces an overlapping only row, adds a non-overlapping one', () => {
    expect(placeDayHours([], open('09:00:00', '12:00:00'))).toEqual({ kind: 'insert' });
    const am = row(1, '09:00:00', '12:00:00');
    expect(placeDayHours([am], open('10:00:00', '13:00:00'))).toEqual({ kind: 'update', row: am, dropOthers: false });
    expect(placeDayHours([am], open('12:00:00', '13:00:00'))).toEqual({ kind: 'insert' });
  });
  it('refuses an interval overlapping one of several; closing or reopening a day makes it one row', () => {
    const am = row(1, '09:00:00', '12:00:00');
    const pm = row(2, '13:00:00', '00:00:00');
    expect(placeDayHours([am, pm], open('11:00:00', '12:30:00'))).toEqual({ kind: 'conflict', row: am });
    expect(placeDayHours([am, pm], open('23:00:00', '00:00:00'))).toEqual({ kind: 'conflict', row: pm });
    expect(placeDayHours([am, pm], open('12:00:00', '13:00:00'))).toEqual({ kind: 'insert' });
    expect(placeDayHours([am, pm], { day_of_week: 1, open_time: null, close_time: null, is_closed: true })).toEqual({
      kind: 'update',
      row: am,
      dropOthers: true,
    });
    const closed = row(3, null, null, 1);
    expect(placeDayHours([closed], open('09:00:00', '10:00:00'))).toEqual({ kind: 'update', row: closed, dropOthers: true });
  });
});
