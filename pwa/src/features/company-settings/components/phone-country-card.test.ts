// The country list of Company settings: every country the API accepts, named, with its calling code.
import { describe, expect, it } from 'vitest';
import { isSupportedCountry } from 'libphonenumber-js';
import { countryChoices } from './phone-country-card.tsx';

describe('countryChoices', () => {
  const choices = countryChoices('US', 'en');

  it('names each country with its calling code', () => {
    expect(choices.find((c) => c.code === 'GB')).toEqual({ code: 'GB', name: 'United Kingdom', label: 'United Kingdom (+44)' });
    expect(choices.find((c) => c.code === 'US')).toEqual({ code: 'US', name: 'United States', label: 'United States (+1)' });
    expect(choices.find((c) => c.code === 'FR')?.label).toBe('France (+33)');
  });

  it('offers every country the server accepts, each once, sorted by name', () => {
    expect(choices.length).toBeGreaterThan(200);
    expect(new Set(choices.map((c) => c.code)).size).toBe(choices.length);
    expect(choices.every((c) => /^[A-Z]{2}$/.test(c.code) && isSupportedCountry(c.code))).toBe(true);
    const labels = choices.map((c) => c.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it("keeps the company's own code even when it is not in the list", () => {
    expect(countryChoices('ZZ', 'en').filter((c) => c.code === 'ZZ')).toHaveLength(1);
  });
});
