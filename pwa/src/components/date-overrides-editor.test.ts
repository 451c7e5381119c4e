import { describe, expect, it } from 'vitest';
import { nextInterval, OVERRIDE_TEXT, overrideProblem, type OverrideDraft } from './date-overrides-editor.tsx';

const draft: OverrideDraft = { date: '2026-12-24', closed: true, intervals: [{ open: '', close: '' }], note: '' };
const open = (...intervals: [string, string][]): OverrideDraft => ({
  ...draft,
  closed: false,
  intervals: intervals.map(([o, c]) => ({ open: o, close: c })),
});

describe('overrideProblem', () => {
  it('needs a date from today on', () => {
    expect(overrideProblem({ ...draft, date: '' }, '2026-11-25')).toBe(OVERRIDE_TEXT.dateRequired);
    expect(overrideProblem({ ...draft, date: '2026-11-24' }, '2026-11-25')).toBe(OVERRIDE_TEXT.pastDate);
    expect(overrideProblem({ ...draft, date: '2026-11-25' }, '2026-11-25')).toBeNull();
  });
  it('accepts a closed day without times, and special hours only with an end after the start (midnight ends the day)', () => {
    expect(overrideProblem(draft, '2026-11-25')).toBeNull();
    expect(overrideProblem({ ...draft, closed: false }, '2026-11-25')).toBe('Choose a start and an end time, or tick Closed all day.');
    // A person's time off names its own box.
    expect(overrideProblem({ ...draft, closed: false }, '2026-11-25', 'Off all day')).toBe(
      'Choose a start and an end time, or tick Off all day.',
    );
    expect(overrideProblem(open(['14:00', '10:00']), '2026-11-25')).toBe(OVERRIDE_TEXT.endAfterStart);
    expect(overrideProblem(open(['10:00', '14:00']), '2026-11-25')).toBeNull();
    expect(overrideProblem(open(['18:00', '00:00']), '2026-11-25')).toBeNull();
  });
  it('checks every interval of a day with several, and refuses overlapping ones in any order', () => {
    expect(overrideProblem(open(['09:00', '12:00'], ['13:00', '17:00']), '2026-11-25')).toBeNull();
    expect(overrideProblem(open(['13:00', '17:00'], ['09:00', '13:00']), '2026-11-25')).toBeNull();
    expect(overrideProblem(open(['09:00', '12:00'], ['13:00', '']), '2026-11-25')).toBe(OVERRIDE_TEXT.timesRequired('Closed all day'));
    expect(overrideProblem(open(['09:00', '12:00'], ['15:00', '13:00']), '2026-11-25')).toBe(OVERRIDE_TEXT.endAfterStart);
    expect(overrideProblem(open(['13:00', '17:00'], ['09:00', '13:30']), '2026-11-25')).toBe(OVERRIDE_TEXT.overlap);
    expect(overrideProblem({ ...draft, closed: false, intervals: [] }, '2026-11-25')).toBe(OVERRIDE_TEXT.timesRequired('Closed all day'));
  });
});

describe('nextInterval', () => {
  it('starts one increment after the last interval ends, an hour long, within the day', () => {
    expect(nextInterval([{ open: '09:00', close: '12:00' }], 30)).toEqual({ open: '12:30', close: '13:30' });
    expect(nextInterval([{ open: '09:00', close: '22:45' }], 15)).toEqual({ open: '23:00', close: '00:00' });
    expect(nextInterval([{ open: '09:00', close: '12:00' }], 45)).toEqual({ open: '12:45', close: '14:15' });
  });
  it('is blank when the last interval is incomplete or reaches midnight', () => {
    expect(nextInterval([{ open: '09:00', close: '' }], 30)).toEqual({ open: '', close: '' });
    expect(nextInterval([{ open: '18:00', close: '00:00' }], 30)).toEqual({ open: '', close: '' });
    expect(nextInterval([{ open: '18:00', close: '23:30' }], 30)).toEqual({ open: '', close: '' });
  });
});
