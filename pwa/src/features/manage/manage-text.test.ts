import { describe, expect, it } from 'vitest';
import { noDatesText } from './manage-text.ts';

describe('noDatesText', () => {
  it("names the company's booking window, not a fixed 30 days", () => {
    expect(noDatesText(30)).toBe('No other times are available in the next 30 days.');
    expect(noDatesText(7)).toBe('No other times are available in the next 7 days.');
    expect(noDatesText(365)).toBe('No other times are available in the next 365 days.');
    expect(noDatesText(1)).toBe('No other times are available today.');
  });
});
