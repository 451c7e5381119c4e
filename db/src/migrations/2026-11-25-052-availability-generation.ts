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
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from './helpers.ts';

/** Who a row of each table belongs to: the company whose availability it can change. */
interface Watched {
  table: string;
  /** The changes that matter on update; every insert and delete does. */
  columns: string[];
  /** The company id, as an expression over the trigger's row (`new` or `old`). */
  company: (row: 'new' | 'old') => string;
  /** Rows that never touch availability (customers among users). */
  when?: (row: 'new' | 'old') => string;
}

const WATCHED: Watched[] = [
  {
    table: 'appointments',
    columns: ['company_id', 'employee_id', 'start_time', 'end_time', 'status'],
    company: (r) => `${r}.company_id`,
  },
  {
    table: 'appointment_service_types',
    columns: ['appointment_id', 'service_type_id'],
    company: (r) => `(select company_id from appointments where id = ${r}.appointment_id)`,
  },
  {
    table: 'service_types',
    columns: ['company_id', 'duration_minutes', 'available_slots', 'buffer_before_minutes', 'buffer_after_minutes', 'archived_at'],
    company: (r) => `${r}.company_id`,
  },
  {
    table: 'service_employees',
    columns: ['service_type_id', 'user_id'],
    company: (r) => `(select company_id from service_types where id = ${r}.service_type_id)`,
  },
  {
    table: 'operating_hours',
    columns: ['company_id', 'user_id', 'day_of_week', 'open_time', 'close_time', 'is_closed'],
    company: (r) => `${r}.company_id`,
  },
  {
    table: 'date_overrides',
    columns: ['company_id', 'user_id', 'date', 'is_closed', 'intervals'],
    company: (r) => `${r}.company_id`,
  },
  {
    // Staff are who can be booked ('any employee' candidates, a chosen employee); customers are not.
    table: 'users',
    columns: ['company_id', 'role', 'archived_at'],
    company: (r) => `${r}.company_id`,
    when: (r) => `${r}.company_id is not null and ${r}.role <> 'customer'`,
  },
];

/** The company settings the availability answers read (company.rules.ts subscriptionActive included). */
const COMPANY_COLUMNS = [
  'timezone',
  'enable_employee_booking',
  'time_increment_minutes',
  'min_notice_minutes',
  'booking_window_days',
  'subscription_plan',
  'subscription_expires_at',
];

/** SQLite's one bump statement. */
const bump = (which: string) => `update availability_generations set generation = generation + 1 where company_id ${which};`;

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
    await sql`create function bump_availability_generation(company bigint) returns void language sql as $$
      update availability_generations set generation = generation + 1 where company_id = company
    $$`.execute(db);
    for (const w of WATCHED) {
      const fn = `${w.table}_bump_availability`;
      const when = (r: 'new' | 'old') => (w.when ? w.when(r) : 'true');
      const call = (r: 'new' | 'old') => `perform bump_availability_generation(${w.company(r)});`;
      // On update both the old and the new owner when they differ (a row moved between companies,
      // a customer made staff), once when they are the same.
      const body = `begin
        if tg_op <> 'INSERT' then
          if ${when('old')} then ${call('old')} end if;
        end if;
        if tg_op = 'INSERT' then
          if ${when('new')} then ${call('new')} end if;
        elsif tg_op = 'UPDATE' then
          if ${when('new')} and (not (${when('old')}) or ${w.company('new')} is distinct from ${w.company('old')}) then ${call('new')} end if;
        end if;
        return null;
      end`;
      await sql`${sql.raw(`create function ${fn}() returns trigger language plpgsql as $$ ${body} $$`)}`.execute(db);
      await sql`${sql.raw(
        `create constraint trigger ${fn} after insert or delete or update of ${w.columns.join(', ')} on ${w.table} deferrable initially deferred for each row execute function ${fn}()`,
      )}`.execute(db);
    }
    // The company's own settings.
    await sql`create function companies_bump_availability() returns trigger language plpgsql as $$
      begin
        perform bump_availability_generation(new.id);
        return null;
      end $$`.execute(db);
    await sql`${sql.raw(
      `create constraint trigger companies_bump_availability after update of ${COMPANY_COLUMNS.join(', ')} on companies deferrable initially deferred for each row execute function companies_bump_availability()`,
    )}`.execute(db);
    return;
  }

  await sql`create trigger companies_availability_generation_row after insert on companies begin
    insert into availability_generations (company_id) values (new.id);
  end`.execute(db);
  for (const w of WATCHED) {
    const guard = (r: 'new' | 'old') => (w.when ? ` when ${w.when(r)}` : '');
    const triggers: [string, string, string][] = [
      ['ins', 'insert', `${guard('new')} begin ${bump(`= ${w.company('new')}`)} end`],
      ['del', 'delete', `${guard('old')} begin ${bump(`= ${w.company('old')}`)} end`],
      // The old and the new owner, each once (`in` bumps one company once even when both are it).
      [
        'upd',
        `update of ${w.columns.join(', ')}`,
        w.when
          ? ` begin ${bump(`in ((select ${w.company('old')} where ${w.when('old')}), (select ${w.company('new')} where ${w.when('new')}))`)} end`
          : ` begin ${bump(`in (${w.company('old')}, ${w.company('new')})`)} end`,
      ],
    ];
    for (const [suffix, event, rest] of triggers) {
      await sql`${sql.raw(`create trigger ${w.table}_bump_availability_${suffix} after ${event} on ${w.table}${rest}`)}`.execute(db);
    }
  }
  await sql`${sql.raw(
    `create trigger companies_bump_availability after update of ${COMPANY_COLUMNS.join(', ')} on companies begin ${bump('= new.id')} end`,
  )}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const drops: RawBuilder<unknown>[] = [];
  if (isPostgres(db)) {
    for (const w of WATCHED) {
      drops.push(sql.raw(`drop trigger if exists ${w.table}_bump_availability on ${w.table}`));
      drops.push(sql.raw(`drop function if exists ${w.table}_bump_availability()`));
    }
    drops.push(sql.raw('drop trigger if exists companies_bump_availability on companies'));
    drops.push(sql.raw('drop function if exists companies_bump_availability()'));
    drops.push(sql.raw('drop function if exists bump_availability_generation(bigint)'));
    drops.push(sql.raw('drop trigger if exists companies_availability_generation_row on companies'));
    drops.push(sql.raw('drop function if exists availability_generation_row()'));
  } else {
    for (const w of WATCHED)
      for (const suffix of ['ins', 'del', 'upd']) drops.push(sql.raw(`drop trigger if exists ${w.table}_bump_availability_${suffix}`));
    drops.push(sql.raw('drop trigger if exists companies_bump_availability'));
    drops.push(sql.raw('drop trigger if exists companies_availability_generation_row'));
  }
  for (const d of drops) await d.execute(db);
  await db.schema.dropTable('availability_generations').execute();
}
