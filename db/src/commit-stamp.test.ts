// SQLite's commit stamp, and the generation reads it lets availability skip: a cached answer is only
// as exact as these.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { connect, migrateToLatest, type DatabaseHandle } from './connect.ts';
import { availabilityGenerations, skipGenerationReadsWhileUnchanged } from './availability-generation.ts';
import type { Database } from './schema.ts';
import { createTestDatabase, type TestDatabase } from './testing/index.ts';

describe('the commit stamp on SQLite', () => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  let other: DatabaseHandle;
  let companyId: number;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    h = connect(database.url);
    await migrateToLatest(h);
    other = connect(database.url);
    companyId = Number(
      (
        await h.db
          .insertInto('companies')
          .values({ name: 'Stamp', slug: 'stamp' } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  });
  afterAll(async () => {
    await other.close();
    await h.close();
    await database.drop();
  });

  it('stays the same across reads and changes with every commit, its own or another connection’s', async () => {
    const stamp = () => h.commitStamp!();
    const s0 = stamp();
    expect(s0).not.toBeNull();
    await h.db.selectFrom('app_settings').selectAll().execute();
    expect(stamp()).toBe(s0);

    await h.db.insertInto('app_settings').values({ key: 'a', value: '1' }).execute();
    const s1 = stamp();
    expect(s1).not.toBe(s0);

    await other.db.updateTable('app_settings').set({ value: '2' }).where('key', '=', 'a').execute();
    const s2 = stamp();
    expect(s2).not.toBe(s1);

    // Another connection's transaction changes nothing until it commits.
    let commit!: () => void;
    const open = new Promise<void>((resolve) => (commit = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const transaction = other.db.transaction().execute(async (tx) => {
      await tx.updateTable('app_settings').set({ value: '3' }).where('key', '=', 'a').execute();
      wrote();
      await open;
    });
    await written;
    expect(stamp()).toBe(s2);
    commit();
    await transaction;
    expect(stamp()).not.toBe(s2);
  });

  it('is absent where there is no WAL file to read: in memory, and on PostgreSQL', async () => {
    const memory = connect(':memory:');
    expect(memory.commitStamp).toBeUndefined();
    await memory.close();
    const pg = connect('postgres://nobody@127.0.0.1:1/none');
    expect(pg.commitStamp).toBeUndefined();
    await pg.close();
  });

  it('lets generation reads be skipped until anyone commits, and never serves a generation from before a commit', async () => {
    let reads = 0;
    const counting = new Proxy(h.db, {
      get(target, key) {
        if (key === 'executeQuery')
          return (...args: Parameters<Kysely<Database>['executeQuery']>) => {
            reads++;
            return target.executeQuery(...args);
          };
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    skipGenerationReadsWhileUnchanged(counting, () => h.commitStamp!());
    const first = await availabilityGenerations(counting, companyId);
    expect(first).toBeDefined();
    expect(await availabilityGenerations(counting, companyId)).toEqual(first);
    expect(reads).toBe(1);
    expect(await availabilityGenerations(counting, 999_999)).toBeUndefined();
    expect(await availabilityGenerations(counting, 999_999)).toBeUndefined();
    expect(reads).toBe(2);

    // Another process's write moves the generation: the next call reads it.
    await other.db.updateTable('companies').set({ time_increment_minutes: 15 }).where('id', '=', companyId).execute();
    const after = await availabilityGenerations(counting, companyId);
    expect(after!.availability).toBeGreaterThan(first!.availability);
    expect(reads).toBe(3);

    // So does any commit, even one that moves no generation (the stamp is the whole database's).
    await other.db.insertInto('app_settings').values({ key: 'unrelated', value: '1' }).execute();
    expect(await availabilityGenerations(counting, companyId)).toEqual(after);
    expect(reads).toBe(4);
  });

  it('always reads inside a transaction', async () => {
    const before = await availabilityGenerations(h.db, companyId);
    await h.db.transaction().execute(async (tx) => {
      await tx.updateTable('companies').set({ time_increment_minutes: 20 }).where('id', '=', companyId).execute();
      expect((await availabilityGenerations(tx, companyId))!.availability).toBeGreaterThan(before!.availability);
    });
    expect((await availabilityGenerations(h.db, companyId))!.availability).toBeGreaterThan(before!.availability);
  });
});
