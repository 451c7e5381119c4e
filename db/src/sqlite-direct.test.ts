// A SQLite transaction's compiled statements run on its connection at once
// (docs/decisions/42-sqlite-statements-in-a-transaction.md); every other statement still waits for the
// connection, so nothing outside a transaction reads what one has not committed.
import { beforeEach, describe, expect, it } from 'vitest';
import { CamelCasePlugin, sql } from 'kysely';
import { arg, prepared, preparedWrite } from './prepared.ts';
import { readTogether } from './deferred-writes.ts';
import { rowsInTransaction } from './sqlite-direct.ts';
import { testDialects } from './testing/index.ts';
import { databaseForSuite } from './testing/suite.ts';

const setting = preparedWrite<[key: string, value: string]>((db) => db.insertInto('app_settings').values({ key: arg(0), value: arg(1) }));
const valueOf = prepared<[key: string], { value: string }>((db) => db.selectFrom('app_settings').select('value').where('key', '=', arg(0)));
const namedValue = prepared<[key: string], { setting_value: string }>((db) =>
  db.selectFrom('app_settings').select('value as setting_value').where('key', '=', arg(0)),
);

describe.each(testDialects())('statements of a transaction on %s', (dialect) => {
  // Grouped or not, a transaction holds the connection until it ends (db/src/group-commit.ts).
  const suite = databaseForSuite(dialect, { groupCommit: 'always' });
  beforeEach(async () => {
    await suite.h.db.deleteFrom('app_settings').execute();
  });

  it('run at once on SQLite inside a transaction only; PostgreSQL and statements outside one go through Kysely', async () => {
    const query = valueOf.bound(suite.h.db, ['a']);
    expect(rowsInTransaction(suite.h.db, query)).toBeUndefined();
    await suite.h.db.transaction().execute(async (trx) => {
      expect(rowsInTransaction(trx, query)).toEqual(dialect === 'sqlite' ? [] : undefined);
    });
  });

  it('see their own writes, are committed with the transaction and undone by its rollback', async () => {
    await suite.h.db.transaction().execute(async (trx) => {
      await setting(trx, ['kept', '1']);
      expect(await valueOf(trx, ['kept'])).toEqual([{ value: '1' }]);
      expect(await readTogether(trx, [valueOf.bound(trx, ['kept']), valueOf.bound(trx, ['none'])])).toEqual([[{ value: '1' }], []]);
    });
    await expect(
      suite.h.db.transaction().execute(async (trx) => {
        await setting(trx, ['dropped', '2']);
        await setting(trx, ['kept', 'again']);
      }),
    ).rejects.toThrow();
    expect(await valueOf(suite.h.db, ['kept'])).toEqual([{ value: '1' }]);
    expect(await valueOf(suite.h.db, ['dropped'])).toEqual([]);
  });

  it('never let a statement outside the transaction read what it has not committed', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const transaction = suite.h.db.transaction().execute(async (trx) => {
      await setting(trx, ['open', '1']);
      written();
      await held;
    });
    await wrote;
    let seen: unknown = 'not yet';
    const outside = valueOf(suite.h.db, ['open']).then((rows) => (seen = rows));
    // SQLite: the statement waits for the one connection, held by the transaction; PostgreSQL: another
    // connection answers while the transaction is still open, from what is committed. Awaiting that
    // answer (rather than a fixed pause) keeps a loaded machine's slow new connection from failing it.
    if (dialect === 'sqlite') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen).toEqual('not yet');
    } else {
      await outside;
      expect(seen).toEqual([]);
    }
    release();
    await transaction;
    await outside;
    if (dialect === 'sqlite') expect(seen).toEqual([{ value: '1' }]);
    expect(await valueOf(suite.h.db, ['open'])).toEqual([{ value: '1' }]);
  });

  it('go through Kysely when the transaction has plugins, which then apply', async () => {
    await suite.h.db
      .withPlugin(new CamelCasePlugin())
      .transaction()
      .execute(async (trx) => {
        await sql`insert into app_settings (key, value) values ('p', '1')`.execute(trx);
        expect(rowsInTransaction(trx, namedValue.bound(trx, ['p']))).toBeUndefined();
        expect(await namedValue(trx, ['p'])).toEqual([{ settingValue: '1' }]);
      });
  });
});
