import { describe, expect, it } from 'vitest';
import { displayPhone } from './phone-display.ts';

describe('displayPhone', () => {
  it('groups a stored number as its country writes it, however it was entered', () => {
    expect(displayPhone('+12125550147')).toBe('+1 212 555 0147');
    expect(displayPhone('+1 212 555 0147')).toBe('+1 212 555 0147');
    expect(displayPhone('+442079460958')).toBe('+44 20 7946 0958');
  });

  it('shows a number it cannot read as it was typed', () => {
    expect(displayPhone('(212) 555-0147')).toBe('(212) 555-0147');
    expect(displayPhone('12')).toBe('12');
  });
});
