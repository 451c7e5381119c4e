// Deferred writes (docs/decisions/34-batched-round-trips.md): a transaction's held statements are
// seen by everything after them, fail the transaction when they fail, vanish on rollback, and cost
// no round trip of their own on PostgreSQL.
import { beforeEach, describe, expect, it } from 'vitest';
import { connect } from './connect.ts';
import { arg, prepared, preparedWrite } from './prepared.ts';
import { deferredWrite, inlineParameters, readTogether } from './deferred-writes.ts';
import { testDialects } from './testing/index.ts';
import { databaseForSuite } from './testing/suite.ts';
import pg from 'pg';
import { sql } from 'kysely';

const setting = preparedWrite<[key: string, value: string]>((db) => db.insertInto('app_settings').values({ key: arg(0), value: arg(1) }));
const valueOf = prepared<[key: string], { value: string }>((db) => db.selectFrom('app_settings').select('value').where('key', '=', arg(0)));

describe.each(testDialects())('deferred writes on %s', (dialect) => {
  let sent: string[] = [];
  const suite = databaseForSuite(dialect, { onRoundTrip: (text) => sent.push(text) });
  beforeEach(async () => {
    await suite.h.db.deleteFrom('app_settings').execute();
    sent = [];
  });

  const all = async () =>
    (await suite.h.db.selectFrom('app_settings').select(['key', 'value']).orderBy('key').execute()).map((r) => `${r.key}=${r.value}`);

  it('are seen by the statements after them and committed with the transaction', async () => {
    await suite.h.db.transaction().execute(async (trx) => {
      await setting(trx, ['a', '1']);
      await deferredWrite(trx, trx.insertInto('app_settings').values({ key: 'b', value: '2' }));
      expect(await valueOf(trx, ['b'])).toEqual([{ value: '2' }]);
      await setting(trx, ['c', '3']);
    });
    expect(await all()).toEqual(['a=1', 'b=2', 'c=3']);
  });

  it('keep their values exactly, whatever characters they hold', async () => {
    const odd = [
      "it's",
      'back\\slash',
      "it's a back\\slash",
      '$1 and $2',
      'line\nbreak',
      '“quotes” ünïcode 🙂',
      "'; drop table app_settings; --",
      '',
    ];
    await suite.h.db.transaction().execute(async (trx) => {
      for (const [i, value] of odd.entries()) await setting(trx, [`k${i}`, value]);
    });
    for (const [i, value] of odd.entries()) expect((await valueOf(suite.h.db, [`k${i}`]))[0]?.value).toBe(value);
  });

  it('fail the transaction when one of them fails, and nothing of it is written', async () => {
    await expect(
      suite.h.db.transaction().execute(async (trx) => {
        await setting(trx, ['a', '1']);
        await setting(trx, ['a', 'again']);
        await setting(trx, ['b', '2']);
      }),
    ).rejects.toThrow(/unique|UNIQUE/);
    expect(await all()).toEqual([]);
  });

  it('are dropped by a rollback', async () => {
    await expect(
      suite.h.db.transaction().execute(async (trx) => {
        await trx.insertInto('app_settings').values({ key: 'a', value: '1' }).execute();
        await setting(trx, ['b', '2']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await all()).toEqual([]);
  });

  it('run at once outside a transaction', async () => {
    await setting(suite.h.db, ['a', '1']);
    expect(await all()).toEqual(['a=1']);
  });

  // Reads sent together (readTogether, docs/decisions/40-appointment-id-with-the-lock.md).
  const keysFrom = prepared<[from: string], { key: string }>((db) =>
    db.selectFrom('app_settings').select('key').where('key', '>=', arg(0)).orderBy('key'),
  );
  it('reads asked for together answer each one its own rows, in order, and see the held writes before them', async () => {
    await setting(suite.h.db, ['a', "it's"]);
    const answers = await suite.h.db.transaction().execute(async (trx) => {
      await setting(trx, ['b', 'back\\slash']);
      return readTogether(trx, [
        valueOf.bound(trx, ['b']),
        keysFrom.bound(trx, ['a']),
        valueOf.bound(trx, ['none']),
        valueOf.bound(trx, ['a']),
      ]);
    });
    expect(answers).toEqual([[{ value: 'back\\slash' }], [{ key: 'a' }, { key: 'b' }], [], [{ value: "it's" }]]);
    // Outside a transaction too.
    expect(await readTogether(suite.h.db, [keysFrom.bound(suite.h.db, ['b']), valueOf.bound(suite.h.db, ['a'])])).toEqual([
      [{ key: 'b' }],
      [{ value: "it's" }],
    ]);
  });
  // Round trips exist on PostgreSQL only (SQLite runs in the process).
  if (dialect === 'postgres') {
    it('go out with the next statement: one round trip for begin, the writes and a read, one for the rest and commit', async () => {
      await suite.h.db.transaction().execute(async (trx) => {
        await setting(trx, ['a', '1']);
        await setting(trx, ['b', '2']);
        expect(await valueOf(trx, ['a'])).toEqual([{ value: '1' }]);
        await setting(trx, ['c', '3']);
      });
      expect(sent).toHaveLength(2);
      expect(sent[0]).toMatch(/^begin;\ninsert into "app_settings"[^]*;\ninsert[^]*;\nselect "value"/);
      expect(sent[1]).toMatch(/^insert into "app_settings"[^]*;\ncommit$/);
      expect(await all()).toEqual(['a=1', 'b=2', 'c=3']);
    });

    it('reads asked for together go out in one message, with the held writes; one that cannot be inlined goes alone', async () => {
      await suite.h.db.transaction().execute(async (trx) => {
        await setting(trx, ['a', '1']);
        const [a, keys] = await readTogether(trx, [valueOf.bound(trx, ['a']), keysFrom.bound(trx, ['a'])]);
        expect([a, keys]).toEqual([[{ value: '1' }], [{ key: 'a' }]]);
        // A backslash in the SQL: not rewritten with literals, so each read is sent on its own.
        const odd = { ...keysFrom.bound(trx, ['a']), sql: `select 'x\\y' as "key" where $1::text is not null` };
        expect(await readTogether(trx, [odd, valueOf.bound(trx, ['a'])])).toEqual([[{ key: 'x\\y' }], [{ value: '1' }]]);
      });
      expect(sent).toHaveLength(4);
      expect(sent[0]).toMatch(/^begin;\ninsert into "app_settings"[^]*;\nselect "value" [^]*'a';\nselect "key" [^]*'a' order by "key"$/);
      expect(sent[1]).toContain(`'x\\y'`);
      expect(sent[3]).toBe('commit');
    });

    // docs/decisions/41-named-statements-in-shared-messages.md
    it('a statement the connection has prepared goes in a shared message by name, reusing its plan; the first time it goes alone', async () => {
      const one = connect(suite.database.url, { poolSize: 1, onRoundTrip: (text) => sent.push(text) });
      try {
        const plansOf = async () => {
          const { rows } = await sql<{ statement: string; plans: number }>`
            select statement, custom_plans + generic_plans as plans from pg_prepared_statements`.execute(one.db);
          const of = (q: { sql: string }) => rows.find((r) => r.statement === q.sql)?.plans ?? 0;
          return [of(valueOf.bound(one.db, ['a'])), of(keysFrom.bound(one.db, ['a']))];
        };
        expect(await valueOf(one.db, ['none'])).toEqual([]);
        expect(await plansOf()).toEqual([1, 0]);
        // keysFrom is new to this connection: sent on its own with its name, which prepares it.
        sent = [];
        await one.db.transaction().execute(async (trx) => {
          await setting(trx, ['a', "it's"]);
          expect(await readTogether(trx, [valueOf.bound(trx, ['a']), keysFrom.bound(trx, ['a'])])).toEqual([
            [{ value: "it's" }],
            [{ key: 'a' }],
          ]);
        });
        expect(sent.length).toBeGreaterThan(2);
        expect(await plansOf()).toEqual([2, 1]);
        // Now all three go by name: begin, the held write and both reads in one message, run on the kept plans.
        sent = [];
        await one.db.transaction().execute(async (trx) => {
          await setting(trx, ['b', 'back\\slash']);
          expect(await readTogether(trx, [valueOf.bound(trx, ['b']), keysFrom.bound(trx, ['b'])])).toEqual([
            [{ value: 'back\\slash' }],
            [{ key: 'b' }],
          ]);
        });
        expect(sent).toHaveLength(2);
        // What the observer sees is the statements with their values written in.
        expect(sent[0]).toMatch(
          /^begin;\ninsert into "app_settings" [^]*'b',\s+E'back\\\\slash'\);\nselect "value" [^]*'b';\nselect "key" [^]*'b' order by "key"$/,
        );
        expect(await plansOf()).toEqual([3, 2]);
        // A held write run by name that fails is still the error the next statement reports.
        const failed = await one.db
          .transaction()
          .execute(async (trx) => {
            await setting(trx, ['a', 'again']);
            await valueOf(trx, ['a']);
          })
          .catch((err: { code?: string }) => err);
        expect(failed).toMatchObject({ code: '23505' });
        expect(await all()).toEqual(["a=it's", 'b=back\\slash']);
      } finally {
        await one.close();
      }
    });

    it('a held write that fails is the error the next statement reports', async () => {
      const failed = await suite.h.db
        .transaction()
        .execute(async (trx) => {
          await setting(trx, ['a', '1']);
          await setting(trx, ['a', 'duplicate']);
          await valueOf(trx, ['a']);
        })
        .catch((err: { code?: string }) => err);
      expect(failed).toMatchObject({ code: '23505' }); // unique_violation, not "transaction is aborted"
      expect(await all()).toEqual([]);
    });

    it('cost nothing when the transaction sends nothing', async () => {
      await expect(
        suite.h.db.transaction().execute(async () => {
          throw new Error('before any statement');
        }),
      ).rejects.toThrow();
      await expect(
        suite.h.db.transaction().execute(async (trx) => {
          await setting(trx, ['a', 'held']);
          throw new Error('only held writes so far');
        }),
      ).rejects.toThrow();
      await suite.h.db.transaction().execute(async () => {});
      expect(sent).toEqual([]);
    });
  }
});

describe('inlineParameters', () => {
  it('writes values as PostgreSQL literals and leaves SQL it cannot rewrite safely alone', () => {
    expect(inlineParameters('insert into t (a, b, c) values ($1, $2, $3)', ["o'k", null, 5])).toBe(
      "insert into t (a, b, c) values ('o''k', null, '5')",
    );
    expect(
      inlineParameters(
        'select $1, $10',
        Array.from({ length: 10 }, (_, i) => i + 1),
      ),
    ).toBe("select '1', '10'");
    expect(inlineParameters("select 'x' || $1", ['y'])).toBe("select 'x' || 'y'");
    // A placeholder-looking text inside a string or an identifier is not a placeholder.
    expect(inlineParameters(`select '$1 it''s', "a$1", $1`, ['v'])).toBe(`select '$1 it''s', "a$1", 'v'`);
    for (const unsafe of ["select 'unterminated $1", 'select $1 -- note', 'select /* c */ $1', "select E'\\n', $1", 'select $q$ x $q$, $1'])
      expect(inlineParameters(unsafe, ['v'])).toBeNull();
    expect(inlineParameters('select $1', [Buffer.from('x')])).toBeNull();
    expect(inlineParameters('select $2', ['only one'])).toBeNull();
    expect(inlineParameters('select 1', [])).toBe('select 1');
    // node-postgres's own literal (quotes and backslashes doubled, the E'' form), a long body whole.
    const body = "it's C:\\salon\n".repeat(400);
    expect(inlineParameters('insert into t (a, b) values ($1, $2)', [body, 'x'])).toBe(
      `insert into t (a, b) values (${pg.escapeLiteral(body)}, 'x')`,
    );
  });
});
