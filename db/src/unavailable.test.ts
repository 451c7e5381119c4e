// Which errors mean "the database could not be reached" (a 503 to retry) rather than a failed statement.
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.ts';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('is true for a connection refused, cut or never made, and for a server not taking work', () => {
    for (const err of [
      coded('ECONNREFUSED'),
      coded('ECONNRESET'),
      coded('08006'),
      coded('57P01'),
      coded('57P03'),
      coded('53300'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], ''),
    ])
      expect(isDatabaseUnavailable(err), String((err as { code?: string }).code ?? err.message)).toBe(true);
  });

  it('is false for a statement the database refused, and for anything that is not an error', () => {
    for (const err of [
      coded('23505'),
      coded('40001'),
      coded('SQLITE_CONSTRAINT_UNIQUE'),
      new Error('syntax error at or near "x"'),
      'ECONNREFUSED',
      null,
    ])
      expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
