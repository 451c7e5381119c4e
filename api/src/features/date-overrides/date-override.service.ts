// Date overrides (docs/decisions/27-scheduling-rules.md): who may read and write a company's closures
// and special hours and a person's time off, and one override per owner and date.
import type { AuditContext } from '../../lib/audit-context.ts';
import { createdChanges, deletedChanges, pickFields, recordAudit } from '../audit/audit.repository.ts';
import type { Kysely } from 'kysely';
import type { Database } from '@bookwell/db';
import type { Actor } from '../../lib/context.ts';
import { COMPANY_ADMINS, actingCompanyId, assertCompanyAccess, assertSelfOrCompanyAdmin, isStaff } from '../../lib/authorize.ts';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { findCompanyById } from '../companies/company.repository.ts';
import { findStaffMember } from '../operating-hours/operating-hours.repository.ts';
import { toDateOverrideDto } from './date-override.mapper.ts';
import {
  deleteOverride,
  findOverride,
  findOverrideOn,
  insertOverride,
  listOverrides,
  lockCompanyOverrides,
  type DateOverrideRow,
} from './date-override.repository.ts';
import { normaliseIntervals, overrideProblem } from './date-override.rules.ts';
import type { CreateDateOverrideInput, DateOverrideDto } from './date-override.schema.ts';

type Db = Kysely<Database>;

const NOT_FOUND = 'Date override not found';

/**
 * Notes are internal: a company date's note is read by its staff and global_admin; a person's note
 * by that person, the company's admins and managers, and global_admin. Public readers, customers
 * and colleagues get the override without its note.
 */
function mayReadNote(actor: Actor | null, row: DateOverrideRow): boolean {
  if (!actor) return false;
  if (actor.role === 'global_admin') return true;
  if (actor.company_id !== row.company_id || !isStaff(actor.role)) return false;
  return row.user_id === null || row.user_id === actor.id || COMPANY_ADMINS.includes(actor.role);
}

/** The company's dates: its admins and managers. A person's time off: themselves or those admins and managers. */
function authorizeWrite(actor: Actor, companyId: number, userId: number | null): void {
  assertCompanyAccess(actor, companyId);
  if (userId === null) {
    if (actor.role !== 'global_admin' && !COMPANY_ADMINS.includes(actor.role)) throw forbidden();
    return;
  }
  assertSelfOrCompanyAdmin(actor, companyId, userId);
}

/** Public read: the company's dates and its people's time off (user_id: one person's), notes as mayReadNote says. */
export async function listDateOverrides(
  db: Db,
  actor: Actor | null,
  q: { company_id?: number; user_id?: number; from?: string; to?: string },
): Promise<DateOverrideDto[]> {
  if (q.from !== undefined && q.to !== undefined && q.to < q.from)
    throw badRequest('to must not be before from', [{ path: 'to', message: 'to must not be before from' }]);
  let companyId = q.company_id ?? actor?.company_id ?? null;
  if (companyId === null && q.user_id !== undefined) {
    const person = await findStaffMember(db, null, q.user_id);
    if (!person) throw notFound('User not found');
    companyId = person.company_id;
  }
  if (companyId === null) throw badRequest('company_id is required', [{ path: 'company_id', message: 'company_id is required' }]);
  if (!(await findCompanyById(db, companyId))) throw notFound('Company not found');
  const rows = await listOverrides(db, { companyId, userId: q.user_id, from: q.from, to: q.to });
  return rows.map((r) => toDateOverrideDto(r, mayReadNote(actor, r)));
}

export async function createDateOverride(db: Db, actor: Actor, body: CreateDateOverrideInput, who: AuditContext): Promise<DateOverrideDto> {
  const userId = body.user_id ?? null;
  let companyId: number;
  if (actor.role === 'global_admin' && body.company_id === undefined && userId !== null) {
    // global_admin has no company of their own: the person's company is the one meant.
    const person = await findStaffMember(db, null, userId);
    if (!person?.company_id) throw notFound('User not found');
    companyId = person.company_id;
  } else {
    companyId = actingCompanyId(actor, body.company_id);
    if (actor.role === 'global_admin' && !(await findCompanyById(db, companyId))) throw notFound('Company not found');
  }
  assertCompanyAccess(actor, companyId);
  // Time off is for current staff of this company (customers have no hours to replace).
  if (userId !== null && !(await findStaffMember(db, companyId, userId))) throw notFound('User not found');
  authorizeWrite(actor, companyId, userId);
  const intervals = body.intervals ?? [];
  const problem = overrideProblem(body.is_closed, intervals);
  if (problem) throw badRequest(problem.message, [problem]);
  const note = body.note ? body.note : null;
  const row = await db.transaction().execute(async (trx) => {
    if (!(await lockCompanyOverrides(trx, companyId))) throw notFound('Company not found');
    if (await findOverrideOn(trx, companyId, userId, body.date)) {
      const whose = userId === null ? 'The company' : 'This person';
      throw new AppError('conflict', `${whose} already has an override on ${body.date}; remove it first`);
    }
    const inserted = await insertOverride(trx, {
      companyId,
      userId,
      date: body.date,
      isClosed: body.is_closed,
      intervals: normaliseIntervals(intervals),
      note,
    });
    await recordAudit(trx, who, {
      company_id: companyId,
      action: 'create',
      entity: 'date_override',
      entity_id: inserted.id,
      changes: createdChanges(pickFields(inserted, ['user_id', 'date', 'is_closed', 'intervals', 'note'])),
    });
    return inserted;
  });
  return toDateOverrideDto(row, true);
}

export async function removeDateOverride(db: Db, actor: Actor, id: number, who: AuditContext): Promise<void> {
  const row = await findOverride(db, id);
  if (!row) throw notFound(NOT_FOUND);
  try {
    authorizeWrite(actor, row.company_id, row.user_id);
  } catch (err) {
    // Another company's override: never reveal that it exists.
    if (err instanceof AppError && err.code === 'not_found') throw notFound(NOT_FOUND);
    throw err;
  }
  await db.transaction().execute(async (trx) => {
    await deleteOverride(trx, row.id);
    await recordAudit(trx, who, {
      company_id: row.company_id,
      action: 'delete',
      entity: 'date_override',
      entity_id: row.id,
      changes: deletedChanges(pickFields(row, ['user_id', 'date', 'is_closed', 'intervals', 'note'])),
    });
  });
}
