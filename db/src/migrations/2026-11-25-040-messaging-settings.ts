// The settings reminders, SMS and customer self-service need (docs/decisions/22-messaging.md):
// per company, how many hours ahead the reminder goes out, the country that reads phone numbers
// written without a +, and how late a customer may still change a booking; per person, whether a
// customer answered STOP to our texts and whether a staff member wants the booking notices.
import type { Kysely } from 'kysely';
import { timestampType } from './helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('companies')
    .addColumn('reminder_hours_before', 'integer', (c) => c.notNull().defaultTo(24))
    .execute();
  await db.schema
    .alterTable('companies')
    .addColumn('country', 'text', (c) => c.notNull().defaultTo('US'))
    .execute();
  await db.schema
    .alterTable('companies')
    .addColumn('cancellation_notice_hours', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('sms_opted_out_at', timestampType(db)).execute();
  await db.schema
    .alterTable('users')
    .addColumn('booking_notices', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['reminder_hours_before', 'country', 'cancellation_notice_hours']) {
    await db.schema.alterTable('companies').dropColumn(column).execute();
  }
  await db.schema.alterTable('users').dropColumn('sms_opted_out_at').execute();
  await db.schema.alterTable('users').dropColumn('booking_notices').execute();
}
