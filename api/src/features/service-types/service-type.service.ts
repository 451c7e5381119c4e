// The rules of service types: public reads (hidden prices only for the company's insiders), writes by
// the company's admins and managers, and removal that archives what appointments refer to.
import type { AuditContext } from '../../lib/audit-context.ts';
import { createdChanges, deletedChanges, diffChanges, pickFields, recordAudit } from '../audit/audit.repository.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Database, Dialect } from '@bookwell/db';
import type { Actor } from '../../lib/context.ts';
import { actingCompanyId, assertCompanyAccess, readCompanyId, seesCompanyInternals } from '../../lib/authorize.ts';
import { syncAppointmentsShowing } from '../appointments/booking-transaction.service.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { findCompanyById } from '../companies/company.repository.ts';
import { toServiceTypeDto } from './service-type.mapper.ts';
import {
  currentStaffIds,
  findServiceType,
  insertServiceType,
  listActiveServiceTypes,
  lockServiceType,
  removeServiceType,
  serviceEmployees,
  setServiceEmployees,
  updateServiceType,
} from './service-type.repository.ts';
import type { CreateServiceTypeInput, ServiceTypeDto, UpdateServiceTypeInput } from './service-type.schema.ts';

type Db = Kysely<Database>;
type DbOrTx = Db | Transaction<Database>;

/** employee_ids must name current staff of the service's company (docs/decisions/27-scheduling-rules.md). */
async function assertCompanyStaff(db: DbOrTx, companyId: number, ids: readonly number[]): Promise<void> {
  const staff = await currentStaffIds(db, companyId, ids);
  const index = ids.findIndex((id) => !staff.has(id));
  if (index >= 0) {
    const message = `employee_ids: ${ids[index]} is not a staff member of this company`;
    throw badRequest(message, [{ path: `employee_ids.${index}`, message }]);
  }
}

const NOT_FOUND = 'Service type not found';

/** A company's active service types; hidden prices are null for anyone outside the company. */
export async function listServiceTypes(db: Db, actor: Actor | null, requestedCompanyId: number | undefined): Promise<ServiceTypeDto[]> {
  const companyId = readCompanyId(actor, requestedCompanyId);
  if (!(await findCompanyById(db, companyId))) throw notFound('Company not found');
  const internal = seesCompanyInternals(actor, companyId);
  const rows = await listActiveServiceTypes(db, companyId);
  const employees = await serviceEmployees(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toServiceTypeDto(r, internal, employees.get(r.id) ?? []));
}

/** One service type; archived ones only for the company's staff. */
export async function getServiceType(db: Db, actor: Actor | null, id: number): Promise<ServiceTypeDto> {
  const row = await findServiceType(db, id);
  if (!row) throw notFound(NOT_FOUND);
  const internal = seesCompanyInternals(actor, row.company_id);
  if (row.archived_at && !internal) throw notFound(NOT_FOUND);
  return toServiceTypeDto(row, internal, (await serviceEmployees(db, [row.id])).get(row.id) ?? []);
}

export async function addServiceType(
  db: Db,
  actor: Actor,
  body: CreateServiceTypeInput,
  now: Date,
  who: AuditContext,
): Promise<ServiceTypeDto> {
  const companyId = actingCompanyId(actor, body.company_id);
  if (!(await findCompanyById(db, companyId))) throw notFound('Company not found');
  const employeeIds = [...new Set(body.employee_ids ?? [])].sort((x, y) => x - y);
  await assertCompanyStaff(db, companyId, employeeIds);
  const row = await db.transaction().execute(async (trx) => {
    const inserted = await insertServiceType(
      trx,
      {
        company_id: companyId,
        name: body.name,
        duration_minutes: body.duration_minutes,
        price: body.price ?? null,
        hide_price: body.hide_price ?? false,
        available_slots: body.available_slots ?? 1,
        buffer_before_minutes: body.buffer_before_minutes ?? 0,
        buffer_after_minutes: body.buffer_after_minutes ?? 0,
      },
      now,
    );
    await setServiceEmployees(trx, inserted.id, employeeIds);
    await recordAudit(trx, who, {
      company_id: companyId,
      action: 'create',
      entity: 'service_type',
      entity_id: inserted.id,
      changes: createdChanges({ ...pickFields(inserted, SERVICE_FIELDS), employee_ids: employeeIds }),
    });
    return inserted;
  });
  return toServiceTypeDto(row, true, employeeIds);
}

const SERVICE_FIELDS = [
  'name',
  'duration_minutes',
  'price',
  'hide_price',
  'available_slots',
  'buffer_before_minutes',
  'buffer_after_minutes',
] as const;

/** Partial: fields left out keep their value. */
export async function changeServiceType(
  db: Db,
  dialect: Dialect,
  actor: Actor,
  id: number,
  body: UpdateServiceTypeInput,
  now: Date,
  who: AuditContext,
): Promise<ServiceTypeDto> {
  const row = await findServiceType(db, id);
  if (!row || row.archived_at) throw notFound(NOT_FOUND);
  assertCompanyAccess(actor, row.company_id);
  const { company_id, employee_ids, ...changes } = body;
  if (company_id !== undefined && company_id !== row.company_id) throw badRequest('A service type cannot move to another company');
  const employeeIds = employee_ids === undefined ? undefined : [...new Set(employee_ids)].sort((x, y) => x - y);
  if (employeeIds) await assertCompanyStaff(db, row.company_id, employeeIds);
  const updated = await db.transaction().execute(async (trx) => {
    const changed = Object.keys(changes).length ? await updateServiceType(trx, id, changes, now) : row;
    if (!changed) return changed;
    const audited = diffChanges(row, pickFields(changed, SERVICE_FIELDS));
    // Its appointments show its name: offline copies must hear of a rename.
    if (audited.name) await syncAppointmentsShowing(trx, dialect, row.company_id, { serviceTypeId: id });
    if (employeeIds) {
      const before = ((await serviceEmployees(trx, [id])).get(id) ?? []).slice().sort((x, y) => x - y);
      await setServiceEmployees(trx, id, employeeIds);
      if (before.join() !== employeeIds.join()) audited.employee_ids = { old: before, new: employeeIds };
    }
    if (Object.keys(audited).length)
      await recordAudit(trx, who, {
        company_id: row.company_id,
        action: 'update',
        entity: 'service_type',
        entity_id: id,
        changes: audited,
      });
    return changed;
  });
  // Archived between our read and the update: it is gone as far as the caller is concerned.
  if (!updated) throw notFound(NOT_FOUND);
  return toServiceTypeDto(updated, true, (await serviceEmployees(db, [id])).get(id) ?? []);
}

/** Deleted, or archived when appointments refer to it. */
export async function deleteServiceType(db: Db, actor: Actor, id: number, now: Date, who: AuditContext): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await lockServiceType(trx, id);
    if (!row || row.archived_at) throw notFound(NOT_FOUND);
    assertCompanyAccess(actor, row.company_id);
    const how = await removeServiceType(trx, id, now);
    await recordAudit(trx, who, {
      company_id: row.company_id,
      action: how === 'archived' ? 'archive' : 'delete',
      entity: 'service_type',
      entity_id: id,
      changes: deletedChanges(pickFields(row, SERVICE_FIELDS)),
    });
  });
}
