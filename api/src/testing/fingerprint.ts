// A digest of everything stored, to prove that a refused request changed nothing.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '@bookwell/db';

// Counters that refusals may legitimately touch (failed logins are counted by design).
const IGNORED = new Set(['rate_limit_hits', 'kysely_migration', 'kysely_migration_lock']);

export async function databaseFingerprint(db: Kysely<Database>): Promise<string> {
  const tables = (await db.introspection.getTables())
    .map((t) => t.name)
    .filter((n) => !IGNORED.has(n))
    .sort();
  const hash = crypto.createHash('sha256');
  for (const table of tables) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- every table, whatever its row type
    const rows = await (db as Kysely<any>).selectFrom(table).selectAll().execute();
    const lines = rows.map((r) => JSON.stringify(r)).sort();
    hash.update(`${table}:${lines.length}\n${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
}
