// Service type rows: the company's active catalogue, lookups for booking, and archive-or-delete.
import { PostgresAdapter, type Transaction } from 'kysely';
import { STAFF_ROLES, arg, prepared, type Database, type DbOrTx, type ServiceTypeRow } from '@bookwell/db';

/** Active (not archived) service types of a company, as lists and pickers show them. */
export async function listActiveServiceTypes(db: DbOrTx, companyId: number): Promise<ServiceTypeRow[]> {
  return db
    .selectFrom('service_types')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('archived_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Any service type by id, archived ones included (past appointments still name them). */
export async function findServiceType(db: DbOrTx, id: number): Promise<ServiceTypeRow | undefined> {
  return db.selectFrom('service_types').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The service type a booking may use: it belongs to the company and is not archived; undefined
 * otherwise. Call it inside the booking transaction so a concurrent archive is seen.
 */
export async function findActiveServiceType(db: DbOrTx, companyId: number, id: number): Promise<ServiceTypeRow | undefined> {
  return db
    .selectFrom('service_types')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', companyId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

/** Several bookable service types at once; ids that are unknown, archived or another company's are simply absent. */
// A booking of one service (the usual case) reads it on every write: compiled once.
const oneActiveServiceType = prepared<[companyId: number, id: number], ServiceTypeRow>((db) =>
  db.selectFrom('service_types').selectAll().where('id', '=', arg(1)).where('company_id', '=', arg(0)).where('archived_at', 'is', null),
);

export async function findActiveServiceTypes(db: DbOrTx, companyId: number, ids: readonly number[]): Promise<ServiceTypeRow[]> {
  if (ids.length === 0) return [];
  if (new Set(ids).size === 1) return oneActiveServiceType(db, [companyId, ids[0]]);
  return db
    .selectFrom('service_types')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .where('company_id', '=', companyId)
    .where('archived_at', 'is', null)
    .orderBy('id')
    .execute();
}

export interface NewServiceTypeValues {
  company_id: number;
  name: string;
  duration_minutes: number;
  price: number | null;
  hide_price: boolean;
  available_slots: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
}

export async function insertServiceType(db: DbOrTx, values: NewServiceTypeValues, now: Date): Promise<ServiceTypeRow> {
  const iso = now.toISOString();
  return db
    .insertInto('service_types')
    .values({
      ...values,
      hide_price: values.hide_price ? 1 : 0,
      archived_at: null,
      created_at: iso,
      updated_at: iso,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type ServiceTypeChanges = Partial<Omit<NewServiceTypeValues, 'company_id'>>;

export async function updateServiceType(
  db: DbOrTx,
  id: number,
  changes: ServiceTypeChanges,
  now: Date,
): Promise<ServiceTypeRow | undefined> {
  const { hide_price, ...rest } = changes;
  return db
    .updateTable('service_types')
    .set({ ...rest, ...(hide_price === undefined ? {} : { hide_price: hide_price ? 1 : 0 }), updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Reads a service type for a change that must not race a booking: on PostgreSQL the row is locked
 * (a booking's foreign-key check waits for us, and we see every booking committed before us);
 * SQLite's BEGIN IMMEDIATE already serialises writers.
 */
export async function lockServiceType(trx: Transaction<Database>, id: number): Promise<ServiceTypeRow | undefined> {
  const query = trx.selectFrom('service_types').selectAll().where('id', '=', id);
  const isPostgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  return (isPostgres ? query.forUpdate() : query).executeTakeFirst();
}

export async function serviceTypeInUse(db: DbOrTx, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('appointment_service_types')
    .select('appointment_id')
    .where('service_type_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function archiveServiceType(db: DbOrTx, id: number, now: Date): Promise<void> {
  const iso = now.toISOString();
  await db.updateTable('service_types').set({ archived_at: iso, updated_at: iso }).where('id', '=', id).execute();
}

export async function deleteServiceType(db: DbOrTx, id: number): Promise<void> {
  await db.deleteFrom('service_types').where('id', '=', id).execute();
}

/**
 * Deleting a service type that appointments refer to archives it (it leaves lists, pickers and
 * booking; past appointments keep its name); otherwise the row goes. Returns what happened.
 */
export async function removeServiceType(trx: Transaction<Database>, id: number, now: Date): Promise<'archived' | 'deleted'> {
  if (await serviceTypeInUse(trx, id)) {
    await archiveServiceType(trx, id, now);
    return 'archived';
  }
  await deleteServiceType(trx, id);
  return 'deleted';
}

// ---------------------------------------------------------------------------
// Who performs a service (docs/decisions/27-scheduling-rules.md): no rows means every staff member.

/**
 * The assigned staff of each service, ascending; a service without rows maps to [] (every staff
 * member performs it). Rows are returned as stored: an archived person stays listed (and is
 * offered by nobody), so archiving the only assignee never turns a service into "everyone".
 */
export async function serviceEmployees(db: DbOrTx, serviceIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  for (const id of serviceIds) out.set(id, []);
  if (serviceIds.length === 0) return out;
  const rows = await db
    .selectFrom('service_employees')
    .select(['service_type_id', 'user_id'])
    .where('service_type_id', 'in', [...new Set(serviceIds)])
    .orderBy('service_type_id')
    .orderBy('user_id')
    .execute();
  for (const r of rows) out.get(r.service_type_id)?.push(r.user_id);
  return out;
}

/** Replaces a service's assigned staff (an empty list: every staff member). */
export async function setServiceEmployees(db: DbOrTx, serviceId: number, userIds: readonly number[]): Promise<void> {
  await db.deleteFrom('service_employees').where('service_type_id', '=', serviceId).execute();
  const unique = [...new Set(userIds)];
  if (unique.length > 0)
    await db
      .insertInto('service_employees')
      .values(unique.map((user_id) => ({ service_type_id: serviceId, user_id })))
      .execute();
}

/** Which of these ids are current (not archived) staff of the company. */
export async function currentStaffIds(db: DbOrTx, companyId: number, userIds: readonly number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', 'in', [...new Set(userIds)])
    .where('role', 'in', STAFF_ROLES)
    .where('archived_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}
