// A rate-limited request counts the hits of its bucket and key only up to the limit
// (docs/decisions/29-input-rate-limits-request-ids.md, "Bounded count"): past the limit the answer is
// the same, and an address that keeps sending after it is refused no longer makes each of its
// requests read every hit it made in the window. PostgreSQL's rate_limit_consume (migration 055) is
// replaced by the same function with the bounded count; SQLite's statement lives in api/src/lib/rate-limit.ts.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

const consume = (count: string) =>
  sql.raw(`create or replace function rate_limit_consume(p_bucket text, p_key text, p_limit integer, p_since timestamptz, p_at timestamptz)
    returns boolean language plpgsql volatile as $$
    begin
      perform pg_advisory_xact_lock(hashtext('rate-limit|' || p_bucket || '|' || p_key));
      if (${count}) >= p_limit then
        return false;
      end if;
      insert into rate_limit_hits (bucket, key, created_at) values (p_bucket, p_key, p_at);
      return true;
    end $$`);

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await consume(
    'select count(*) from (select 1 from rate_limit_hits where bucket = p_bucket and key = p_key and created_at > p_since limit p_limit) as counted',
  ).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await consume('select count(*) from rate_limit_hits where bucket = p_bucket and key = p_key and created_at > p_since').execute(db);
}
