// Company rows: creation with a unique slug, its trial and its default duration options.
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { CompanyRow, Database } from '@bookwell/db';

export const TRIAL_DAYS = 14;
export const DEFAULT_DURATIONS = [15, 30, 45, 60];
export const DEFAULT_DURATION = 30;

type Db = Kysely<Database> | Transaction<Database>;

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
export async function uniqueSlug(db: Db, name: string): Promise<string> {
  const base = slugify(name);
  const taken = new Set(
    (await db.selectFrom('companies').select('slug')
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
      .execute()).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

export async function createCompany(db: Db, input: { name: string; email?: string | null; timezone?: string; slug?: string }, now: Date): Promise<CompanyRow> {
  const iso = now.toISOString();
  const company = await db.insertInto('companies').values({
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
  }).returningAll().executeTakeFirstOrThrow();

  const options = await db.selectFrom('appointment_duration_options').select(['id', 'duration_minutes'])
    .where('duration_minutes', 'in', DEFAULT_DURATIONS).execute();
  if (options.length) {
    await db.insertInto('company_duration_options')
      .values(options.map((o) => ({ company_id: company.id, appointment_duration_option_id: o.id }))).execute();
  }
  await db.insertInto('company_duration_defaults').values({ company_id: company.id, default_appointment_duration: DEFAULT_DURATION }).execute();
  return company;
}

export async function findCompanyBySlug(db: Db, slug: string): Promise<CompanyRow | undefined> {
  return db.selectFrom('companies').selectAll().where('slug', '=', slug.toLowerCase()).executeTakeFirst();
}

export async function findCompanyById(db: Db, id: number): Promise<CompanyRow | undefined> {
  return db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
}

/** DECISIONS.md section 6: no expiry means unlimited; otherwise active until the expiry instant. */
export function subscriptionActive(company: Pick<CompanyRow, 'subscription_expires_at'>, now: Date): boolean {
  return !company.subscription_expires_at || company.subscription_expires_at > now.toISOString();
}

/** Public bookings need a live subscription (DECISIONS.md section 6); staff keep access regardless. */
export function acceptingBookings(company: Pick<CompanyRow, 'subscription_expires_at'>, now: Date): boolean {
  return subscriptionActive(company, now);
}

/**
 * Reads the company inside a write transaction and, on PostgreSQL, locks its row: writers that
 * count something per company (the trial's staff limit) then run one after another. SQLite needs
 * no lock: its BEGIN IMMEDIATE already serialises every writer.
 */
export async function lockCompany(trx: Db, id: number): Promise<CompanyRow | undefined> {
  const query = trx.selectFrom('companies').selectAll().where('id', '=', id);
  return (trx.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate() : query).executeTakeFirst();
}

/** Paid plans have no staff limit; the Free Trial (or an unknown plan) is limited. */
export function hasStaffLimit(company: Pick<CompanyRow, 'subscription_plan'>): boolean {
  return company.subscription_plan !== 'standard' && company.subscription_plan !== 'enterprise';
}

export interface CompanySettings {
  name?: string;
  email?: string | null;
  logo_url?: string | null;
  timezone?: string;
  enable_employee_booking?: boolean;
  time_increment_minutes?: number;
  listed_publicly?: boolean;
  hide_customer_names_in_feeds?: boolean;
}

const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

/** Applies a partial settings change; fields left out keep their value. */
export async function updateCompanySettings(db: Db, id: number, s: CompanySettings, now: Date): Promise<CompanyRow | undefined> {
  return db.updateTable('companies').set({
    name: s.name,
    email: s.email,
    logo_url: s.logo_url,
    timezone: s.timezone,
    enable_employee_booking: flag(s.enable_employee_booking),
    time_increment_minutes: s.time_increment_minutes,
    listed_publicly: flag(s.listed_publicly),
    hide_customer_names_in_feeds: flag(s.hide_customer_names_in_feeds),
    updated_at: now.toISOString(),
  }).where('id', '=', id).returningAll().executeTakeFirst();
}
