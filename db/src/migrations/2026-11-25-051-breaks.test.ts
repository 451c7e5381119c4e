// The breaks migration on both databases: one row per weekday before, several after; going back keeps
// each day's earliest row and brings the unique indexes back (docs/decisions/27-scheduling-rules.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../connect.ts';
import { testDialects, type TestDatabase } from '../testing/index.ts';
import { databaseWithout, insertedId } from '../testing/migration-test.ts';
import { down, up } from './2026-11-25-051-breaks.ts';

const NAME = '2026-11-25-051-breaks';

describe.each(testDialects())('migration %s on %s', (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  let companyId: number;
  let personId: number;

  beforeAll(async () => {
    ({ database, h } = await databaseWithout(dialect, NAME));
    companyId = await insertedId(h.db, 'companies', { name: 'Breaks', slug: 'breaks' });
    personId = await insertedId(h.db, 'users', { company_id: companyId, name: 'Staff', email: 'staff@breaks.test', role: 'employee' });
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  const hours = (userId: number | null, open: string, close: string) =>
    h.db
      .insertInto('operating_hours')
      .values({ company_id: companyId, user_id: userId, day_of_week: 1, open_time: open, close_time: close, is_closed: 0 })
      .execute();
  const mondays = (userId: number | null) =>
    h.db
      .selectFrom('operating_hours')
      .select(['open_time'])
      .where('company_id', '=', companyId)
      .where('user_id', userId === null ? 'is' : '=', userId)
      .where('day_of_week', '=', 1)
      .orderBy('id')
      .execute();

  it('allows several rows per owner and weekday once applied, and going back keeps the earliest of each day', async () => {
    await hours(null, '09:00:00', '12:00:00');
    await hours(personId, '10:00:00', '11:00:00');
    await expect(hours(null, '13:00:00', '17:00:00')).rejects.toThrow();
    await expect(hours(personId, '13:00:00', '17:00:00')).rejects.toThrow();

    await migrateToLatest(h);
    await hours(null, '13:00:00', '17:00:00');
    await hours(personId, '13:00:00', '17:00:00');
    expect(await mondays(null)).toEqual([{ open_time: '09:00:00' }, { open_time: '13:00:00' }]);
    expect(await mondays(personId)).toEqual([{ open_time: '10:00:00' }, { open_time: '13:00:00' }]);

    await down(h.db);
    expect(await mondays(null)).toEqual([{ open_time: '09:00:00' }]);
    expect(await mondays(personId)).toEqual([{ open_time: '10:00:00' }]);
    await expect(hours(null, '13:00:00', '17:00:00')).rejects.toThrow();
    await up(h.db);
    await hours(null, '13:00:00', '17:00:00');
    expect(await mondays(null)).toHaveLength(2);
  });
});
