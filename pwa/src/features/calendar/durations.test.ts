import { describe, expect, it } from 'vitest';
import {
  durationChoices,
  durationMinutes,
  durationOptions,
  durationValueFitting,
  durationValueFor,
  formatMinutes,
  minutesBetween,
  offeredChoices,
  preferredChoice,
} from './durations.ts';

const catalogue = [
  { id: 1, duration_minutes: 15 },
  { id: 2, duration_minutes: 30 },
  { id: 3, duration_minutes: 60 },
  { id: 4, duration_minutes: 90 },
];
const choices = [
  { id: 1, minutes: 15 },
  { id: 2, minutes: 30 },
  { id: 3, minutes: 60 },
];

describe('offeredChoices and durationChoices', () => {
  it('takes the minutes from the row, else from the catalogue, and drops unknown lengths', () => {
    const offered = [
      { appointment_duration_option_id: 3 },
      { appointment_duration_option_id: 2, duration_minutes: 30 },
      { appointment_duration_option_id: 99 },
    ];
    expect(offeredChoices(offered, catalogue)).toEqual([
      { id: 3, minutes: 60 },
      { id: 2, minutes: 30 },
    ]);
  });
  it('sorts shortest first, one per id', () => {
    const offered = [{ appointment_duration_option_id: 3 }, { appointment_duration_option_id: 1 }, { appointment_duration_option_id: 3 }];
    expect(durationChoices(offered, catalogue)).toEqual([
      { id: 1, minutes: 15 },
      { id: 3, minutes: 60 },
    ]);
  });
  it('offers the whole catalogue when the company offers nothing', () => {
    expect(durationChoices([], catalogue).map((c) => c.minutes)).toEqual([15, 30, 60, 90]);
  });
});

describe('formatMinutes', () => {
  it('reads minutes, hours, and both', () => {
    expect(formatMinutes(45)).toBe('45 min');
    expect(formatMinutes(60)).toBe('1 h');
    expect(formatMinutes(90)).toBe('1 h 30 min');
  });
});

describe('the duration select value', () => {
  it('maps an option id or m:<minutes> to minutes', () => {
    expect(durationMinutes('2', choices)).toBe(30);
    expect(durationMinutes('m:50', choices)).toBe(50);
    expect(durationMinutes('', choices)).toBeNull();
    expect(durationMinutes('7', choices)).toBeNull();
  });
  it("keeps an appointment's own option while its length matches, else any option of that length, else m:<minutes>", () => {
    const at = (minutes: number, optionId: number | null) => ({
      start_time: '2026-03-02T10:00:00Z',
      end_time: new Date(Date.parse('2026-03-02T10:00:00Z') + minutes * 60_000).toISOString(),
      appointment_duration_option_id: optionId,
    });
    expect(minutesBetween(at(60, null).start_time, at(60, null).end_time)).toBe(60);
    expect(durationValueFor(at(30, 2), choices)).toBe('2');
    expect(durationValueFor(at(60, 2), choices)).toBe('3');
    expect(durationValueFor(at(50, 2), choices)).toBe('m:50');
  });
  it('lists the unmatched length last', () => {
    expect(durationOptions(choices, 'm:50').map((o) => o.label)).toEqual(['15 minutes', '30 minutes', '60 minutes', '50 minutes']);
    expect(durationOptions(choices, '2')).toHaveLength(3);
  });
});

describe('choosing a length', () => {
  it('fits services into the smallest length that holds them, else their own length (never a shorter one)', () => {
    expect(durationValueFitting(20, choices)).toBe('2');
    expect(durationValueFitting(30, choices)).toBe('2');
    expect(durationValueFitting(90, choices)).toBe('m:90');
    expect(durationMinutes(durationValueFitting(90, choices), choices)).toBe(90);
    expect(durationValueFitting(10, [])).toBe('m:10');
  });
  it("starts a new appointment at the company's default, else 30 minutes, else the shortest", () => {
    expect(preferredChoice(60, choices)?.id).toBe(3);
    expect(preferredChoice(1, choices)?.id).toBe(1); // an option id stored as the default
    expect(preferredChoice(null, choices)?.id).toBe(2);
    expect(preferredChoice(45, choices)?.id).toBe(2);
    expect(preferredChoice(null, [{ id: 3, minutes: 60 }])?.id).toBe(3);
  });
});
