// The settings generation (docs/decisions/28-availability-generation.md, "Settings generation"): a
// second counter beside each company's availability generation, moved by the same kind of triggers
// in the writer's own transaction, but only by what the company has set up (services and who
// performs them, hours, date overrides, staff, the company's settings), never by a booking. The
// availability answers keep those reads while it stands still, so a booking page computed after a
// booking re-reads only the appointments.
//
// Also an index for the company's own weekly hours (user_id null): with breaks a company of 50 staff
// has about 700 rows of personal hours under its id, which the (company_id, day_of_week) index made
// every availability answer step through to find the company's 7 to 14.
import { type Kysely } from 'kysely';
import { COMPANY_COLUMNS, createGenerationTriggers, dropGenerationTriggers, SETTINGS_WATCH } from './generation-triggers.ts';

// The company's longest appointment bounds how far back the availability reads look; a booking that
// lengthens it changes no setting, but the answers keep the company row, so it moves this counter too.
export const SETTINGS = {
  name: 'settings',
  column: 'settings_generation',
  watched: SETTINGS_WATCH,
  companyColumns: [...COMPANY_COLUMNS, 'longest_appointment_minutes'],
};

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('availability_generations')
    .addColumn('settings_generation', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await createGenerationTriggers(db, SETTINGS);
  await db.schema
    .createIndex('operating_hours_company_user_day_idx')
    .on('operating_hours')
    .columns(['company_id', 'user_id', 'day_of_week'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('operating_hours_company_user_day_idx').execute();
  await dropGenerationTriggers(db, SETTINGS);
  await db.schema.alterTable('availability_generations').dropColumn('settings_generation').execute();
}
