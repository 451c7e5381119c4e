// Each company's availability generation (docs/decisions/28-availability-generation.md): a counter
// that moves in the same transaction as every write that can change what that company's booking
// page offers, so a cached answer stays usable until its own company changes, on any number of
// processes, because the counter lives in the database (availability_generations, one row per company).
//
// The bump is kept by triggers rather than by each writer of the API: about twenty-five code paths
// in ten features write these tables (several in no transaction of their own), and seeds, imports
// and other processes write them too. A trigger runs inside the writing transaction and cannot be
// forgotten by the next endpoint. On PostgreSQL every trigger calls one function,
// bump_availability_generation(company_id); on SQLite (no stored functions) each trigger runs the
// same one statement, written once below (`bump`). Writes that change no availability (logins,
// sessions, rate-limit hits, messages, audit rows, notes, customer details) have no trigger.
//
// On PostgreSQL the triggers are deferred to commit, and the counter is its own row, not the
// company's: a booking holds the company row from its first statement and then waits for the
// foreign-key share lock on its service, while removing a service holds that service's row. Were
// the removal to bump a counter the booking holds (the company row) before committing, the two would
// deadlock; bumped at commit, on a row nobody holds until their own commit, nothing waits in a circle.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';
import { AVAILABILITY_WATCH, COMPANY_COLUMNS, createGenerationTriggers, dropGenerationTriggers } from './generation-triggers.ts';

/** Every watched table moves the availability generation (docs/decisions/28-availability-generation.md). */
export const AVAILABILITY = { name: 'availability', column: 'generation', watched: AVAILABILITY_WATCH, companyColumns: COMPANY_COLUMNS };

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('availability_generations')
    .addColumn('company_id', 'integer', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into availability_generations (company_id) select id from companies`.execute(db);

  if (isPostgres(db)) {
    await sql`create function availability_generation_row() returns trigger language plpgsql as $$
      begin
        insert into availability_generations (company_id) values (new.id);
        return null;
      end $$`.execute(db);
    await sql`create trigger companies_availability_generation_row after insert on companies
      for each row execute function availability_generation_row()`.execute(db);
    await createGenerationTriggers(db, AVAILABILITY);
    return;
  }

  await sql`create trigger companies_availability_generation_row after insert on companies begin
    insert into availability_generations (company_id) values (new.id);
  end`.execute(db);
  await createGenerationTriggers(db, AVAILABILITY);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropGenerationTriggers(db, AVAILABILITY);
  const drops = isPostgres(db)
    ? [
        sql.raw('drop trigger if exists companies_availability_generation_row on companies'),
        sql.raw('drop function if exists availability_generation_row()'),
      ]
    : [sql.raw('drop trigger if exists companies_availability_generation_row')];
  for (const d of drops) await d.execute(db);
  await db.schema.dropTable('availability_generations').execute();
}
