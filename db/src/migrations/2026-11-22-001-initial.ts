// The first schema: every entity of docs/product/03-entities.md and the tables docs/decisions adds.
import { sql, type Kysely } from 'kysely';
import { isPostgres, nowDefault, timestampType, withId } from './helpers.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  const now = nowDefault(db);
  const real = isPostgres(db) ? sql`double precision` : sql`real`;

  await withId(db, db.schema.createTable('companies'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('logo_url', 'text')
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('enable_employee_booking', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('time_increment_minutes', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('listed_publicly', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hide_customer_names_in_feeds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('subscription_plan', 'text')
    .addColumn('subscription_expires_at', ts)
    .addColumn('stripe_customer_id', 'text')
    .addColumn('stripe_subscription_id', 'text')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();

  await withId(db, db.schema.createTable('users'))
    .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archived_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('users_email_idx').on('users').column('email').execute();
  // Login email is unique among accounts that have a password (docs/decisions/04-customers-and-anonymous-booking.md).
  await db.schema
    .createIndex('users_login_email_uq')
    .on('users')
    .column('email')
    .unique()
    .where(sql.ref('password_hash'), 'is not', null)
    .execute();
  // One record per person per company; a customer of several companies has one row at each.
  await db.schema.createIndex('users_company_email_uq').on('users').columns(['company_id', 'email']).unique().execute();

  await withId(db, db.schema.createTable('appointment_duration_options'))
    .addColumn('duration_minutes', 'integer', (c) => c.notNull().unique())
    .execute();

  await withId(db, db.schema.createTable('company_duration_options'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('appointment_duration_option_id', 'integer', (c) =>
      c.notNull().references('appointment_duration_options.id').onDelete('cascade'),
    )
    .addUniqueConstraint('company_duration_options_uq', ['company_id', 'appointment_duration_option_id'])
    .execute();

  await withId(db, db.schema.createTable('company_duration_defaults'))
    .addColumn('company_id', 'integer', (c) => c.notNull().unique().references('companies.id').onDelete('cascade'))
    .addColumn('default_appointment_duration', 'integer', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('service_types'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('price', real)
    .addColumn('hide_price', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('available_slots', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('archived_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('service_types_company_idx').on('service_types').column('company_id').execute();

  await withId(db, db.schema.createTable('operating_hours'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('day_of_week', 'integer', (c) => c.notNull())
    .addColumn('open_time', 'text')
    .addColumn('close_time', 'text')
    .addColumn('is_closed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // One row per weekday for the company, and one per weekday per person.
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

  await withId(db, db.schema.createTable('time_slots'))
    .addColumn('display_value', 'text', (c) => c.notNull().unique())
    .execute();

  await withId(db, db.schema.createTable('appointments'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('employee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('start_time', ts, (c) => c.notNull())
    .addColumn('end_time', ts, (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('appointment_duration_option_id', 'integer', (c) => c.references('appointment_duration_options.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('booked'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('customer_name', 'text')
    .addColumn('customer_email', 'text')
    .addColumn('customer_phone', 'text')
    .addColumn('sms_consent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  // The hot queries: one company's (or one employee's) appointments of a bounded time range.
  await db.schema.createIndex('appointments_company_start_idx').on('appointments').columns(['company_id', 'start_time']).execute();
  await db.schema.createIndex('appointments_employee_start_idx').on('appointments').columns(['employee_id', 'start_time']).execute();
  await db.schema.createIndex('appointments_user_start_idx').on('appointments').columns(['user_id', 'start_time']).execute();

  await db.schema
    .createTable('appointment_service_types')
    .addColumn('appointment_id', 'integer', (c) => c.notNull().references('appointments.id').onDelete('cascade'))
    .addColumn('service_type_id', 'integer', (c) => c.notNull().references('service_types.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('appointment_service_types_pk', ['appointment_id', 'service_type_id'])
    .execute();
  await db.schema.createIndex('appointment_service_types_service_idx').on('appointment_service_types').column('service_type_id').execute();

  await withId(db, db.schema.createTable('sync_changes'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('appointment_id', 'integer', (c) => c.notNull())
    .addColumn('op', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('sync_changes_company_idx').on('sync_changes').columns(['company_id', 'id']).execute();

  await withId(db, db.schema.createTable('idempotency_keys'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('response_headers', 'text')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('idempotency_keys_uq', ['scope', 'method', 'path', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();

  await withId(db, db.schema.createTable('password_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('used_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();

  await withId(db, db.schema.createTable('outbox_messages'))
    .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('cascade'))
    .addColumn('appointment_id', 'integer')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text')
    .addColumn('attachments', 'text')
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('due_at', ts, (c) => c.notNull())
    .addColumn('locked_until', ts)
    .addColumn('last_error', 'text')
    .addColumn('sent_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('outbox_messages_due_idx').on('outbox_messages').columns(['state', 'due_at']).execute();

  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('processed_at', ts, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('calendar_feeds'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();

  await withId(db, db.schema.createTable('rate_limit_hits'))
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_hits_idx').on('rate_limit_hits').columns(['bucket', 'key', 'created_at']).execute();

  await db.schema
    .createTable('app_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  // Reference data: the global duration catalogue and the 24-hour time slots at 15-minute steps.
  await db
    .insertInto('appointment_duration_options')
    .values([15, 30, 45, 60, 90, 120].map((duration_minutes) => ({ duration_minutes })))
    .execute();
  const slots: { display_value: string }[] = [];
  for (let m = 0; m < 24 * 60; m += 15) {
    slots.push({ display_value: `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}` });
  }
  await db.insertInto('time_slots').values(slots).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'app_settings',
    'rate_limit_hits',
    'calendar_feeds',
    'stripe_events',
    'outbox_messages',
    'password_tokens',
    'idempotency_keys',
    'sync_changes',
    'appointment_service_types',
    'appointments',
    'time_slots',
    'operating_hours',
    'service_types',
    'company_duration_defaults',
    'company_duration_options',
    'appointment_duration_options',
    'users',
    'companies',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
