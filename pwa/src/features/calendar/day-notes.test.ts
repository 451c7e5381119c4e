import { describe, expect, it } from 'vitest';
import { dayNotes, type DayOverride } from './day-notes.ts';

// Monday to Saturday open, Sunday without hours (1 Monday .. 7 Sunday).
const week = [1, 2, 3, 4, 5, 6].map((day, i) => ({
  id: i + 1,
  company_id: 1,
  user_id: null,
  day_of_week: day,
  open_time: '09:00:00',
  close_time: '18:00:00',
  is_closed: false,
}));
const base = { companyName: 'Demo Studio', weeklyRows: week, employee: null, companyOverrides: [], employeeOverrides: [] };

describe('the notes beside the appointment form’s date', () => {
  it('say nothing of an ordinary open day', () => {
    expect(dayNotes({ ...base, date: '2026-12-09' })).toEqual([]);
  });

  it('name a closure with its note, before the weekly hours', () => {
    const closure: DayOverride = { date: '2026-12-24', is_closed: true, note: 'Christmas Eve' };
    expect(dayNotes({ ...base, date: '2026-12-24', companyOverrides: [closure] })).toEqual([
      'Demo Studio is closed on this day (Christmas Eve).',
    ]);
  });

  it('give special hours, even on a weekday that is otherwise closed', () => {
    const special: DayOverride = { date: '2026-12-27', is_closed: false, intervals: [{ open_time: '10:00:00', close_time: '14:00:00' }] };
    const [note] = dayNotes({ ...base, date: '2026-12-27', companyOverrides: [special] });
    expect(note).toMatch(/^Demo Studio has special hours on this day: 10:00\sAM – 2:00\sPM\.$/);
  });

  it('say a weekday without hours is closed, but not while the hours are unknown or none are set', () => {
    expect(dayNotes({ ...base, date: '2026-12-13' })).toEqual(['Demo Studio is closed on Sundays.']);
    expect(dayNotes({ ...base, date: '2026-12-13', weeklyRows: undefined })).toEqual([]);
    expect(dayNotes({ ...base, date: '2026-12-13', weeklyRows: [] })).toEqual([]);
  });

  it("add the chosen team member's time off, whole or part of the day", () => {
    const employee = { name: 'Noah Barber' };
    const off: DayOverride = { date: '2026-12-09', is_closed: true, note: null };
    expect(dayNotes({ ...base, date: '2026-12-09', employee, employeeOverrides: [off] })).toEqual(['Noah Barber is off on this day.']);
    const part: DayOverride = { date: '2026-12-09', is_closed: false, intervals: [{ open_time: '09:00:00', close_time: '12:00:00' }] };
    expect(dayNotes({ ...base, date: '2026-12-09', employee, employeeOverrides: [part] })[0]).toMatch(
      /^Noah Barber works only 9:00\sAM – 12:00\sPM on this day\.$/,
    );
    // Without a chosen team member, nobody's time off is mentioned.
    expect(dayNotes({ ...base, date: '2026-12-09', employeeOverrides: [off] })).toEqual([]);
  });
});
