import { describe, expect, it } from 'vitest';
import { daysSpanned } from './date-options.tsx';

describe('daysSpanned', () => {
  it('fills the days between offered ones, across a month end, so closed days show greyed', () => {
    expect(daysSpanned(['2026-12-02', '2026-11-29', '2026-12-01'])).toEqual(['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02']);
  });
  it('is empty without offered days and one day for one', () => {
    expect(daysSpanned([])).toEqual([]);
    expect(daysSpanned(['2026-03-08'])).toEqual(['2026-03-08']);
  });
});
