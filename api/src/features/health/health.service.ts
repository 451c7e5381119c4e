// Whether this process can reach its database: the health check's one question.
import { sql } from 'kysely';
import type { DbOrTx } from '@bookwell/db';

export async function databaseReachable(db: DbOrTx): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
