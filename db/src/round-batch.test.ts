// Reads shared per round of events (round-batch.ts): one statement for the round on PostgreSQL,
// each caller its own answer, a failure reaching every caller of its round and no other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect, migrateToLatest, type DatabaseHandle } from './connect.ts';
import { arg, prepared } from './prepared.ts';
import { perRound } from './round-batch.ts';
import { createTestDatabase, testDialects, type TestDatabase } from './testing/index.ts';

const valueOf = prepared<[key: string], { value: string }>((db) => db.selectFrom('app_settings').select('value').where('key', '=', arg(0)));
const valuesOf = prepared<[keys: string[]], { key: string; value: string }>((db) =>
  db
    .selectFrom('app_settings')
    .select(['key', 'value'])
    .where(sql<boolean>`key = any(${arg(0)})`),
);

describe.each(testDialects())('reads shared per round on %s', (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  let sent: string[] = [];
  let failNext = false;
  const setting = perRound<string, string>(
    async (db, keys) => {
      if (failNext) {
        failNext = false;
        throw new Error('the database went away');
      }
      return new Map((await valuesOf(db, [keys])).map((r) => [r.key, r.value]));
    },
    async (db, key) => (await valueOf(db, [key]))[0]?.value,
  );
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = connect(database.url, { onRoundTrip: (text) => sent.push(text) });
    await migrateToLatest(h);
    await h.db
      .insertInto('app_settings')
      .values(['a', 'b', 'c'].map((key) => ({ key, value: key.toUpperCase() })))
      .execute();
  });
  afterAll(async () => {
    await h.close();
    await database.drop();
  });

  it('answers each caller of a round with its own value, in one statement on PostgreSQL', async () => {
    sent = [];
    const keys = ['a', 'b', 'a', 'c', 'missing', 'b'];
    expect(await Promise.all(keys.map((key) => setting(h.db, key)))).toEqual(['A', 'B', 'A', 'C', undefined, 'B']);
    if (dialect === 'postgres') expect(sent.filter((text) => text.includes('app_settings'))).toHaveLength(1);
  });

  // SQLite reads each call alone: nothing is shared there to fail together.
  if (dialect === 'postgres')
    it('fails every caller of a round whose read fails, and only them', async () => {
      failNext = true;
      const failed = await Promise.allSettled(['a', 'b'].map((key) => setting(h.db, key)));
      expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(await setting(h.db, 'a')).toBe('A');
    });

  // A question of several values: equal questions share their read by `keyOf`, which is needed only
  // where reads are shared; where they are not, the read gets the question as it was asked.
  it('shares equal questions of several values by their key, and reads a question alone as asked', async () => {
    const asked: unknown[] = [];
    const keyed: unknown[] = [];
    const suffixed = perRound<[key: string, suffix: number], string, string>(
      async (db, questions) => {
        const rows = await valuesOf(db, [questions.map(([key]) => key)]);
        return new Map(questions.map((q) => [`${q[0]}|${q[1]}`, `${rows.find((r) => r.key === q[0])?.value}${q[1]}`]));
      },
      async (db, question) => {
        asked.push(question);
        const [row] = await valueOf(db, [question[0]]);
        return row && `${row.value}${question[1]}`;
      },
      (question) => {
        keyed.push(question);
        return question.join('|');
      },
    );
    sent = [];
    const questions: [string, number][] = [
      ['a', 1],
      ['a', 2],
      ['a', 1],
      ['b', 1],
    ];
    expect(await Promise.all(questions.map((q) => suffixed(h.db, q)))).toEqual(['A1', 'A2', 'A1', 'B1']);
    if (dialect === 'postgres') {
      expect(sent.filter((text) => text.includes('app_settings'))).toHaveLength(1);
      expect(keyed).toEqual(questions);
      expect(asked).toEqual([]);
    } else {
      expect(keyed).toEqual([]);
      expect(asked).toEqual(questions);
    }
  });

  it('reads alone inside a transaction, and sees what the transaction wrote', async () => {
    await h.db.transaction().execute(async (tx) => {
      await tx.updateTable('app_settings').set({ value: 'new' }).where('key', '=', 'c').execute();
      expect(await setting(tx, 'c')).toBe('new');
    });
    expect(await setting(h.db, 'c')).toBe('new');
  });
});
