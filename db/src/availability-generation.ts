// A company's availability generation (docs/decisions/28-availability-generation.md): the database
// moves it, by triggers, in the same transaction as every write that can change what the company's
// booking page offers. Equal generations mean none of those writes committed in between, whichever
// process made them, so an answer computed at one generation may be served while it still holds.
// Beside it the settings generation moves with the company's set-up alone (services, hours,
// overrides, staff, settings; migration 054), never with a booking.
import { sql } from 'kysely';
import { arg, prepared } from './prepared.ts';
import { perRound } from './round-batch.ts';
import type { DbOrTx } from './schema.ts';

const generationRow = prepared<[companyId: number], { g: number; s: number }>((db) =>
  db.selectFrom('availability_generations').select(['generation as g', 'settings_generation as s']).where('company_id', '=', arg(0)),
);

/** Many companies' generations in one read (shared per round on PostgreSQL). */
const generationRows = prepared<[companyIds: number[]], { id: number; g: number; s: number }>((db) =>
  db
    .selectFrom('availability_generations')
    .select(['company_id as id', 'generation as g', 'settings_generation as s'])
    .where(sql<boolean>`company_id = any(${arg(0)})`),
);

export interface Generations {
  /** Moves with every write that can change an availability answer. */
  availability: number;
  /** Moves with the company's settings only (never with a booking). */
  settings: number;
}

/**
 * What a SQLite handle's database last answered, per company, under the commit stamp current when it
 * was asked: equal stamps mean nothing committed since, so the answer still holds. A read made while
 * a commit lands is kept under the stamp from before it, which the next call no longer sees.
 */
interface Remembered {
  stamp: () => string | null;
  seen: string | null;
  known: Map<number, Generations | undefined>;
}
const remembered = new WeakMap<object, Remembered>();

/**
 * Lets `availabilityGenerations(db, ...)` skip its read while `stamp` (db/src/commit-stamp.ts) is
 * unchanged. Only for `db` itself: a transaction's own handle always reads.
 */
export function skipGenerationReadsWhileUnchanged(db: object, stamp: () => string | null): void {
  remembered.set(db, { stamp, seen: null, known: new Map() });
}

/** Drops what `db` remembers (a group commit failed: db/src/group-commit.ts). */
export function forgetRememberedGenerations(db: object): void {
  const memo = remembered.get(db);
  if (!memo) return;
  memo.seen = null;
  memo.known.clear();
}

/** On PostgreSQL the calls of one round of events share one read (round-batch.ts). */
const sharedGenerations = perRound<number, Generations>(
  async (db, companyIds) => {
    const rows = await generationRows(db, [companyIds]);
    return new Map(rows.map((r) => [Number(r.id), { availability: Number(r.g), settings: Number(r.s) }]));
  },
  async (db, companyId) => {
    const row = (await generationRow(db, [companyId]))[0];
    return row && { availability: Number(row.g), settings: Number(row.s) };
  },
);

/**
 * The company's generations now; undefined when there is no such company. One primary-key read; on
 * a SQLite handle none while nothing has committed since the company's last one, and on PostgreSQL
 * one read shared by the calls of the same round of events.
 */
export async function availabilityGenerations(db: DbOrTx, companyId: number): Promise<Generations | undefined> {
  const memo = remembered.get(db);
  const stamp = memo ? memo.stamp() : null;
  if (memo && stamp !== null) {
    if (stamp !== memo.seen) {
      memo.seen = stamp;
      memo.known.clear();
    } else if (memo.known.has(companyId)) return memo.known.get(companyId);
  }
  const generations = await sharedGenerations(db, companyId);
  if (memo && stamp !== null && memo.seen === stamp) memo.known.set(companyId, generations);
  return generations;
}

/** The company's availability generation now; undefined when there is no such company. */
export async function availabilityGeneration(db: DbOrTx, companyId: number): Promise<number | undefined> {
  return (await availabilityGenerations(db, companyId))?.availability;
}
