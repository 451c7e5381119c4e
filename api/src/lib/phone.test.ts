// Phone numbers as the API stores them: E.164, read with the company's country when typed without a +.
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { isPossiblePhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import { normalisePhone, toE164 } from './phone.ts';

describe('toE164', () => {
  it.each([
    ['(415) 555-2671', 'US', '+14155552671'],
    ['415.555.2671', 'US', '+14155552671'],
    ['020 7946 0958', 'GB', '+442079460958'],
    ['0044 20 7946 0958', 'GB', '+442079460958'],
    ['+33 1 23 45 67 89', 'GB', '+33123456789'], // international stays in its own country
    ['+33 1 23 45 67 89', 'US', '+33123456789'],
    ['01 23 45 67 89', 'FR', '+33123456789'],
    ['+14155552671', 'DE', '+14155552671'], // already E.164
  ])('%s in %s is %s', (typed, country, e164) => {
    expect(toE164(typed, country)).toBe(e164);
  });

  it('reads a number without + in the US when the country is missing or unknown', () => {
    expect(toE164('(415) 555-2671', null)).toBe('+14155552671');
    expect(toE164('(415) 555-2671', 'XX')).toBe('+14155552671');
  });

  it.each(['abc', '12', '555-2671', '+1 415', '', 'call +1 415 555 2671 please'])('%j is not a possible number', (typed) => {
    expect(toE164(typed, 'US')).toBeNull();
  });

  it('answers what isPossiblePhoneNumber and a second parse answered, parsing once', () => {
    const inputs = [
      '(415) 555-2671',
      '+44 20 7946 0958',
      '07700 900123',
      '+1 415',
      '12345678901234567',
      'tel: 415 555 2671',
      '0044 20 7946 0958 ext. 12',
    ];
    // Digit strings of 6 to 14 digits from a fixed sequence (the same every run).
    let x = 12345;
    for (let i = 0; i < 200; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      inputs.push(
        `${i % 3 ? '+' : ''}${String(x)
          .padEnd(14, String(i % 10))
          .slice(0, 6 + (i % 9))}`,
      );
    }
    for (const typed of inputs)
      for (const country of ['US', 'GB', 'FR', 'DE', 'IN'] as const) {
        const before = isPossiblePhoneNumber(typed, country) ? (parsePhoneNumberFromString(typed, country)?.number ?? null) : null;
        expect(toE164(typed, country), `${typed} in ${country}`).toBe(before);
      }
  });
});

describe('normalisePhone', () => {
  it('answers E.164, and null for an empty field', () => {
    expect(normalisePhone('  (415) 555-2671 ', 'US', 'phone')).toBe('+14155552671');
    expect(normalisePhone('', 'US', 'phone')).toBeNull();
    expect(normalisePhone('   ', 'US', 'phone')).toBeNull();
    expect(normalisePhone(null, 'US', 'phone')).toBeNull();
    expect(normalisePhone(undefined, 'US', 'phone')).toBeNull();
  });

  it('refuses an impossible number with a 400 naming the field', () => {
    let caught: unknown;
    try {
      normalisePhone('12', 'GB', 'customer.phone');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    const err = caught as AppError;
    expect(err.status).toBe(400);
    expect(err.code).toBe('validation');
    expect(err.message).toMatch(/^customer\.phone is not a possible phone number/);
    expect(err.message).toContain('GB');
    expect(err.options.details).toEqual([{ path: 'customer.phone', message: err.message }]);
  });
});
