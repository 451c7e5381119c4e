// The range a reload opens on, worked out from the address before FullCalendar has loaded: it must be
// the one FullCalendar then reports, or the appointments asked for early are not the ones it shows
// (the browser suite checks the two agree, pwa/e2e/calendar.spec.ts).
import { describe, expect, it } from 'vitest';
import { openingRange, visibleRange } from './use-calendar-range.ts';

describe('the range a calendar view shows', () => {
  it('is the Sunday-to-Saturday week for the week and the list', () => {
    expect(visibleRange('week', '2026-12-02')).toEqual({ start: '2026-11-29', end: '2026-12-05' });
    expect(visibleRange('week', '2026-11-29')).toEqual({ start: '2026-11-29', end: '2026-12-05' });
    expect(visibleRange('week', '2026-12-05')).toEqual({ start: '2026-11-29', end: '2026-12-05' });
    expect(visibleRange('list', '2026-12-31')).toEqual({ start: '2026-12-27', end: '2027-01-02' });
  });

  it('is six whole weeks from the Sunday on or before the first for a month', () => {
    expect(visibleRange('month', '2026-12-15')).toEqual({ start: '2026-11-29', end: '2027-01-09' });
    // February 2026 starts on a Sunday.
    expect(visibleRange('month', '2026-02-28')).toEqual({ start: '2026-02-01', end: '2026-03-14' });
  });

  it('is the day itself for a day', () => {
    expect(visibleRange('day', '2026-03-08')).toEqual({ start: '2026-03-08', end: '2026-03-08' });
  });

  it('comes from the address only when it names both the view and the day', () => {
    expect(openingRange(new URLSearchParams('view=week&date=2026-12-02'))).toEqual({ start: '2026-11-29', end: '2026-12-05' });
    expect(openingRange(new URLSearchParams('view=week'))).toBeNull();
    expect(openingRange(new URLSearchParams('date=2026-12-02'))).toBeNull();
    expect(openingRange(new URLSearchParams('view=year&date=2026-12-02'))).toBeNull();
    expect(openingRange(new URLSearchParams('view=toString&date=2026-12-02'))).toBeNull();
    expect(openingRange(new URLSearchParams('view=week&date=tomorrow'))).toBeNull();
  });
});
