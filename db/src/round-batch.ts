// Reads shared by one round of events on PostgreSQL (docs/decisions/28-availability-generation.md,
// "PostgreSQL's generation reads shared by each round of events").
import type { DbOrTx } from './schema.ts';

/** The handles whose reads may be shared: a PostgreSQL pool's Kysely instance, never a transaction. */
const sharing = new WeakSet<object>();

/** Lets `perRound` reads on `db` go out together (connect.ts, for PostgreSQL). */
export function shareReadsPerRound(db: DbOrTx): void {
  sharing.add(db);
}

interface Waiting<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

/**
 * A read whose calls during one round of events go to the database as one statement (`readMany`),
 * sent when that round is over (`setImmediate`). The statement starts after every call it answers
 * was made, so no call misses a commit made before it; a call made after it was sent waits for the
 * next one. Each call cost a round trip of its own, about 170 µs of the server's CPU on PostgreSQL;
 * under load a round holds many requests. Where sharing is off (SQLite, and every transaction) each
 * call reads alone with `readOne`, its question as given: `keyOf` (which equal questions share a
 * read by) runs only where reads are shared. A failed read fails its whole round, so questions must
 * be valid before they get here (the API checks that ids fit their column: api/src/lib/validation.ts).
 */
export function perRound<Q, V, K = Q>(
  readMany: (db: DbOrTx, questions: Q[]) => Promise<Map<K, V>>,
  readOne: (db: DbOrTx, question: Q) => Promise<V | undefined>,
  keyOf: (question: Q) => K = (question) => question as unknown as K,
): (db: DbOrTx, question: Q) => Promise<V | undefined> {
  type Round = Map<K, { question: Q; waiting: Waiting<V>[] }>;
  const pendingOf = new WeakMap<object, Round>();
  const send = async (db: DbOrTx, pending: Round) => {
    pendingOf.delete(db);
    try {
      const found = await readMany(
        db,
        [...pending.values()].map((p) => p.question),
      );
      for (const [key, { waiting }] of pending) for (const w of waiting) w.resolve(found.get(key));
    } catch (error) {
      for (const { waiting } of pending.values()) for (const w of waiting) w.reject(error);
    }
  };
  return (db, question) => {
    if (!sharing.has(db)) return readOne(db, question);
    let pending = pendingOf.get(db);
    if (!pending) {
      const round: Round = new Map();
      pendingOf.set(db, round);
      setImmediate(() => void send(db, round));
      pending = round;
    }
    const key = keyOf(question);
    let asked = pending.get(key);
    if (!asked) pending.set(key, (asked = { question, waiting: [] }));
    const list = asked.waiting;
    return new Promise<V | undefined>((resolve, reject) => list.push({ resolve, reject }));
  };
}

/** A shared read's parameters: one array per value of a single read's question. */
export type ManyArgs<A extends readonly unknown[]> = { -readonly [P in keyof A]: A[P][] };

/**
 * The round's questions (never none) as one array per value: a shared statement unnests them `with
 * ordinality`, so each answer row can carry its question's place (counted from 1).
 */
export function columnsOf<A extends readonly unknown[]>(questions: readonly A[]): ManyArgs<A> {
  return questions[0].map((_, c) => questions.map((q) => q[c])) as unknown as ManyArgs<A>;
}

/** Each answer row of a shared statement under its question's key, by the place `i` it carries. */
export function byPlace<Q, K, R extends { i: number | string }>(questions: readonly Q[], rows: R[], keyOf: (question: Q) => K): Map<K, R> {
  return new Map(rows.map((r) => [keyOf(questions[Number(r.i) - 1]), r]));
}
