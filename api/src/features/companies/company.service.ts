// The company use cases: listing and reading (public fields for outsiders, the full view for members),
// creation by global_admin with its settings, settings changes by the company's admins, deletion.
import type { Kysely } from 'kysely';
import type { Database } from '@bookwell/db';
import { assertCompanyAccess } from '../../lib/authorize.ts';
import type { Actor } from '../../lib/context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { retimeCompanyReminders } from '../notifications/reminders.ts';
import type { AuditContext } from '../../lib/audit-context.ts';
import { createdChanges, deleteCompanyAudit, deletedChanges, diffChanges, pickFields, recordAudit } from '../audit/audit.repository.ts';
import { writeContext, type AppointmentDeps } from '../appointments/appointment.service.ts';
import { queueRemindersNowAhead } from '../appointments/booking-transaction.service.ts';
import { toCompanyDto, toCompanyViewFor, toPublicCompanyDto, type CompanyDto, type PublicCompanyDto } from './company.mapper.ts';
import {
  createCompany,
  deleteCompany,
  findCompanyById,
  findCompanyBySlug,
  listCompanies,
  updateCompanySettings,
  type CompanySettings,
} from './company.repository.ts';

const COMPANY_NOT_FOUND = 'Company not found';

type Db = Kysely<Database>;

function slugTaken() {
  return new AppError('conflict', 'This slug is already taken', { status: 409 });
}

/** Anonymous: listed companies taking bookings (public fields). Members: their own company. global_admin: all. */
export async function companiesFor(
  db: Db,
  actor: Actor | null,
  search: string | undefined,
  now: Date,
): Promise<(CompanyDto | PublicCompanyDto)[]> {
  if (!actor) {
    // Only businesses that chose to be listed and can take a booking right now.
    return (await listCompanies(db, { listedAndActiveAt: now.toISOString(), search })).map((row) => toPublicCompanyDto(row, now));
  }
  if (actor.role !== 'global_admin' && actor.company_id == null) return [];
  const companyId = actor.role === 'global_admin' ? undefined : actor.company_id!;
  return (await listCompanies(db, { companyId, search })).map((row) => toCompanyDto(row, now));
}

/** A company by id or by its booking-link slug, as the caller may see it. */
export async function companyViewFor(
  db: Db,
  actor: Actor | null,
  by: { id: number } | { slug: string },
  now: Date,
): Promise<CompanyDto | PublicCompanyDto> {
  const company = 'id' in by ? await findCompanyById(db, by.id) : await findCompanyBySlug(db, by.slug);
  if (!company) throw notFound(COMPANY_NOT_FOUND);
  return toCompanyViewFor(actor, company, now);
}

/** A new company (14-day trial, default duration options) with its settings, in one transaction. */
export async function createCompanyWithSettings(
  db: Db,
  input: CompanySettings & { name: string; slug?: string },
  now: Date,
  who: AuditContext,
): Promise<CompanyDto> {
  const { name, email, slug, timezone, ...settings } = input;
  if (slug && (await findCompanyBySlug(db, slug))) throw slugTaken();
  try {
    const company = await db.transaction().execute(async (trx) => {
      const created = await createCompany(trx, { name, email, slug, timezone }, now);
      const row = (await updateCompanySettings(trx, created.id, settings, now))!;
      const fields = ['name', 'slug', 'email', 'timezone', ...(Object.keys(settings) as (keyof CompanySettings)[])] as const;
      await recordAudit(trx, who, {
        company_id: row.id,
        action: 'create',
        entity: 'company',
        entity_id: row.id,
        changes: createdChanges(pickFields(row, fields)),
      });
      return row;
    });
    return toCompanyDto(company, now);
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken();
    throw err;
  }
}

/** Applies a partial settings change for the company's admins (or global_admin). */
export async function changeCompanySettings(
  deps: AppointmentDeps,
  actor: Actor,
  id: number,
  settings: CompanySettings,
  now: Date,
  who: AuditContext,
): Promise<CompanyDto> {
  assertCompanyAccess(actor, id);
  const { db } = deps;
  // A new reminder_hours_before re-times the pending reminders in the same transaction: the update
  // holds the company row, so a booking writing a reminder meanwhile waits for it and then reads the
  // new setting (appointments/booking-transaction.service.ts, lockCompanyForBooking).
  const updated = await db
    .transaction()
    .execute(async (trx) => {
      const before = await findCompanyById(trx, id);
      const row = await updateCompanySettings(trx, id, settings, now);
      if (row && before) {
        const fields = Object.keys(settings) as (keyof CompanySettings)[];
        const changes = diffChanges(pickFields(before, fields), pickFields(row, fields));
        if (Object.keys(changes).length)
          await recordAudit(trx, who, { company_id: id, action: 'update', entity: 'company', entity_id: id, changes });
      }
      if (row && before && row.reminder_hours_before !== before.reminder_hours_before) {
        await retimeCompanyReminders(trx, id, row.reminder_hours_before, now);
        // A shorter lead: the skip rule read with the new setting may want reminders it skipped.
        await queueRemindersNowAhead(writeContext(deps, trx, now), id, row.reminder_hours_before, before.reminder_hours_before);
      }
      return row;
    })
    .catch((err: unknown) => {
      // Another company holds the slug: the column is unique, so the write itself is the check.
      if (settings.slug && isUniqueViolation(err)) throw slugTaken();
      throw err;
    });
  if (!updated) throw notFound(COMPANY_NOT_FOUND);
  return toCompanyDto(updated, now);
}

/** Removes a company and everything it owns. */
export async function removeCompany(db: Db, id: number, who: AuditContext): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await findCompanyById(trx, id);
    if (!before || !(await deleteCompany(trx, id))) throw notFound(COMPANY_NOT_FOUND);
    // All of its data goes, its audit entries too (they name its customers and staff); only the
    // record of the deletion stays (docs/decisions/31-audit-log.md).
    await deleteCompanyAudit(trx, id);
    // The entry keeps the company's id after the company is gone: global_admin still sees it.
    await recordAudit(trx, who, {
      company_id: id,
      action: 'delete',
      entity: 'company',
      entity_id: id,
      changes: deletedChanges(pickFields(before, ['name', 'slug', 'email'])),
    });
  });
}
