// The generation counters' bump functions (bump_availability_generation, bump_settings_generation),
// which every generation trigger calls on PostgreSQL, in PL/pgSQL instead of SQL. PostgreSQL parses
// and plans a non-inlined SQL function's body again on each call, and an update cannot be inlined:
// measured in a loop, 27-44 µs a call against 13 µs in PL/pgSQL, which keeps the plan for the
// session. Every booking calls one at commit, every change of the company's set-up one or two
// (docs/decisions/28-availability-generation.md, "Session 40"). Same name, arguments and effect;
// SQLite has no stored functions (its triggers run the update themselves).
import { sql, type Kysely } from 'kysely';
import { AVAILABILITY } from './2026-11-25-052-availability-generation.ts';
import { SETTINGS } from './2026-11-26-054-settings-generation.ts';
import { bumpFunction } from './generation-triggers.ts';
import { isPostgres } from './helpers.ts';

async function write(db: Kysely<any>, language: 'sql' | 'plpgsql'): Promise<void> {
  if (!isPostgres(db)) return;
  for (const g of [AVAILABILITY, SETTINGS]) await sql`${sql.raw(bumpFunction(g, language, true))}`.execute(db);
}

export const up = (db: Kysely<any>) => write(db, 'plpgsql');
export const down = (db: Kysely<any>) => write(db, 'sql');
