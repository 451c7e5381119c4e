// The rules of service types: public reads (hidden prices only for the company's insiders), writes by
// the company's admins and managers, and removal that archives what appointments refer to.
import type { Kysely } from 'kysely';
import type { Database } from '@bookwell/db';
import type { Actor } from '../../lib/context.ts';
import { actingCompanyId, assertCompanyAccess, readCompanyId, seesCompanyInternals } from '../../lib/authorize.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { findCompanyById } from '../companies/company.repository.ts';
import { toServiceTypeDto } from './service-type.mapper.ts';
import {
  findServiceType,
  insertServiceType,
  listActiveServiceTypes,
  lockServiceType,
  removeServiceType,
  updateServiceType,
} from './service-type.repository.ts';
import type { CreateServiceTypeInput, ServiceTypeDto, UpdateServiceTypeInput } from './service-type.schema.ts';

type Db = Kysely<Database>;

const NOT_FOUND = 'Service type not found';

/** A company's active service types; hidden prices are null for anyone outside the company. */
export async function listServiceTypes(db: Db, actor: Actor | null, requestedCompanyId: number | undefined): Promise<ServiceTypeDto[]> {
  const companyId = readCompanyId(actor, requestedCompanyId);
  if (!(await findCompanyById(db, companyId))) throw notFound('Company not found');
  const internal = seesCompanyInternals(actor, companyId);
  const rows = await listActiveServiceTypes(db, companyId);
  return rows.map((r) => toServiceTypeDto(r, internal));
}

/** One service type; archived ones only for the company's staff. */
export async function getServiceType(db: Db, actor: Actor | null, id: number): Promise<ServiceTypeDto> {
  const row = await findServiceType(db, id);
  if (!row) throw notFound(NOT_FOUND);
  const internal = seesCompanyInternals(actor, row.company_id);
  if (row.archived_at && !internal) throw notFound(NOT_FOUND);
  return toServiceTypeDto(row, internal);
}

export async function addServiceType(db: Db, actor: Actor, body: CreateServiceTypeInput, now: Date): Promise<ServiceTypeDto> {
  const companyId = actingCompanyId(actor, body.company_id);
  if (!(await findCompanyById(db, companyId))) throw notFound('Company not found');
  const row = await insertServiceType(
    db,
    {
      company_id: companyId,
      name: body.name,
      duration_minutes: body.duration_minutes,
      price: body.price ?? null,
      hide_price: body.hide_price ?? false,
      available_slots: body.available_slots ?? 1,
    },
    now,
  );
  return toServiceTypeDto(row, true);
}

/** Partial: fields left out keep their value. */
export async function changeServiceType(
  db: Db,
  actor: Actor,
  id: number,
  body: UpdateServiceTypeInput,
  now: Date,
): Promise<ServiceTypeDto> {
  const row = await findServiceType(db, id);
  if (!row || row.archived_at) throw notFound(NOT_FOUND);
  assertCompanyAccess(actor, row.company_id);
  const { company_id, ...changes } = body;
  if (company_id !== undefined && company_id !== row.company_id) throw badRequest('A service type cannot move to another company');
  const updated = Object.keys(changes).length ? await updateServiceType(db, id, changes, now) : row;
  // Archived between our read and the update: it is gone as far as the caller is concerned.
  if (!updated) throw notFound(NOT_FOUND);
  return toServiceTypeDto(updated, true);
}

/** Deleted, or archived when appointments refer to it. */
export async function deleteServiceType(db: Db, actor: Actor, id: number, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await lockServiceType(trx, id);
    if (!row || row.archived_at) throw notFound(NOT_FOUND);
    assertCompanyAccess(actor, row.company_id);
    await removeServiceType(trx, id, now);
  });
}
