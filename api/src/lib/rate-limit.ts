// Rate limits (docs/decisions/29-input-rate-limits-request-ids.md). Those of writes and sign-ins are
// kept in the database, so they hold across every API process sharing it, and are counted and
// recorded atomically: N parallel requests at a limit of L admit exactly L. The availability reads
// are limited in memory, per process: they are the booking page's hot path, where a database write
// per request would cost more than the abuse it stops.
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from '@bookwell/db';
import { AppError } from './errors.ts';
import type { AppDeps } from './context.ts';

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

function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * SQLite: one statement records the hit only while fewer than `limit` are in the window; true when
 * recorded. The count stops at the limit: an address that keeps sending after it is refused costs a
 * read of `limit` index entries per request, not of every hit it made in the window (docs/decisions/29-input-rate-limits-request-ids.md).
 */
async function insertIfUnder(db: Kysely<Database>, bucket: string, key: string, limit: number, since: Date, now: Date) {
  const result = await sql<{ id: number }>`
    insert into rate_limit_hits (bucket, key, created_at)
    select ${bucket}, ${key}, ${now.toISOString()}
    where (select count(*) from (select 1 from rate_limit_hits where bucket = ${bucket} and key = ${key} and created_at > ${since.toISOString()} limit ${limit})) < ${limit}
    returning id`.execute(db);
  return result.rows.length > 0;
}

/**
 * Counts this request and answers whether it is still within `limit` per `windowMs`, atomically.
 * SQLite runs one statement at a time, so the single insert-if-under is enough; on PostgreSQL two
 * concurrent statements would each count without the other's row, so rate_limit_consume (migration
 * 055) first takes an advisory lock on the bucket and key (released when the calling transaction
 * commits), then counts and inserts, in one statement.
 */
export async function consume(
  db: Kysely<Database>,
  bucket: string,
  key: string,
  limit: number,
  windowMs: number,
  now: Date,
): Promise<boolean> {
  const since = new Date(now.getTime() - windowMs);
  if (!isPostgres(db)) return insertIfUnder(db, bucket, key, limit, since, now);
  const result = await sql<{ ok: boolean }>`
    select rate_limit_consume(${bucket}, ${key}, ${limit}, cast(${since.toISOString()} as timestamptz), cast(${now.toISOString()} as timestamptz)) as ok`.execute(
    db,
  );
  return result.rows[0]?.ok === true;
}

/** Seconds until the oldest hit counted in the window leaves it (at least 1): the answer's Retry-After. */
export async function retryAfterSeconds(db: Kysely<Database>, bucket: string, key: string, windowMs: number, now: Date): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_hits')
    .select((eb) => eb.fn.min('created_at').as('oldest'))
    .where('bucket', '=', bucket)
    .where('key', '=', key)
    .where('created_at', '>', new Date(now.getTime() - windowMs).toISOString())
    .executeTakeFirst();
  const oldest = row?.oldest ? new Date(row.oldest as string | Date).getTime() : now.getTime();
  // Never more than the window: a parallel request whose clock was read after this one's can have
  // recorded the oldest hit "later" than this request's now (seen as 901 s of a 900 s window).
  return Math.min(Math.ceil(windowMs / 1000), Math.max(1, Math.ceil((oldest + windowMs - now.getTime()) / 1000)));
}

/**
 * A 429 with `Retry-After`. A message given as a function gets the wait in words ("14 minutes"), so
 * the text says what the header says rather than the whole window.
 */
export function rateLimited(message: string | ((wait: string) => string), retryAfter: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfter));
  const text = typeof message === 'string' ? message : message(waitInWords(seconds));
  return new AppError('rate_limited', text, { headers: { 'Retry-After': String(seconds) } });
}

/** "30 seconds", "1 minute", "14 minutes": a wait rounded up to what a person would wait. */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** `consume`, throwing a 429 with the seconds until a request would be admitted again. */
export async function enforceLimit(
  db: Kysely<Database>,
  limit: { bucket: string; key: string; max: number; windowMs: number; now: Date; message: string | ((wait: string) => string) },
): Promise<void> {
  if (await consume(db, limit.bucket, limit.key, limit.max, limit.windowMs, limit.now)) return;
  throw rateLimited(limit.message, await retryAfterSeconds(db, limit.bucket, limit.key, limit.windowMs, limit.now));
}

/**
 * A per-process fixed-window counter: `limit` requests per key per window. For the availability
 * reads, which must stay cheap; with several processes a client may get up to `limit` per process.
 */
export class MemoryRateLimiter {
  private windowStart = 0;
  private counts = new Map<string, number>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts the request; null when admitted, else the seconds until the window turns. */
  take(key: string, nowMs: number): number | null {
    if (nowMs - this.windowStart >= this.windowMs || nowMs < this.windowStart) {
      // A fresh window drops every key, so the map never outgrows one window's clients.
      this.windowStart = nowMs - (nowMs % this.windowMs);
      this.counts.clear();
    }
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n <= this.limit ? null : Math.max(1, Math.ceil((this.windowStart + this.windowMs - nowMs) / 1000));
  }
}

/** Old hits are useless after a day; the scheduler calls this. */
export async function pruneHits(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .deleteFrom('rate_limit_hits')
    .where('created_at', '<', new Date(now.getTime() - 24 * 3600_000).toISOString())
    .execute();
}

/**
 * The availability reads' limit: RATE_LIMIT_AVAILABILITY per IP per minute, in this process (one
 * counter per app, `deps.availabilityLimiter`, so test servers in one process do not share it).
 * Throws the 429.
 */
export function availabilityLimit(deps: Pick<AppDeps, 'availabilityLimiter' | 'now'>, clientIp: string): void {
  const limiter = deps.availabilityLimiter;
  const wait = limiter.take(clientIp, deps.now().getTime());
  if (wait !== null) throw rateLimited('Too many requests. Please wait a minute and try again.', wait);
}
