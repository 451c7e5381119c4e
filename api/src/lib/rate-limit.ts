// Rate limits kept in the database, so they hold across every API process sharing it.
import type { Kysely } from 'kysely';
import type { Database } from '@bookwell/db';

export async function countHits(db: Kysely<Database>, bucket: string, key: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_hits')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('bucket', '=', bucket)
    .where('key', '=', key)
    .where('created_at', '>', since.toISOString())
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function recordHit(db: Kysely<Database>, bucket: string, key: string, now: Date): Promise<void> {
  await db.insertInto('rate_limit_hits').values({ bucket, key, created_at: now.toISOString() }).execute();
}

export async function clearHits(db: Kysely<Database>, bucket: string, key: string): Promise<void> {
  await db.deleteFrom('rate_limit_hits').where('bucket', '=', bucket).where('key', '=', key).execute();
}

/** Counts this request and answers whether it is still within `limit` per `windowMs`. */
export async function consume(
  db: Kysely<Database>,
  bucket: string,
  key: string,
  limit: number,
  windowMs: number,
  now: Date,
): Promise<boolean> {
  const used = await countHits(db, bucket, key, new Date(now.getTime() - windowMs));
  if (used >= limit) return false;
  await recordHit(db, bucket, key, now);
  return true;
}

/** Old hits are useless after a day; the scheduler calls this. */
export async function pruneHits(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .deleteFrom('rate_limit_hits')
    .where('created_at', '<', new Date(now.getTime() - 24 * 3600_000).toISOString())
    .execute();
}
