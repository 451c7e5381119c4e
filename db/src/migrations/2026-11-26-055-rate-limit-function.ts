// One round trip for a rate-limited request on PostgreSQL (docs/decisions/34-batched-round-trips.md).
// Counting and recording a hit atomically took a transaction of three messages: begin with the
// advisory lock on the bucket and key, the insert-if-under, commit. A function does the same in one
// statement: inside it each statement takes its own snapshot (READ COMMITTED, a volatile function),
// so the count that follows the lock sees every hit committed by whoever held the lock before, and
// the lock is held until the calling transaction commits, as before. SQLite needs none of this (one
// writer at a time, one statement).
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function rate_limit_consume(p_bucket text, p_key text, p_limit integer, p_since timestamptz, p_at timestamptz)
    returns boolean language plpgsql volatile as $$
    begin
      perform pg_advisory_xact_lock(hashtext('rate-limit|' || p_bucket || '|' || p_key));
      if (select count(*) from rate_limit_hits where bucket = p_bucket and key = p_key and created_at > p_since) >= p_limit then
        return false;
      end if;
      insert into rate_limit_hits (bucket, key, created_at) values (p_bucket, p_key, p_at);
      return true;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop function if exists rate_limit_consume(text, text, integer, timestamptz, timestamptz)`.execute(db);
}
