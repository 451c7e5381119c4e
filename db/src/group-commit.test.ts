// SQLite group commit (docs/decisions/35-sqlite-group-commit.md): one event-loop turn's transactions
// share one commit, nobody resumes before it has landed, and a failed commit fails all of them.
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect, migrateToLatest, sqlitePathFromUrl, type DatabaseHandle } from './connect.ts';
import { createTestDatabase, type TestDatabase } from './testing/index.ts';

describe('SQLite group commit', () => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  /** Another connection to the same file: sees only what has committed. */
  let other: SQLite.Database;
  const committed = (key: string) => other.prepare('select value from app_settings where key = ?').pluck().get(key) as string | undefined;

  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
    h = connect(database.url, { groupCommit: 'always' });
    await migrateToLatest(h);
    other = new SQLite(sqlitePathFromUrl(database.url), { readonly: true });
  });
  afterEach(async () => {
    other.close();
    await h.close();
    await database.drop();
  });

  const insert = (key: string) => h.db.transaction().execute((tx) => tx.insertInto('app_settings').values({ key, value: key }).execute());

  it('commits the transactions of one turn together, and each resumes only once its writes are committed', async () => {
    const before = h.commitStamp!();
    const seen: { key: string; visible: string | undefined; stamp: string | null }[] = [];
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((key) => insert(key).then(() => seen.push({ key, visible: committed(key), stamp: h.commitStamp!() }))),
    );
    expect(seen.map((s) => s.visible).sort()).toEqual(['a', 'b', 'c', 'd']);
    // One commit for the four: the stamp moved once.
    expect(new Set(seen.map((s) => s.stamp)).size).toBe(1);
    expect(seen[0].stamp).not.toBe(before);
  });

  it('rolls back only the transaction that failed', async () => {
    const failing = h.db.transaction().execute(async (tx) => {
      await tx.insertInto('app_settings').values({ key: 'no', value: 'no' }).execute();
      throw new Error('changed my mind');
    });
    const results = await Promise.allSettled([insert('yes 1'), failing, insert('yes 2')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect([committed('yes 1'), committed('no'), committed('yes 2')]).toEqual(['yes 1', undefined, 'yes 2']);
  });

  it('fails every transaction of the group, and whoever read its writes, when the commit fails', async () => {
    let lost = 0;
    h.onLostCommit!(() => lost++);
    const good = insert('good');
    // A deferred foreign key is checked at COMMIT, and this row breaks it: the group's commit fails.
    const bad = h.db.transaction().execute(async (tx) => {
      await sql`pragma defer_foreign_keys = on`.execute(tx);
      await tx.insertInto('appointment_service_types').values({ appointment_id: 987654, service_type_id: 987654 }).execute();
    });
    // Reads the first transaction's row before the commit: it must not be answered as if it were true.
    const read = h.db.selectFrom('app_settings').select('value').where('key', '=', 'good').executeTakeFirst();
    const results = await Promise.allSettled([good, bad, read]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(committed('good')).toBeUndefined();
    expect(lost).toBe(1);
    // The connection goes on: the next turn's transactions commit.
    await insert('after');
    expect(committed('after')).toBe('after');
    expect(await h.db.selectFrom('app_settings').select('key').where('key', '=', 'good').execute()).toEqual([]);
  });

  it('commits a transaction still waiting for its turn to end when the handle closes', async () => {
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const pending = h.db.transaction().execute(async (tx) => {
      await tx.insertInto('app_settings').values({ key: 'closing', value: 'closing' }).execute();
      inside();
    });
    await entered;
    await h.close();
    await pending;
    expect(committed('closing')).toBe('closing');
    h = connect(database.url, { groupCommit: 'always' });
  });

  /** Writes `n` rows in `n` transactions begun in one turn; how many commits the writers saw once they resumed. */
  const writesInOneTurn = async (handle: DatabaseHandle, n: number) => {
    // A turn of its own: the previous one has ended.
    await new Promise((resolve) => setImmediate(resolve));
    const stamps: (string | null)[] = [];
    const tag = Math.random().toString(36).slice(2);
    const keys = Array.from({ length: n }, (_, i) => `${tag} ${i}`);
    await Promise.all(
      keys.map((key) =>
        handle.db
          .transaction()
          .execute((tx) => tx.insertInto('app_settings').values({ key, value: key }).execute())
          .then(() => stamps.push(handle.commitStamp!())),
      ),
    );
    expect(keys.map(committed)).toEqual(keys);
    return new Set(stamps).size;
  };

  it('commits each transaction alone when turned off', async () => {
    const alone = connect(database.url, { groupCommit: 'off' });
    try {
      expect(await writesInOneTurn(alone, 2)).toBe(2);
    } finally {
      await alone.close();
    }
  });

  it('by default groups only once turns hold several transactions, so a quiet server commits each at once', async () => {
    const usual = connect(database.url);
    try {
      // Turns of one or two transactions (a quiet server): each commits alone.
      expect(await writesInOneTurn(usual, 1)).toBe(1);
      expect(await writesInOneTurn(usual, 2)).toBe(2);
      // Requests queue behind each other: once turns hold several, they share a commit.
      expect(await writesInOneTurn(usual, 6)).toBe(6);
      expect(await writesInOneTurn(usual, 6)).toBe(1);
      // Quiet again: back to a commit each.
      for (let i = 0; i < 8; i++) await writesInOneTurn(usual, 1);
      expect(await writesInOneTurn(usual, 2)).toBe(2);
    } finally {
      await usual.close();
    }
  });
});
