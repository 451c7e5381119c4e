// The global_admin views: platform figures, companies and people with their counts, the email export.
import type { Kysely } from 'kysely';
import type { Database, DbOrTx, Role } from '@bookwell/db';
import type { AuditContext } from '../../lib/audit-context.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { findCompanyById } from '../companies/company.repository.ts';
import { notFound } from '../../lib/errors.ts';
import { toCompanyDto } from '../companies/company.mapper.ts';
import { toUserDto } from '../users/user.mapper.ts';
import {
  companiesWithCounts,
  emailList,
  platformStats,
  setSubscriptionExpiry,
  usersWithCounts,
  type ExportRow,
} from './admin.repository.ts';

/** Companies, active and expired subscriptions, people: counted across the platform. */
export const platformFigures = (db: DbOrTx, now: Date) => platformStats(db, now);

function toAdminCompany(row: Awaited<ReturnType<typeof companiesWithCounts>>[number], now: Date) {
  return { ...toCompanyDto(row, now), user_count: row.user_count, appointment_count: row.appointment_count };
}

export async function listCompanies(db: DbOrTx, search: string | undefined, now: Date) {
  return (await companiesWithCounts(db, { search })).map((r) => toAdminCompany(r, now));
}

/** Sets or clears a company's subscription expiry and answers the company as the admin list shows it. */
export async function changeSubscriptionExpiry(
  db: Kysely<Database>,
  companyId: number,
  expiresAt: string | null,
  now: Date,
  who: AuditContext,
) {
  await db.transaction().execute(async (trx) => {
    const before = await findCompanyById(trx, companyId);
    if (!before || !(await setSubscriptionExpiry(trx, companyId, expiresAt, now))) throw notFound('Company not found');
    await recordAudit(trx, who, {
      company_id: companyId,
      action: 'update',
      entity: 'subscription',
      entity_id: companyId,
      changes: { subscription_expires_at: { old: before.subscription_expires_at, new: expiresAt } },
    });
  });
  const [row] = await companiesWithCounts(db, { id: companyId });
  return toAdminCompany(row, now);
}

export async function listUsers(db: DbOrTx, f: { company_id?: number; role?: Role; search?: string }) {
  const rows = await usersWithCounts(db, { companyId: f.company_id, role: f.role, search: f.search });
  return rows.map((r) => ({ ...toUserDto(r), company_name: r.company_name, appointment_count: r.appointment_count }));
}

export async function exportEmails(db: DbOrTx, f: { role?: Role; activeOnly: boolean }, now: Date): Promise<ExportRow[]> {
  return emailList(db, { role: f.role, activeOnly: f.activeOnly, now });
}
