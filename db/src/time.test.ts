// PostgreSQL's text timestamps read into the database's one form (ISO 8601 UTC with milliseconds),
// the same as `new Date(text).toISOString()` gave, and through a real connection in several session zones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect, type DatabaseHandle } from './connect.ts';
import { pgTimestamptzToIso } from './time.ts';
import { createTestDatabase, testDialects, type TestDatabase } from './testing/index.ts';

describe('pgTimestamptzToIso', () => {
  it('reads what PostgreSQL writes as new Date did, fractions cut to milliseconds', () => {
    const cases = [
      '2026-12-01 09:00:00+00',
      '2026-12-01 09:00:00.1+00',
      '2026-12-01 09:00:00.12+00',
      '2026-12-01 09:00:00.123456+00',
      '2026-12-01 09:00:00.999999+00',
      '2026-03-29 01:30:00+01',
      '2026-12-01 09:00:00.5+05:30',
      '2026-12-01 23:59:59.999-03',
      '2026-01-01 00:00:00+14',
      '2026-12-31 23:00:00-12',
      '2024-02-29 12:00:00+00',
    ];
    for (const text of cases) expect(pgTimestamptzToIso(text), text).toBe(new Date(text).toISOString());
    // Random instants in random whole-hour and half-hour offsets.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    for (let i = 0; i < 2000; i++) {
      const t = Date.UTC(1970, 0, 1) + Math.floor(next() * 4e12);
      const minutes = (Math.floor(next() * 53) - 24) * 30;
      const d = new Date(t + minutes * 60_000);
      const wall = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
      const frac = i % 3 === 0 ? '' : `.${pad(d.getUTCMilliseconds(), 3)}${i % 3 === 2 ? '456' : ''}`;
      const off = `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}${Math.abs(minutes) % 60 ? `:${pad(Math.abs(minutes) % 60)}` : ''}`;
      const text = `${wall}${frac}${off}`;
      expect(pgTimestamptzToIso(text), text).toBe(new Date(text).toISOString());
      expect(pgTimestamptzToIso(text)).toBe(new Date(Math.floor(t / 1000) * 1000 + (frac ? d.getUTCMilliseconds() : 0)).toISOString());
    }
  });

  it('reads an offset with seconds (old local mean times), which new Date refused', () => {
    expect(pgTimestamptzToIso('1890-01-01 00:00:00+05:53:28')).toBe('1889-12-31T18:06:32.000Z');
  });
});

// The value the server reads back whatever zone the session has (a server whose TimeZone is not UTC).
describe.each(testDialects().filter((d) => d === 'postgres'))('timestamps read from %s', (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = connect(database.url, { poolSize: 1 });
  });
  afterAll(async () => {
    await h.close();
    await database.drop();
  });

  it.each(['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham', 'Europe/London'])('in session zone %s', async (zone) => {
    await sql`select set_config('TimeZone', ${zone}, false)`.execute(h.db);
    const instants = ['2026-12-01T09:00:00.000Z', '2026-03-29T00:59:59.999Z', '2026-03-29T01:00:00.000Z', '2026-06-15T17:45:30.123Z'];
    for (const iso of instants) {
      const { rows } = await sql<{ t: string }>`select ${iso}::timestamptz as t`.execute(h.db);
      expect(rows[0].t).toBe(iso);
    }
    await sql`select set_config('TimeZone', 'UTC', false)`.execute(h.db);
  });
});
