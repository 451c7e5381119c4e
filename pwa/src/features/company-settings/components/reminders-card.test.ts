// The Reminders card's check of the hours typed: a whole number from 1 to 168, as the API accepts.
import { describe, expect, it } from 'vitest';
import { parseReminderHours } from './reminders-card.tsx';

describe('parseReminderHours', () => {
  it('accepts whole hours from 1 to 168', () => {
    expect(parseReminderHours('1')).toEqual({ hours: 1 });
    expect(parseReminderHours(' 24 ')).toEqual({ hours: 24 });
    expect(parseReminderHours('168')).toEqual({ hours: 168 });
  });

  it('refuses anything else with the same message', () => {
    for (const v of ['0', '169', '', '2.5', '-3', 'abc', '1e2']) {
      expect(parseReminderHours(v)).toEqual({ error: 'Enter a whole number of hours from 1 to 168 (one week).' });
    }
  });
});
