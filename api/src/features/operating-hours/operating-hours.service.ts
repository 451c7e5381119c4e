// The rules of opening hours: who may set a company's or a person's hours, times given as values or
// slot ids, and one row per weekday. Answers are already in the API's shape (slot ids need the grid).
import type { AuditContext } from '../../lib/audit-context.ts';
import { createdChanges, deletedChanges, diffChanges, pickFields, recordAudit } from '../audit/audit.repository.ts';
import type { Kysely } from 'kysely';
import type { Database, DbOrTx, OperatingHoursRow } from '@bookwell/db';
import type { Actor } from '../../lib/context.ts';
import { COMPANY_ADMINS, actingCompanyId, assertCompanyAccess, assertSelfOrCompanyAdmin } from '../../lib/authorize.ts';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { findCompanyById } from '../companies/company.repository.ts';
import { changedRowProblem, dayHoursProblem, normaliseTime, overlapMessage, placeDayHours } from './operating-hours.rules.ts';
import { toHoursDto } from './operating-hours.mapper.ts';
import {
  deleteHours,
  deleteHoursExcept,
  findHours,
  findStaffMember,
  insertHours,
  listHours,
  lockCompanyHours,
  updateHours,
  type HoursValues,
} from './operating-hours.repository.ts';
import type { CreateHoursInput, OperatingHoursDto, UpdateHoursInput } from './operating-hours.schema.ts';
import { timeSlotIndex, type TimeSlotIndex } from './time-slot.repository.ts';

type Db = Kysely<Database>;

const NOT_FOUND = 'Operating hours not found';

/** Company hours: the company's admins and managers. A person's work hours: themselves or those admins and managers. */
async function authorizeHoursWrite(db: Db, actor: Actor, companyId: number, userId: number | null): Promise<void> {
  assertCompanyAccess(actor, companyId);
  if (userId === null) {
    if (actor.role !== 'global_admin' && !COMPANY_ADMINS.includes(actor.role)) throw forbidden();
    return;
  }
  if (!(await findStaffMember(db, companyId, userId))) throw notFound('User not found');
  assertSelfOrCompanyAdmin(actor, companyId, userId);
}

interface TimeFields {
  open_time?: string | null;
  close_time?: string | null;
  open_time_slot_id?: number | null;
  close_time_slot_id?: number | null;
}

/** One side's time from a time or a slot id; undefined when the body says nothing about it. */
function resolveTime(
  slots: TimeSlotIndex,
  side: 'open' | 'close',
  time: string | null | undefined,
  slotId: number | null | undefined,
): string | null | undefined {
  const fromTime = time == null ? time : normaliseTime(time);
  if (slotId == null) return fromTime !== undefined ? fromTime : slotId;
  const value = slots.valueOf(slotId);
  if (value === undefined)
    throw badRequest(`Unknown ${side}_time_slot_id`, [{ path: `${side}_time_slot_id`, message: 'No such time slot' }]);
  const fromSlot = `${value}:00`;
  if (fromTime != null && fromTime !== fromSlot) {
    throw badRequest(`${side}_time and ${side}_time_slot_id disagree`, [
      { path: `${side}_time_slot_id`, message: `${side}_time and ${side}_time_slot_id disagree` },
    ]);
  }
  return fromSlot;
}

function resolveTimes(slots: TimeSlotIndex, body: TimeFields) {
  return {
    open: resolveTime(slots, 'open', body.open_time, body.open_time_slot_id),
    close: resolveTime(slots, 'close', body.close_time, body.close_time_slot_id),
  };
}

function assertValidDay(values: HoursValues & { day_of_week: number }): void {
  const problem = dayHoursProblem(values);
  if (problem) throw badRequest(problem.message, [problem]);
}

/** Changes one day's row (partial: fields left out keep their value). */
export async function changeHours(db: Db, actor: Actor, id: number, body: UpdateHoursInput, who: AuditContext): Promise<OperatingHoursDto> {
  const row = await findHours(db, id);
  if (!row) throw notFound(NOT_FOUND);
  await authorizeHoursWrite(db, actor, row.company_id, row.user_id);
  if (body.company_id !== undefined && body.company_id !== row.company_id) throw badRequest('Hours cannot move to another company');
  if (body.user_id !== undefined && body.user_id !== row.user_id) throw badRequest('Hours cannot move to another person');
  const slots = await timeSlotIndex(db);
  const times = resolveTimes(slots, body);
  const values = {
    day_of_week: body.day_of_week ?? row.day_of_week,
    open_time: times.open !== undefined ? times.open : row.open_time,
    close_time: times.close !== undefined ? times.close : row.close_time,
    is_closed: body.is_closed ?? row.is_closed === 1,
  };
  assertValidDay(values);
  // Breaks (docs/decisions/27-scheduling-rules.md): the row may not overlap another interval of its day.
  const updated = await db.transaction().execute(async (trx) => {
    await lockCompanyHours(trx, row.company_id);
    const dayRows = await listHours(trx, { companyId: row.company_id, userId: row.user_id, dayOfWeek: values.day_of_week });
    const problem = changedRowProblem(
      dayRows.filter((r) => r.id !== id),
      values,
    );
    if (problem) throw new AppError('conflict', problem);
    const after = await updateHours(trx, id, values);
    if (after) await auditHours(trx, who, 'update', row, after);
    return after;
  });
  if (!updated) throw notFound(NOT_FOUND);
  return toHoursDto(updated, slots);
}

