// Company rows: creation with a unique slug, its trial and its default duration options.
import { PostgresAdapter } from 'kysely';
import type { CompanyRow, DbOrTx } from '@bookwell/db';
import { anyContains } from '../../lib/text-search.ts';

export const TRIAL_DAYS = 14;
export const DEFAULT_DURATIONS = [15, 30, 45, 60];
export const DEFAULT_DURATION = 30;

export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
  return base || 'company';
}

/** The slug derived from the name, with -2, -3 ... when taken. */
export async function uniqueSlug(db: DbOrTx, name: string): Promise<string> {
  const base = slugify(name);
  const taken = new Set(
    (
      await db
        .selectFrom('companies')
        .select('slug')
        .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
        .execute()
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

export async function createCompany(
  db: DbOrTx,
  input: { name: string; email?: string | null; timezone?: string; slug?: string },
  now: Date,
): Promise<CompanyRow> {
  const iso = now.toISOString();
  const company = await db
    .insertInto('companies')
    .values({
      name: input.name,
      slug: input.slug ?? (await uniqueSlug(db, input.name)),
      email: input.email ?? null,
      logo_url: null,
      timezone: input.timezone ?? 'UTC',
      enable_employee_booking: 0,
      time_increment_minutes: 30,
      listed_publicly: 0,
      hide_customer_names_in_feeds: 0,
      subscription_plan: 'trial',
      subscription_expires_at: new Date(now.getTime() + TRIAL_DAYS * 24 * 3600_000).toISOString(),
      stripe_customer_id: null,
      stripe_subscription_id: null,
      created_at: iso,
      updated_at: iso,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

  const options = await db
    .selectFrom('appointment_duration_options')
    .select(['id', 'duration_minutes'])
    .where('duration_minutes', 'in', DEFAULT_DURATIONS)
    .execute();
  if (options.length) {
    await db
      .insertInto('company_duration_options')
      .values(options.map((o) => ({ company_id: company.id, appointment_duration_option_id: o.id })))
      .execute();
  }
  await db
    .insertInto('company_duration_defaults')
    .values({ company_id: company.id, default_appointment_duration: DEFAULT_DURATION })
    .execute();
  return company;
}

export async function findCompanyBySlug(db: DbOrTx, slug: string): Promise<CompanyRow | undefined> {
  return db.selectFrom('companies').selectAll().where('slug', '=', slug.toLowerCase()).executeTakeFirst();
}

export async function findCompanyById(db: DbOrTx, id: number): Promise<CompanyRow | undefined> {
  return db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Reads the company inside a write transaction and, on PostgreSQL, locks its row: writers that
 * count something per company (the trial's staff limit) then run one after another. SQLite needs
 * no lock: its BEGIN IMMEDIATE already serialises every writer.
 */
export async function lockCompany(trx: DbOrTx, id: number): Promise<CompanyRow | undefined> {
  const query = trx.selectFrom('companies').selectAll().where('id', '=', id);
  return (trx.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate() : query).executeTakeFirst();
}

export interface CompanySettings {
  name?: string;
  slug?: string;
  email?: string | null;
  logo_url?: string | null;
  timezone?: string;
  enable_employee_booking?: boolean;
  time_increment_minutes?: number;
  listed_publicly?: boolean;
  hide_customer_names_in_feeds?: boolean;
  reminder_hours_before?: number;
  cancellation_notice_hours?: number;
  country?: string;
  min_notice_minutes?: number;
  booking_window_days?: number;
}

const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

/** Applies a partial settings change; fields left out keep their value. */
export async function updateCompanySettings(db: DbOrTx, id: number, s: CompanySettings, now: Date): Promise<CompanyRow | undefined> {
  return db
    .updateTable('companies')
    .set({
      name: s.name,
      slug: s.slug,
      email: s.email,
      logo_url: s.logo_url,
      timezone: s.timezone,
      enable_employee_booking: flag(s.enable_employee_booking),
      time_increment_minutes: s.time_increment_minutes,
      listed_publicly: flag(s.listed_publicly),
      hide_customer_names_in_feeds: flag(s.hide_customer_names_in_feeds),
      reminder_hours_before: s.reminder_hours_before,
      cancellation_notice_hours: s.cancellation_notice_hours,
      country: s.country,
      min_notice_minutes: s.min_notice_minutes,
      booking_window_days: s.booking_window_days,
      updated_at: now.toISOString(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export interface CompanyListFilter {
  /** Only companies that chose to be listed and can take a booking at this instant (ISO). */
  listedAndActiveAt?: string;
  /** Only this company. */
  companyId?: number;
  /** Text the name or slug contains (also the email, unless listedAndActiveAt is given). */
  search?: string;
}

/** Companies in name order. */
export async function listCompanies(db: DbOrTx, f: CompanyListFilter): Promise<CompanyRow[]> {
  let query = db.selectFrom('companies').selectAll().orderBy('name').orderBy('id');
  if (f.listedAndActiveAt !== undefined) {
    const at = f.listedAndActiveAt;
    query = query
      .where('listed_publicly', '=', 1)
      .where((eb) => eb.or([eb('subscription_expires_at', 'is', null), eb('subscription_expires_at', '>', at)]));
  }
  if (f.companyId !== undefined) query = query.where('id', '=', f.companyId);
  if (f.search)
    query = query.where(anyContains(f.listedAndActiveAt !== undefined ? ['name', 'slug'] : ['name', 'email', 'slug'], f.search));
  return query.execute();
}

/** Removes the company; foreign keys cascade from it to everything it owns. False when there was none. */
export async function deleteCompany(db: DbOrTx, id: number): Promise<boolean> {
  const res = await db.deleteFrom('companies').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
