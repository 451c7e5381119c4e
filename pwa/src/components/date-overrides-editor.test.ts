import { describe, expect, it } from 'vitest';
import { OVERRIDE_TEXT, overrideProblem } from './date-overrides-editor.tsx';

const draft = { date: '2026-12-24', closed: true, open: '', close: '', note: '' };

describe('overrideProblem', () => {
  it('needs a date from today on', () => {
    expect(overrideProblem({ ...draft, date: '' }, '2026-11-25')).toBe(OVERRIDE_TEXT.dateRequired);
    expect(overrideProblem({ ...draft, date: '2026-11-24' }, '2026-11-25')).toBe(OVERRIDE_TEXT.pastDate);
    expect(overrideProblem({ ...draft, date: '2026-11-25' }, '2026-11-25')).toBeNull();
  });
  it('accepts a closed day without times, and special hours only with an end after the start (midnight ends the day)', () => {
    expect(overrideProblem(draft, '2026-11-25')).toBeNull();
    expect(overrideProblem({ ...draft, closed: false }, '2026-11-25')).toBe(OVERRIDE_TEXT.timesRequired);
    expect(overrideProblem({ ...draft, closed: false, open: '14:00', close: '10:00' }, '2026-11-25')).toBe(OVERRIDE_TEXT.endAfterStart);
    expect(overrideProblem({ ...draft, closed: false, open: '10:00', close: '14:00' }, '2026-11-25')).toBeNull();
    expect(overrideProblem({ ...draft, closed: false, open: '18:00', close: '00:00' }, '2026-11-25')).toBeNull();
  });
});
