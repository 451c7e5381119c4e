// The SQLite change stamp: the availability cache is only as exact as this.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, migrateToLatest, type DatabaseHandle } from './connect.ts';
import { createTestDatabase, type TestDatabase } from './testing/index.ts';

describe('changeStamp on SQLite', () => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  let other: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    h = connect(database.url);
    await migrateToLatest(h);
    other = connect(database.url);
  });
  afterAll(async () => {
    await other.close();
    await h.close();
    await database.drop();
  });

  it('stays the same across reads and changes with every write, its own or another connection’s', async () => {
    const stamp = () => h.changeStamp!();
    const s0 = stamp();
    await h.db.selectFrom('app_settings').selectAll().execute();
    expect(stamp()).toBe(s0);

    await h.db.insertInto('app_settings').values({ key: 'a', value: '1' }).execute();
    const s1 = stamp();
    expect(s1).not.toBe(s0);

    await other.db.updateTable('app_settings').set({ value: '2' }).where('key', '=', 'a').execute();
    const s2 = stamp();
    expect(s2).not.toBe(s1);

    // A write that changes no row leaves the data, and the stamp, as they were.
    await h.db.updateTable('app_settings').set({ value: '3' }).where('key', '=', 'missing').execute();
    expect(stamp()).toBe(s2);

    await h.db.deleteFrom('app_settings').where('key', '=', 'a').execute();
    expect(stamp()).not.toBe(s2);
  });

  it('is absent on PostgreSQL handles (no equivalent counter)', async () => {
    const pg = connect('postgres://nobody@127.0.0.1:1/none');
    expect(pg.changeStamp).toBeUndefined();
    await pg.close();
  });
});
