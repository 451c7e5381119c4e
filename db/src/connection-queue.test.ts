// SQLite's one connection, shared by every request: each caller gets it in turn, none is lost
// (docs/decisions/16-compiled-queries-and-bounded-reads.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, migrateToLatest, type DatabaseHandle } from './connect.ts';
import { createTestDatabase, type TestDatabase } from './testing/index.ts';

describe('the SQLite connection queue', () => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    h = connect(database.url);
    await migrateToLatest(h);
  });
  afterAll(async () => {
    await h.close();
    await database.drop();
  });

  it('serves waiting callers in the order they came while a transaction holds the connection', async () => {
    const served: string[] = [];
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const transaction = h.db.transaction().execute(async (tx) => {
      await tx.insertInto('app_settings').values({ key: 'queue', value: '0' }).execute();
      inside();
      await held;
      served.push('transaction');
    });
    await entered;
    const waiting = Array.from({ length: 20 }, (_, i) =>
      i % 2
        ? h.db
            .selectFrom('app_settings')
            .select('value')
            .where('key', '=', 'queue')
            .executeTakeFirst()
            .then((row) => served.push(`read ${i} ${row?.value}`))
        : h.db
            .transaction()
            .execute((tx) =>
              tx
                .updateTable('app_settings')
                .set({ value: String(i) })
                .where('key', '=', 'queue')
                .execute(),
            )
            .then(() => served.push(`write ${i}`)),
    );
    finish();
    await Promise.all([transaction, ...waiting]);
    // Each read sees the write queued just before it, so they ran in the order they came. They
    // resume together, once the turn's group commit lands (db/src/group-commit.ts), in no set order.
    expect(served[0]).toBe('transaction');
    expect(served.slice(1).sort()).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 ? `read ${i} ${i - 1}` : `write ${i}`)).sort());
  });

  it('passes the connection on after a transaction that failed', async () => {
    const failing = h.db.transaction().execute(async (tx) => {
      await tx.insertInto('app_settings').values({ key: 'failed', value: '1' }).execute();
      throw new Error('changed my mind');
    });
    const after = h.db.selectFrom('app_settings').select('key').where('key', '=', 'failed').execute();
    await expect(failing).rejects.toThrow('changed my mind');
    expect(await after).toEqual([]);
  });
});
