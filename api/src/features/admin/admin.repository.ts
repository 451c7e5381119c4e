// The figures and lists only global_admin sees: counts across every company, people with their company, the email list.
import { sql, type SqlBool } from 'kysely';
import type { DbOrTx, Role } from '@bookwell/db';
import { anyContains } from '../../lib/text-search.ts';

/** Active as the admin view counts it: no expiry, or an expiry still ahead. */
function activeAt(now: Date) {
  const expires = sql.ref('companies.subscription_expires_at');
  return sql<SqlBool>`(${expires} is null or ${expires} > ${now.toISOString()})`;
}

export async function platformStats(db: DbOrTx, now: Date) {
  const companies = await db
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const active = await db
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(activeAt(now))
    .executeTakeFirstOrThrow();
  // Removed (archived) people are gone from the product's point of view.
  const users = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  const total = Number(companies.n);
  return {
    total_companies: total,
    total_users: Number(users.n),
    active_companies: Number(active.n),
    expired_companies: total - Number(active.n),
  };
}

export async function companiesWithCounts(db: DbOrTx, f: { id?: number; search?: string } = {}) {
  let q = db
    .selectFrom('companies')
    .selectAll('companies')
    .select((eb) => [
      eb
        .selectFrom('users')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('users.company_id', '=', 'companies.id')
        .where('users.archived_at', 'is', null)
        .as('user_count'),
      eb
        .selectFrom('appointments')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('appointments.company_id', '=', 'companies.id')
        .as('appointment_count'),
    ]);
  if (f.id !== undefined) q = q.where('companies.id', '=', f.id);
  if (f.search) q = q.where(anyContains(['companies.name', 'companies.email', 'companies.slug'], f.search));
  const rows = await q.orderBy('companies.name').orderBy('companies.id').execute();
  return rows.map((r) => ({ ...r, user_count: Number(r.user_count ?? 0), appointment_count: Number(r.appointment_count ?? 0) }));
}

export async function usersWithCounts(db: DbOrTx, f: { companyId?: number; role?: Role; search?: string }) {
  let q = db
    .selectFrom('users')
    .leftJoin('companies', 'companies.id', 'users.company_id')
    .selectAll('users')
    .select('companies.name as company_name')
    .select((eb) =>
      eb
        .selectFrom('appointments')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where((w) => w.or([w('appointments.user_id', '=', w.ref('users.id')), w('appointments.employee_id', '=', w.ref('users.id'))]))
        .as('appointment_count'),
    )
    .where('users.archived_at', 'is', null);
  if (f.companyId !== undefined) q = q.where('users.company_id', '=', f.companyId);
  if (f.role) q = q.where('users.role', '=', f.role);
  if (f.search) q = q.where(anyContains(['users.name', 'users.email', 'companies.name'], f.search));
  const rows = await q.orderBy('users.id').execute();
  return rows.map((r) => ({ ...r, appointment_count: Number(r.appointment_count ?? 0) }));
}

export interface ExportRow {
  email: string;
  name: string;
  role: Role;
  company_name: string | null;
}

/** Everyone's email for a mailing, optionally one role and only companies whose subscription is active. */
export async function emailList(db: DbOrTx, f: { role?: Role; activeOnly: boolean; now: Date }): Promise<ExportRow[]> {
  let q = db
    .selectFrom('users')
    .leftJoin('companies', 'companies.id', 'users.company_id')
    .select(['users.email', 'users.name', 'users.role', 'companies.name as company_name'])
    .where('users.archived_at', 'is', null);
  if (f.role) q = q.where('users.role', '=', f.role);
  if (f.activeOnly) q = q.where('users.company_id', 'is not', null).where(activeAt(f.now));
  return q.orderBy('users.email').orderBy('users.id').execute();
}

/** Sets (or clears, with null) a company's subscription expiry; false when no such company. */
export async function setSubscriptionExpiry(db: DbOrTx, companyId: number, expiresAt: string | null, now: Date): Promise<boolean> {
  const res = await db
    .updateTable('companies')
    .set({ subscription_expires_at: expiresAt, updated_at: now.toISOString() })
    .where('id', '=', companyId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
