// Breaks (docs/decisions/27-scheduling-rules.md): a company or a person may have several opening
// intervals on one weekday, so the one-row-per-weekday unique indexes go. Plain indexes keep the
// reads by company/person and weekday fast; the hours service (not the database) refuses
// overlapping intervals, serialising its writers on the company row.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('operating_hours_company_day_uq').execute();
  await db.schema.dropIndex('operating_hours_user_day_uq').execute();
  await db.schema.createIndex('operating_hours_company_day_idx').on('operating_hours').columns(['company_id', 'day_of_week']).execute();
  await db.schema.createIndex('operating_hours_user_day_idx').on('operating_hours').columns(['user_id', 'day_of_week']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('operating_hours_user_day_idx').execute();
  await db.schema.dropIndex('operating_hours_company_day_idx').execute();
  // Back to one row per weekday: keep the earliest row of each owner and day (a break's later rows go).
  await sql`delete from operating_hours where id not in (
    select min(id) from operating_hours group by company_id, coalesce(user_id, 0), day_of_week)`.execute(db);
  await db.schema
    .createIndex('operating_hours_company_day_uq')
    .on('operating_hours')
    .columns(['company_id', 'day_of_week'])
    .unique()
    .where(sql.ref('user_id'), 'is', null)
    .execute();
  await db.schema
    .createIndex('operating_hours_user_day_uq')
    .on('operating_hours')
    .columns(['user_id', 'day_of_week'])
    .unique()
    .where(sql.ref('user_id'), 'is not', null)
    .execute();
}
