// The triggers that move a company's generation counters in availability_generations
// (docs/decisions/28-availability-generation.md), shared by the migrations that add a counter:
// 052 the availability generation (every write that can change a booking page's answer), 054 the
// settings generation (the same writes but appointments: the company's hours, overrides, services,
// staff and settings). The SQL each migration runs is fixed by its arguments, so a later counter
// reuses this without changing what an earlier migration did.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

/** Who a row of each table belongs to: the company whose availability it can change. */
export interface Watched {
  table: string;
  /** The changes that matter on update; every insert and delete does. */
  columns: string[];
  /** The company id, as an expression over the trigger's row (`new` or `old`). */
  company: (row: 'new' | 'old') => string;
  /** Rows that never touch availability (customers among users). */
  when?: (row: 'new' | 'old') => string;
}

/** The appointment tables: bookings themselves. */
export const APPOINTMENT_WATCH: Watched[] = [
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
];

/** What the company has set up: services, who performs them, hours, overrides and staff. */
export const SETTINGS_WATCH: Watched[] = [
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

/** Every table whose writes can change availability, in the order migration 052 created their triggers. */
export const AVAILABILITY_WATCH: Watched[] = [...APPOINTMENT_WATCH, ...SETTINGS_WATCH];

/** The company settings the availability answers read (company.rules.ts subscriptionActive included). */
export const COMPANY_COLUMNS = [
  'timezone',
  'enable_employee_booking',
  'time_increment_minutes',
  'min_notice_minutes',
  'booking_window_days',
  'subscription_plan',
  'subscription_expires_at',
];

/**
 * One counter: `name` names its triggers and functions (`<table>_bump_<name>`, PostgreSQL's
 * `bump_<name>_generation(company)`), `column` is its column of availability_generations, `watched`
 * the tables that move it, and `companyColumns` the company's own columns that do.
 */
export interface GenerationCounter {
  name: string;
  column: string;
  watched: readonly Watched[];
  companyColumns: readonly string[];
}

export async function createGenerationTriggers(db: Kysely<any>, g: GenerationCounter): Promise<void> {
  if (isPostgres(db)) await sql`${sql.raw(bumpFunction(g, 'sql'))}`.execute(db);
  for (const w of g.watched) await createWatchTriggers(db, g, w);
  if (g.companyColumns.length === 0) return;
  if (isPostgres(db)) {
    // The company's own settings.
    await sql`${sql.raw(`create function companies_bump_${g.name}() returns trigger language plpgsql as $$
      begin
        perform bump_${g.name}_generation(new.id);
        return null;
      end $$`)}`.execute(db);
    await sql`${sql.raw(
      `create constraint trigger companies_bump_${g.name} after update of ${g.companyColumns.join(', ')} on companies deferrable initially deferred for each row execute function companies_bump_${g.name}()`,
    )}`.execute(db);
    return;
  }
  await sql`${sql.raw(
    `create trigger companies_bump_${g.name} after update of ${g.companyColumns.join(', ')} on companies begin ${sqliteBump(g, '= new.id')} end`,
  )}`.execute(db);
}

/**
 * PostgreSQL's `bump_<name>_generation(company)`, which every trigger of the counter calls. Migrations
 * 052 and 054 wrote it in SQL; migration 063 in PL/pgSQL, which keeps its plan (PostgreSQL plans an
 * SQL function's body again on every call).
 */
export function bumpFunction(g: Pick<GenerationCounter, 'name' | 'column'>, language: 'sql' | 'plpgsql', replace = false): string {
  const update = bumpStatement(g, '= company');
  const body = language === 'sql' ? update : `begin ${update}; end`;
  return `create ${replace ? 'or replace ' : ''}function bump_${g.name}_generation(company bigint) returns void language ${language} as $$
      ${body}
    $$`;
}

/** The counter's update for the companies `which` picks (`= company`, `in (...)`): the bump functions' body on PostgreSQL. */
const bumpStatement = (g: Pick<GenerationCounter, 'column'>, which: string) =>
  `update availability_generations set ${g.column} = ${g.column} + 1 where company_id ${which}`;

/** SQLite's one bump statement, run by its triggers themselves (no stored functions there). */
const sqliteBump = (g: GenerationCounter, which: string) => `${bumpStatement(g, which)};`;

/** The triggers by which one table's writes move counter `g` (the counter's bump function exists). */
export async function createWatchTriggers(db: Kysely<any>, g: GenerationCounter, w: Watched): Promise<void> {
  if (isPostgres(db)) {
    const fn = `${w.table}_bump_${g.name}`;
    const when = (r: 'new' | 'old') => (w.when ? w.when(r) : 'true');
    const call = (r: 'new' | 'old') => `perform bump_${g.name}_generation(${w.company(r)});`;
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
    return;
  }
  const bump = (which: string) => sqliteBump(g, which);
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
    await sql`${sql.raw(`create trigger ${w.table}_bump_${g.name}_${suffix} after ${event} on ${w.table}${rest}`)}`.execute(db);
  }
}

/** Drops what `createWatchTriggers` created for one table. */
export async function dropWatchTriggers(db: Kysely<any>, g: GenerationCounter, w: Watched): Promise<void> {
  const drops = isPostgres(db)
    ? [`drop trigger if exists ${w.table}_bump_${g.name} on ${w.table}`, `drop function if exists ${w.table}_bump_${g.name}()`]
    : ['ins', 'del', 'upd'].map((suffix) => `drop trigger if exists ${w.table}_bump_${g.name}_${suffix}`);
  for (const d of drops) await sql`${sql.raw(d)}`.execute(db);
}

export async function dropGenerationTriggers(db: Kysely<any>, g: GenerationCounter): Promise<void> {
  for (const w of g.watched) await dropWatchTriggers(db, g, w);
  const drops = isPostgres(db)
    ? [
        `drop trigger if exists companies_bump_${g.name} on companies`,
        `drop function if exists companies_bump_${g.name}()`,
        `drop function if exists bump_${g.name}_generation(bigint)`,
      ]
    : [`drop trigger if exists companies_bump_${g.name}`];
  for (const d of drops) await sql`${sql.raw(d)}`.execute(db);
}
