// Migration 059's SQLite triggers written so that an SQLite older than 3.44 can read the schema.
// They used `group_concat(... order by ...)`, which SQLite parses only from 3.44 (2023-11): the
// server's own SQLite (better-sqlite3's) is newer, but the sqlite3 shell of Debian 12 (3.40) or
// Ubuntu 22.04 (3.37), and tools built on such a library, refused to open the database at all
// ("malformed database schema"), so an operator could not look into it or check a backup
// (docs/decisions/32-privacy-and-operations.md, "Backups"). The ids now come ordered from a
// subquery: SQLite does not flatten an ordered subquery into an aggregate, so group_concat sees
// them in that order. PostgreSQL's trigger is unchanged.
import { sql, type Kysely } from 'kysely';
import { createSqliteTriggers, orderedGroupConcatIds, SQLITE_TRIGGERS } from './2026-11-28-059-appointment-service-ids.ts';
import { isPostgres } from './helpers.ts';

const orderedIds = (row: 'new' | 'old') =>
  `(select group_concat(service_type_id, ',') from (select x.service_type_id from appointment_service_types x
        where x.appointment_id = ${row}.appointment_id order by x.service_type_id))`;

async function replaceTriggers(db: Kysely<any>, ids: (row: 'new' | 'old') => string): Promise<void> {
  if (isPostgres(db)) return;
  for (const t of SQLITE_TRIGGERS) await sql`drop trigger if exists ${sql.raw(t)}`.execute(db);
  await createSqliteTriggers(db, ids);
}

export const up = (db: Kysely<any>) => replaceTriggers(db, orderedIds);
export const down = (db: Kysely<any>) => replaceTriggers(db, orderedGroupConcatIds);
