// The hours check shared by the Reminders (1 to 168) and Customer changes (0 to 168) cards: the
// bounds are the card's own, and the message names them.
import { describe, expect, it } from 'vitest';
import { parseWholeHours } from './hours-setting-card.tsx';

describe('parseWholeHours', () => {
  it('accepts 0 when the lower bound is 0 (Customer changes: until the start)', () => {
    expect(parseWholeHours('0', 0, 168)).toEqual({ hours: 0 });
    expect(parseWholeHours('168', 0, 168)).toEqual({ hours: 168 });
  });

  it('refuses what is outside the bounds given, naming them', () => {
    expect(parseWholeHours('169', 0, 168)).toEqual({ error: 'Enter a whole number of hours from 0 to 168 (one week).' });
    expect(parseWholeHours('0', 1, 168)).toEqual({ error: 'Enter a whole number of hours from 1 to 168 (one week).' });
  });
});
