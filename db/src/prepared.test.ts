// Prepared queries: compiled once per dialect, run with each call's own arguments, in and out of transactions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect, migrateToLatest, type DatabaseHandle } from './connect.ts';
import { arg, prepared } from './prepared.ts';
import { createTestDatabase, testDialects, type TestDatabase } from './testing/index.ts';

describe.each(testDialects())('prepared queries on %s', (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = connect(database.url);
    await migrateToLatest(h);
    for (const [key, value] of [
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
    ])
      await h.db.insertInto('app_settings').values({ key, value }).execute();
  });
  afterAll(async () => {
    await h.close();
    await database.drop();
  });

  const between = prepared<[from: string, to: string], { key: string }>((db) =>
    db
      .selectFrom('app_settings')
      .select('key')
      .where('key', '>=', arg(0))
      .where('key', '<=', arg(1))
      .where('value', '<>', '0')
      .orderBy('key'),
  );

  it('runs with each call’s arguments, keeping the constants of the build', async () => {
    expect((await between(h.db, ['a', 'b'])).map((r) => r.key)).toEqual(['a', 'b']);
    expect((await between(h.db, ['b', 'c'])).map((r) => r.key)).toEqual(['b', 'c']);
    expect(await between(h.db, ['x', 'z'])).toEqual([]);
  });

  it('runs inside a transaction and sees its uncommitted writes', async () => {
    await h.db.transaction().execute(async (trx) => {
      await trx.insertInto('app_settings').values({ key: 'bb', value: '9' }).execute();
      expect((await between(trx, ['b', 'c'])).map((r) => r.key)).toEqual(['b', 'bb', 'c']);
      await trx.deleteFrom('app_settings').where('key', '=', 'bb').execute();
    });
    expect((await between(h.db, ['b', 'c'])).map((r) => r.key)).toEqual(['b', 'c']);
  });

  it('treats an argument as a value, never as SQL', async () => {
    expect(await between(h.db, ["a' or '1'='1", 'a'])).toEqual([]);
  });

  it('refuses a build that leaves an argument out or writes one into the SQL text', async () => {
    const unused = prepared<[a: string, b: string], { key: string }>((db) =>
      db.selectFrom('app_settings').select('key').where('key', '=', arg(0)),
    );
    await expect(unused(h.db, ['a', 'b'])).rejects.toThrow(/does not use argument 1/);
    const inlined = prepared<[a: string], { key: string }>((db) =>
      db
        .selectFrom('app_settings')
        .select('key')
        .where('key', '=', sql.lit(arg<string>(0))),
    );
    await expect(inlined(h.db, ['a'])).rejects.toThrow(/inlines an argument/);
  });
});
