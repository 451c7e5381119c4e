import { describe, expect, it } from 'vitest';
import {
  dayError,
  dayIntervalsError,
  hoursChanges,
  joinAcrossBreak,
  splitForBreak,
  weekErrors,
  weekFromRows,
  type OperatingHoursRow,
} from './weekly-hours.ts';

const row = (id: number, day: number, open: string, close: string): OperatingHoursRow => ({
  id,
  company_id: 1,
  user_id: 5,
  day_of_week: day,
  open_time: open,
  close_time: close,
  is_closed: false,
});

describe('weekly hours', () => {
  it('uses the messages of docs/product/05-validation.md for a day with one time only', () => {
    expect(dayError(1, { open: '09:00', close: '' })).toBe('Monday end time is required when start time is provided');
    expect(dayError(7, { open: '', close: '17:00' })).toBe('Sunday start time is required when end time is provided');
    expect(dayError(3, { open: '', close: '' })).toBeNull();
  });
  it('accepts midnight as an end and refuses an end before the start', () => {
    expect(dayError(5, { open: '18:00', close: '00:00' })).toBeNull();
    expect(dayError(5, { open: '18:00', close: '09:00' })).toBe('Friday end time must be after start time');
  });
  it('lists the errors of the whole week', () => {
    const week = weekFromRows([row(1, 1, '09:00:00', '17:00:00')]);
    week[2] = [{ open: '10:00', close: '' }];
    expect(weekErrors(week)).toEqual({ 2: 'Tuesday end time is required when start time is provided' });
  });
  it('turns the edited week into creates, updates and deletes', () => {
    const rows = [row(1, 1, '09:00:00', '17:00:00'), row(2, 2, '09:00:00', '17:00:00'), row(3, 3, '09:00:00', '17:00:00')];
    const week = weekFromRows(rows);
    week[1] = [{ open: '09:00', close: '17:00' }]; // unchanged
    week[2] = [{ open: '10:00', close: '17:00' }]; // update
    week[3] = [{ open: '', close: '' }]; // delete
    week[4] = [{ open: '08:00', close: '12:00' }]; // create
    const changes = hoursChanges(rows, week);
    // Deletions first, creations last: a row never meets one that is about to go.
    expect(changes.map((c) => [c.day, c.kind])).toEqual([
      [3, 'delete'],
      [2, 'update'],
      [4, 'create'],
    ]);
  });
  it('shows several rows of a day as intervals, earliest first, and keeps a closed row as a day without hours', () => {
    const closed = { ...row(9, 6, '', ''), open_time: null, close_time: null, is_closed: true };
    const week = weekFromRows([row(2, 1, '13:00:00', '17:00:00'), row(1, 1, '09:00:00', '12:00:00'), closed]);
    expect(week[1]).toEqual([
      { open: '09:00', close: '12:00' },
      { open: '13:00', close: '17:00' },
    ]);
    expect(week[6]).toEqual([{ open: '', close: '' }]);
    expect(hoursChanges([closed], week).filter((c) => c.day === 6)).toEqual([]);
  });
  it('adds a break: the first row shrinks and the afternoon is created; removing it deletes that row', () => {
    const rows = [row(1, 1, '09:00:00', '17:00:00')];
    const week = weekFromRows(rows);
    week[1] = splitForBreak(week[1][0], 60)!;
    expect(week[1]).toEqual([
      { open: '09:00', close: '12:00' },
      { open: '13:00', close: '17:00' },
    ]);
    expect(hoursChanges(rows, week).map((c) => [c.kind, c.row?.id ?? null, c.hours])).toEqual([
      ['update', 1, { open: '09:00', close: '12:00' }],
      ['create', null, { open: '13:00', close: '17:00' }],
    ]);
    const two = [row(1, 1, '09:00:00', '12:00:00'), row(2, 1, '13:00:00', '17:00:00')];
    const kept = weekFromRows(two);
    kept[1] = [kept[1][0]];
    expect(hoursChanges(two, kept).map((c) => [c.kind, c.row?.id])).toEqual([['delete', 2]]);
  });
  it('splits on the increment grid, refuses a too short interval, and reports overlapping intervals', () => {
    expect(splitForBreak({ open: '09:00', close: '18:00' }, 30)).toEqual([
      { open: '09:00', close: '13:00' },
      { open: '13:30', close: '18:00' },
    ]);
    expect(splitForBreak({ open: '20:00', close: '00:00' }, 60)).toEqual([
      { open: '20:00', close: '21:00' },
      { open: '22:00', close: '00:00' },
    ]);
    expect(splitForBreak({ open: '09:00', close: '10:00' }, 30)).toBeNull();
    // "Remove break" joins the hours either side of it, undoing "Add break".
    const morning = { open: '09:00', close: '13:00' };
    const afternoon = { open: '13:30', close: '18:00' };
    const evening = { open: '19:00', close: '22:00' };
    expect(joinAcrossBreak([morning, afternoon], 1)).toEqual([{ open: '09:00', close: '18:00' }]);
    expect(joinAcrossBreak([morning, afternoon, evening], 2)).toEqual([morning, { open: '13:30', close: '22:00' }]);
    expect(joinAcrossBreak([morning, { open: '', close: '' }], 1)).toEqual([morning]);
    expect(joinAcrossBreak([morning, { open: '14:00', close: '' }], 1)).toEqual([morning]);
    expect(
      dayIntervalsError(2, [
        { open: '09:00', close: '13:00' },
        { open: '12:00', close: '17:00' },
      ]),
    ).toBe('Tuesday hours overlap: a break must end before the next hours start');
    expect(
      dayIntervalsError(2, [
        { open: '09:00', close: '12:00' },
        { open: '12:00', close: '17:00' },
      ]),
    ).toBeNull();
    expect(
      dayIntervalsError(2, [
        { open: '09:00', close: '12:00' },
        { open: '13:00', close: '' },
      ]),
    ).toBe('Tuesday end time is required when start time is provided');
  });
});
