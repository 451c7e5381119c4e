import { describe, expect, it } from 'vitest';
import { dayError, hoursChanges, weekErrors, weekFromRows, type OperatingHoursRow } from './weekly-hours.ts';

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
    week[2] = { open: '10:00', close: '' };
    expect(weekErrors(week)).toEqual({ 2: 'Tuesday end time is required when start time is provided' });
  });
  it('turns the edited week into creates, updates and deletes', () => {
    const rows = [row(1, 1, '09:00:00', '17:00:00'), row(2, 2, '09:00:00', '17:00:00'), row(3, 3, '09:00:00', '17:00:00')];
    const week = weekFromRows(rows);
    week[1] = { open: '09:00', close: '17:00' }; // unchanged
    week[2] = { open: '10:00', close: '17:00' }; // update
    week[3] = { open: '', close: '' }; // delete
    week[4] = { open: '08:00', close: '12:00' }; // create
    const changes = hoursChanges(rows, week);
    expect(changes.map((c) => [c.day, c.kind])).toEqual([
      [2, 'update'],
      [3, 'delete'],
      [4, 'create'],
    ]);
  });
});