/** A company's hours, or one person's work hours (their company found from them when not named). */
export async function listHoursOf(
  db: Db,
  actor: Actor | null,
  q: { company_id?: number; user_id?: number; day_of_week?: number },
): Promise<OperatingHoursDto[]> {
  let companyId = q.company_id ?? actor?.company_id ?? null;
  if (companyId === null && q.user_id !== undefined) {
    const person = await findStaffMember(db, null, q.user_id);
    if (!person) throw notFound('User not found');
    companyId = person.company_id;
  }
  if (companyId === null) throw badRequest('company_id is required');
  if (!(await findCompanyById(db, companyId))) throw notFound('Company not found');
  const rows = await listHours(db, { companyId, userId: q.user_id ?? null, dayOfWeek: q.day_of_week });
  const slots = await timeSlotIndex(db);
  return rows.map((r) => toHoursDto(r, slots));
}

export async function getHours(db: Db, id: number): Promise<OperatingHoursDto> {
  const row = await findHours(db, id);
  if (!row) throw notFound(NOT_FOUND);
  return toHoursDto(row, await timeSlotIndex(db));
}

/**
 * Sets one weekday's hours: creates a row, or updates the day's row, as placeDayHours decides
 * (one interval per day keeps the old upsert; a non-overlapping interval adds a break; an interval
 * overlapping one of several answers 409).
 */
export async function setDayHours(
  db: Db,
  actor: Actor,
  body: CreateHoursInput,
  who: AuditContext,
): Promise<{ hours: OperatingHoursDto; created: boolean }> {
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
  await authorizeHoursWrite(db, actor, companyId, userId);
  const slots = await timeSlotIndex(db);
  const times = resolveTimes(slots, body);
  const values = { open_time: times.open ?? null, close_time: times.close ?? null, is_closed: body.is_closed ?? false };
  assertValidDay({ day_of_week: body.day_of_week, ...values });
  const key = { companyId, userId, dayOfWeek: body.day_of_week };
  const { row, created } = await db.transaction().execute(async (trx) => {
    await lockCompanyHours(trx, companyId);
    const dayRows = await listHours(trx, key);
    const place = placeDayHours(dayRows, { day_of_week: body.day_of_week, ...values });
    if (place.kind === 'conflict') throw new AppError('conflict', overlapMessage(body.day_of_week, place.row));
    if (place.kind === 'insert') {
      const inserted = await insertHours(trx, key, values);
      await auditHours(trx, who, 'create', null, inserted);
      return { row: inserted, created: true };
    }
    if (place.dropOthers) {
      await deleteHoursExcept(trx, key, place.row.id);
      // The day's other intervals (its breaks) go: each removal is a write to hours, audited as one.
      for (const dropped of dayRows) if (dropped.id !== place.row.id) await auditHours(trx, who, 'delete', dropped, null);
    }
    const updated = await updateHours(trx, place.row.id, { day_of_week: body.day_of_week, ...values });
    await auditHours(trx, who, 'update', place.row, updated!);
    return { row: updated!, created: false };
  });
  return { hours: toHoursDto(row, slots), created };
}

export async function removeHours(db: Db, actor: Actor, id: number, who: AuditContext): Promise<void> {
  const row = await findHours(db, id);
  if (!row) throw notFound(NOT_FOUND);
  await authorizeHoursWrite(db, actor, row.company_id, row.user_id);
  await db.transaction().execute(async (trx) => {
    await deleteHours(trx, row.id);
    await auditHours(trx, who, 'delete', row, null);
  });
}

const HOURS_FIELDS = ['day_of_week', 'open_time', 'close_time', 'is_closed', 'user_id'] as const;

/** One hours row's audit entry (docs/decisions/31-audit-log.md). */
async function auditHours(
  trx: DbOrTx,
  who: AuditContext,
  action: 'create' | 'update' | 'delete',
  before: OperatingHoursRow | null,
  after: OperatingHoursRow | null,
): Promise<void> {
  const row = (after ?? before)!;
  const changes =
    action === 'create'
      ? createdChanges(pickFields(after!, HOURS_FIELDS))
      : action === 'delete'
        ? deletedChanges(pickFields(before!, HOURS_FIELDS))
        : diffChanges(before!, pickFields(after!, HOURS_FIELDS));
  if (action === 'update' && !Object.keys(changes).length) return;
  await recordAudit(trx, who, { company_id: row.company_id, action, entity: 'operating_hours', entity_id: row.id, changes });
}
