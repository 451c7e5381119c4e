// The instant parser: every form the API reads, exact to the millisecond, and clear errors for the rest.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { canonicalInstantAt, canonicalInstantIn, parseInstant } from './zoned-time.ts';

describe('parseInstant', () => {
  it('reads the database form and other ISO forms; zone-less strings are UTC', () => {
    expect(parseInstant('2026-03-08T10:00:00.000Z')).toBe(Date.UTC(2026, 2, 8, 10));
    expect(parseInstant('2026-03-08T10:00:00.123Z')).toBe(Date.UTC(2026, 2, 8, 10, 0, 0, 123));
    expect(parseInstant('2026-03-08T10:00:00Z')).toBe(Date.UTC(2026, 2, 8, 10));
    expect(parseInstant('2026-03-08T10:00Z')).toBe(Date.UTC(2026, 2, 8, 10));
    expect(parseInstant('2026-03-08 10:00:00')).toBe(Date.UTC(2026, 2, 8, 10));
    expect(parseInstant('2026-03-08T10:00:00.5+01:00')).toBe(Date.UTC(2026, 2, 8, 9, 0, 0, 500));
    expect(parseInstant('2026-03-08T10:00:00-0530')).toBe(Date.UTC(2026, 2, 8, 15, 30));
    expect(parseInstant('2028-02-29T23:59:59.999Z')).toBe(Date.UTC(2028, 1, 29, 23, 59, 59, 999));
    expect(parseInstant('1969-12-31T23:59:59.999Z')).toBe(-1);
  });

  it.each([
    '2026-02-30T10:00:00.000Z',
    '2026-0:-08T10:00:00.000Z',
    '2026-03-08T24:00:00.000Z',
    '2026-03-08T10:60:00.000Z',
    '2026-03-08',
    'soon',
    '',
  ])('rejects %j', (value) => {
    expect(() => parseInstant(value)).toThrow(/Invalid instant/);
  });
});

describe('parseInstant properties', () => {
  it('reads every toISOString output exactly, and the same instant with an offset', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-02T00:00:00.000Z'), max: new Date('9999-12-30T23:59:59.999Z'), noInvalidDate: true }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        (d, offset) => {
          expect(parseInstant(d.toISOString())).toBe(d.getTime());
          const shifted = DateTime.fromJSDate(d, { zone: 'utc' }).setZone(
            offset === 0
              ? 'utc'
              : `UTC${offset > 0 ? '+' : '-'}${Math.floor(Math.abs(offset) / 60)}:${String(Math.abs(offset) % 60).padStart(2, '0')}`,
          );
          expect(parseInstant(shifted.toISO()!)).toBe(d.getTime());
        },
      ),
      { numRuns: 2000 },
    );
  });
});

// parseInstant tries it first; the packed availability reads (availability.repository.ts) read their
// timestamps in place with its twin over bytes, canonicalInstantIn, held to the same cases.
const bytes = (text: string) => new Uint8Array(Buffer.from(text));

describe('canonicalInstantAt and canonicalInstantIn', () => {
  it('reads the database form wherever it starts in a text, exactly as Date does', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
        fc.string({ maxLength: 5 }),
        fc.string({ maxLength: 5 }),
        (d, before, after) => {
          const text = `${before}${d.toISOString()}${after}`;
          expect(canonicalInstantAt(text, before.length)).toBe(d.getTime());
          expect(canonicalInstantIn(bytes(text), Buffer.byteLength(before))).toBe(d.getTime());
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['another layout', '2026-03-08T10:00:00Z1234', 0],
    ['an offset', '2026-03-08T10:00:00.000+01:00', 0],
    ['an impossible date', '2026-02-30T10:00:00.000Z', 0],
    ['a letter for a digit', '2026-03-0xT10:00:00.000Z', 0],
    ['a sign for a digit', '2026-03-08T1-:00:00.000Z', 0],
    ['the end of the text', '2026-03-08T10:00:00.000Z', 1],
    ['a start past the end', '2026-03-08T10:00:00.000Z', 30],
  ])('is NaN for %s', (_what, text, at) => {
    expect(canonicalInstantAt(text, at)).toBeNaN();
    expect(canonicalInstantIn(bytes(text), at)).toBeNaN();
  });
});
