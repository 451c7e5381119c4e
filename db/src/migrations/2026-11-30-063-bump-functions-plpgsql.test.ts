// Migration 063: PostgreSQL's bump functions are PL/pgSQL after it (SQL after down()), and the
// counters move exactly as before: an appointment moves the availability generation, a change of
// the company's set-up both, on every dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { availabilityGenerations } from '../availability-generation.ts';
import { migrateToLatest, type DatabaseHandle } from '../connect.ts';
import { testDialects, type TestDatabase } from '../testing/index.ts';
import { databaseWithout, insertedId } from '../testing/migration-test.ts';
import { down, up } from './2026-11-30-063-bump-functions-plpgsql.ts';

const NAME = '2026-11-30-063-bump-functions-plpgsql';

describe.each(testDialects())(`migration ${NAME} on %s`, (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  let companyId: number;
  let hour = 8;

  /** The languages of the two bump functions (PostgreSQL), in name order. */
  const languages = async () =>
    (
      await sql<{ lanname: string }>`select l.lanname from pg_proc p join pg_language l on l.oid = p.prolang
        where p.proname in ('bump_availability_generation', 'bump_settings_generation') order by p.proname`.execute(h.db)
    ).rows.map((r) => r.lanname);
  /** How far a write moved the company's two counters: [availability, settings]. */
  const moves = async (write: () => Promise<unknown>) => {
    const before = (await availabilityGenerations(h.db, companyId))!;
    await write();
    const after = (await availabilityGenerations(h.db, companyId))!;
    return [after.availability - before.availability, after.settings - before.settings];
  };
  const appointment = () =>
    moves(() => {
      hour++;
      return insertedId(h.db, 'appointments', {
        company_id: companyId,
        start_time: new Date(Date.UTC(2027, 0, 1, hour)).toISOString(),
        end_time: new Date(Date.UTC(2027, 0, 1, hour, 30)).toISOString(),
      });
    });
  const hours = () =>
    moves(() =>
      h.db
        .insertInto('operating_hours')
        .values({ company_id: companyId, day_of_week: hour++ % 7, open_time: '09:00', close_time: '17:00', is_closed: 0 })
        .execute(),
    );

  beforeAll(async () => {
    ({ database, h } = await databaseWithout(dialect, NAME));
    companyId = await insertedId(h.db, 'companies', { name: 'bump', slug: `bump-${dialect}` });
    // The company's first 30 minutes lengthen its longest appointment (a setting); later ones do not.
    await appointment();
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  it('moves the counters as before, through PL/pgSQL functions after it and SQL ones after down()', async () => {
    if (dialect === 'postgres') expect(await languages(), 'before').toEqual(['sql', 'sql']);
    expect(await appointment()).toEqual([1, 0]);
    const res = await migrateToLatest(h);
    if (res.error) throw res.error;
    if (dialect === 'postgres') expect(await languages(), 'after').toEqual(['plpgsql', 'plpgsql']);
    expect(await appointment()).toEqual([1, 0]);
    expect(await hours()).toEqual([1, 1]);
    await down(h.db);
    if (dialect === 'postgres') expect(await languages(), 'after down()').toEqual(['sql', 'sql']);
    expect(await hours()).toEqual([1, 1]);
    await up(h.db);
    expect(await appointment()).toEqual([1, 0]);
  });
});
