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
 * A read by key whose calls during one round of events go to the database as one statement
 * (`readMany`), sent when that round is over (`setImmediate`). The statement starts after every
 * call it answers was made, so no call misses a commit made before it; a call made after it was
 * sent waits for the next one. Each call cost a round trip of its own, about 170 µs of the server's
 * CPU on PostgreSQL; under load a round holds many requests. Where sharing is off (SQLite, and
 * every transaction) each call reads alone with `readOne`. A failed read fails its whole round, so
 * keys must be valid before they get here (the API checks that ids fit their column: api/src/lib/validation.ts).
 */
export function perRound<K, V>(
  readMany: (db: DbOrTx, keys: K[]) => Promise<Map<K, V>>,
  readOne: (db: DbOrTx, key: K) => Promise<V | undefined>,
): (db: DbOrTx, key: K) => Promise<V | undefined> {
  const pendingOf = new WeakMap<object, Map<K, Waiting<V>[]>>();
  const send = async (db: DbOrTx, pending: Map<K, Waiting<V>[]>) => {
    pendingOf.delete(db);
    try {
      const found = await readMany(db, [...pending.keys()]);
      for (const [key, waiting] of pending) for (const w of waiting) w.resolve(found.get(key));
    } catch (error) {
      for (const waiting of pending.values()) for (const w of waiting) w.reject(error);
    }
  };
  return (db, key) => {
    if (!sharing.has(db)) return readOne(db, key);
    let pending = pendingOf.get(db);
    if (!pending) {
      const round = new Map<K, Waiting<V>[]>();
      pendingOf.set(db, round);
      setImmediate(() => void send(db, round));
      pending = round;
    }
    let waiting = pending.get(key);
    if (!waiting) pending.set(key, (waiting = []));
    const list = waiting;
    return new Promise<V | undefined>((resolve, reject) => list.push({ resolve, reject }));
  };
}
