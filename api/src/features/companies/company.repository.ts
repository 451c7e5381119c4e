// Company rows: creation with a unique slug, its trial and its default duration options.
import type { Kysely, Transaction } from 'kysely';
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
