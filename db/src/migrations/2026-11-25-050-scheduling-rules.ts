// The scheduling rules real businesses need (docs/decisions/27-scheduling-rules.md): date overrides
// (company closures and special hours, a person's time off), buffers around a service, minimum
// notice and booking window per company, and which staff perform a service. (Breaks, several
// opening intervals per weekday, come with the hours API that writes them: migration 051.)
import type { Kysely } from 'kysely';
import { nowDefault, timestampType, withId } from './helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('date_overrides'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    // Null: the company's own date (a closure or special hours); else that person's (time off).
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    // 'YYYY-MM-DD' in the company's time zone.
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('is_closed', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON [{open_time, close_time}] ('HH:MM:SS'), the hours that replace the weekday's; null when closed.
    .addColumn('intervals', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', timestampType(db), (c) => c.notNull().defaultTo(nowDefault(db)))
    .execute();
  await db.schema.createIndex('date_overrides_company_date_idx').on('date_overrides').columns(['company_id', 'date']).execute();
  await db.schema.createIndex('date_overrides_user_date_idx').on('date_overrides').columns(['user_id', 'date']).execute();

  for (const column of ['buffer_before_minutes', 'buffer_after_minutes']) {
    await db.schema
      .alterTable('service_types')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema
    .alterTable('companies')
    .addColumn('min_notice_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('companies')
    .addColumn('booking_window_days', 'integer', (c) => c.notNull().defaultTo(30))
    .execute();

  // Who performs a service; no rows: every staff member does.
  await db.schema
    .createTable('service_employees')
    .addColumn('service_type_id', 'integer', (c) => c.notNull().references('service_types.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('service_employees_pk', ['service_type_id', 'user_id'])
    .execute();
  await db.schema.createIndex('service_employees_user_idx').on('service_employees').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('service_employees').execute();
  await db.schema.alterTable('companies').dropColumn('booking_window_days').execute();
  await db.schema.alterTable('companies').dropColumn('min_notice_minutes').execute();
  await db.schema.alterTable('service_types').dropColumn('buffer_after_minutes').execute();
  await db.schema.alterTable('service_types').dropColumn('buffer_before_minutes').execute();
  await db.schema.dropTable('date_overrides').execute();
}
