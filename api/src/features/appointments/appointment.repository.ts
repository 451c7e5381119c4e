// Appointment rows: reading them with the names people see, writing them with their services, the
// sync log of every change, and the customer an outside booking belongs to.
import { sql, type Transaction } from 'kysely';
import {
  arg,
  deferredWrite,
  prepared,
  preparedWrite,
  readTogether,
  type AppointmentRow,
  type Database,
  type DbOrTx,
  type Dialect,
  type Role,
} from '@bookwell/db';
import { idsOfCopy, startBound } from '../availability/availability.repository.ts';
import {
  companyPersonByEmailOrNewCustomer,
  companyPersonByEmailOrNewCustomerQuery,
  insertUser,
  type LookedUp,
} from '../users/user.repository.ts';

/** An appointment as shown: its services by name in service_types (the row's copy of their ids, service_ids, is availability's). */
export interface AppointmentView extends Omit<AppointmentRow, 'service_ids'> {
  customer_user_name: string | null;
  customer_user_email: string | null;
  customer_user_phone: string | null;
  employee_name: string | null;
  service_types: { id: number; name: string }[];
}

function viewQuery(db: DbOrTx) {
  return db
    .selectFrom('appointments as a')
    .leftJoin('users as cu', 'cu.id', 'a.user_id')
    .leftJoin('users as em', 'em.id', 'a.employee_id')
    .selectAll('a')
    .select([
      'cu.name as customer_user_name',
      'cu.email as customer_user_email',
      'cu.phone as customer_user_phone',
      'em.name as employee_name',
    ]);
}

type ViewRow = Omit<AppointmentView, 'service_types'>;

// Bound parameters per statement stay well under SQLite's and PostgreSQL's limits.
const ID_CHUNK = 500;

const servicesOfQuery = (db: DbOrTx, ids: number[]) =>
  db
    .selectFrom('appointment_service_types as ast')
    .innerJoin('service_types as st', 'st.id', 'ast.service_type_id')
    .select(['ast.appointment_id', 'st.id', 'st.name'])
    .where('ast.appointment_id', 'in', ids)
    .orderBy('st.id');
type ServiceLink = { appointment_id: number; id: number; name: string };

function joinServices(rows: ViewRow[], links: ServiceLink[]): AppointmentView[] {
  const byId = new Map<number, { id: number; name: string }[]>();
  for (const r of rows) byId.set(r.id, []);
  for (const l of links) byId.get(l.appointment_id)?.push({ id: l.id, name: l.name });
  return rows.map((r) => ({ ...r, service_types: byId.get(r.id)! }));
}

async function withServices(db: DbOrTx, rows: ViewRow[]): Promise<AppointmentView[]> {
  const ids = rows.map((r) => r.id);
  const links: ServiceLink[] = [];
  for (let i = 0; i < ids.length; i += ID_CHUNK) links.push(...(await servicesOfQuery(db, ids.slice(i, i + ID_CHUNK)).execute()));
  return joinServices(rows, links);
}

/**
 * One appointment as shown. Its row and its services are read together: on PostgreSQL one message
 * (every appointment write ends with this read while it holds the company lock;
 * docs/decisions/34-batched-round-trips.md, "Session 38").
 */
export async function findAppointmentView(db: DbOrTx, id: number): Promise<AppointmentView | undefined> {
  const [rows, links] = await readTogether(db, appointmentViewReads(db, id));
  return viewOfReads(rows, links);
}

/** findAppointmentView's two reads, for a caller that sends them with others (readTogether). */
export const appointmentViewReads = (db: DbOrTx, id: number) =>
  [viewQuery(db).where('a.id', '=', id).compile(), servicesOfQuery(db, [id]).compile()] as const;

/** The view from the answers of appointmentViewReads. */
export function viewOfReads(rows: ViewRow[], links: ServiceLink[]): AppointmentView | undefined {
  return rows.length ? joinServices(rows, links)[0] : undefined;
}

export async function appointmentViewsByIds(db: DbOrTx, ids: number[]): Promise<AppointmentView[]> {
  const rows: ViewRow[] = [];
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    rows.push(
      ...(await viewQuery(db)
        .where('a.id', 'in', ids.slice(i, i + ID_CHUNK))
        .execute()),
    );
  }
  return withServices(db, rows);
}

export interface AppointmentListFilter {
  companyId: number;
  userId?: number;
  employeeId?: number;
  /** Overlap range (ISO instants): appointments ending after `from` and starting before `to`. */
  from?: string;
  to?: string;
  /** The company's longest appointment, which turns "ends after from" into a bounded index range. */
  longestMinutes: number;
  /** Keyset paging for the sync snapshot: only ids above this, in id order. */
  afterId?: number;
  limit?: number;
}

export function appointmentListQuery(db: DbOrTx, f: AppointmentListFilter) {
  let q = viewQuery(db).where('a.company_id', '=', f.companyId);
  if (f.userId !== undefined) q = q.where('a.user_id', '=', f.userId);
  if (f.employeeId !== undefined) q = q.where('a.employee_id', '=', f.employeeId);
  if (f.from !== undefined) q = q.where('a.end_time', '>', f.from).where('a.start_time', '>=', startBound(f.from, f.longestMinutes));
  if (f.to !== undefined) q = q.where('a.start_time', '<', f.to);
  if (f.afterId !== undefined) q = q.where('a.id', '>', f.afterId).orderBy('a.id');
  else q = q.orderBy('a.start_time').orderBy('a.id');
  if (f.limit !== undefined) q = q.limit(f.limit);
  return q;
}

export async function listAppointmentViews(db: DbOrTx, f: AppointmentListFilter): Promise<AppointmentView[]> {
  return withServices(db, await appointmentListQuery(db, f).execute());
}

export const appointmentRowQuery = (db: DbOrTx, id: number) => db.selectFrom('appointments').selectAll().where('id', '=', id);

export async function findAppointmentRow(db: DbOrTx, id: number): Promise<AppointmentRow | undefined> {
  return appointmentRowQuery(db, id).executeTakeFirst();
}

/** The appointment's service ids, ascending, from the row's copy of its links (migration 059: the triggers keep it exact). */
export function serviceIdsOfRow(row: Pick<AppointmentRow, 'service_ids'>): number[] {
  return idsOfCopy(row.service_ids);
}

export type NewAppointmentValues = Omit<AppointmentRow, 'id' | 'created_at' | 'updated_at' | 'version' | 'status' | 'service_ids'>;

const APPOINTMENT_INSERT_COLUMNS = [
  'company_id',
  'user_id',
  'employee_id',
  'start_time',
  'end_time',
  'description',
  'appointment_duration_option_id',
  'customer_name',
  'customer_email',
  'customer_phone',
  'sms_consent',
  'created_by',
  'created_at',
  'updated_at',
  'manage_nonce',
  'manage_token_hash',
  'service_ids',
] as const;
// Compile-time guard: a column added to appointments must be added to the list above.
type UnlistedColumn = Exclude<keyof NewAppointmentValues, (typeof APPOINTMENT_INSERT_COLUMNS)[number]>;
const allColumnsListed: [UnlistedColumn] extends [never] ? true : UnlistedColumn = true;
void allColumnsListed;

// Every booking runs these two inserts: compiled once (the values are arguments in column order).
const newAppointmentRow = (extra: Record<string, unknown> = {}) =>
  ({ ...Object.fromEntries(APPOINTMENT_INSERT_COLUMNS.map((c, i) => [c, arg(i)])), status: 'booked', version: 1, ...extra }) as never;
const appointmentInsert = prepared<unknown[], { id: number }>((db) =>
  db.insertInto('appointments').values(newAppointmentRow()).returning('id'),
);
// The same with the id drawn beforehand (the argument after the columns): a deferred write, nothing is read back.
const appointmentInsertWithId = preparedWrite<unknown[]>((db) =>
  db.insertInto('appointments').values(newAppointmentRow({ id: arg(APPOINTMENT_INSERT_COLUMNS.length) })),
);
// The links, the sync change: deferred writes, so on PostgreSQL they go out with the transaction's
// next statement (db/src/deferred-writes.ts).
const serviceLinkInsert = preparedWrite<[appointmentId: number, serviceTypeId: number]>((db) =>
  db.insertInto('appointment_service_types').values({ appointment_id: arg(0), service_type_id: arg(1) }),
);

/**
 * Inserts the appointment and its service links; answers its id. With `knownId` (drawn from the
 * sequence beforehand, lockCompanyForBooking) the insert is a deferred write: nothing is read back.
 */
export async function insertAppointment(
  trx: DbOrTx,
  values: NewAppointmentValues,
  serviceTypeIds: number[],
  now: Date,
  knownId?: number,
): Promise<number> {
  const iso = now.toISOString();
  // The services' copy on the row (migration 059) written with it: the link's trigger then finds it right and writes nothing.
  const ids = [...new Set(serviceTypeIds)].sort((a, b) => a - b);
  const row: Record<string, unknown> = { ...values, created_at: iso, updated_at: iso, service_ids: ids.length ? ids.join(',') : null };
  const columns = APPOINTMENT_INSERT_COLUMNS.map((c) => row[c]);
  let id: number;
  if (knownId === undefined) [{ id }] = await appointmentInsert(trx, columns);
  else {
    id = knownId;
    await appointmentInsertWithId(trx, [...columns, id]);
  }
  if (serviceTypeIds.length === 1) await serviceLinkInsert(trx, [id, serviceTypeIds[0]]);
  else if (serviceTypeIds.length) {
    await deferredWrite(
      trx,
      trx
        .insertInto('appointment_service_types')
        .values(serviceTypeIds.map((service_type_id) => ({ appointment_id: id, service_type_id }))),
    );
  }
  return id;
}

export type AppointmentChanges = Partial<
  Pick<
    AppointmentRow,
    'user_id' | 'employee_id' | 'start_time' | 'end_time' | 'description' | 'appointment_duration_option_id' | 'status' | 'sms_consent'
  >
>;

/** Applies the changes and raises the version by one; services are replaced when given. */
export async function updateAppointment(
  trx: DbOrTx,
  id: number,
  changes: AppointmentChanges,
  serviceTypeIds: number[] | undefined,
  now: Date,
): Promise<void> {
  // Nothing here is read back: deferred writes, so on PostgreSQL they go out with the transaction's
  // next statement (the appointment's view, read after them), and a failure fails that statement.
  await deferredWrite(
    trx,
    trx
      .updateTable('appointments')
      .set((eb) => ({ ...changes, version: eb('version', '+', 1), updated_at: now.toISOString() }))
      .where('id', '=', id),
  );
  if (serviceTypeIds) {
    await deferredWrite(trx, trx.deleteFrom('appointment_service_types').where('appointment_id', '=', id));
    if (serviceTypeIds.length) {
      await deferredWrite(
        trx,
        trx
          .insertInto('appointment_service_types')
          .values(serviceTypeIds.map((service_type_id) => ({ appointment_id: id, service_type_id }))),
      );
    }
  }
}

/** Nothing is read back: a deferred write (on PostgreSQL it goes out with the commit and what the deletion queues). */
export async function deleteAppointment(trx: DbOrTx, id: number): Promise<void> {
  await deferredWrite(trx, trx.deleteFrom('appointments').where('id', '=', id));
}

/**
 * Appends to the company's change log. Call it only while holding the company lock (see
 * lockCompanyForBooking): ids then commit in the order they were taken, so a reader that has seen id
 * n has seen every change below n, and the id is a safe cursor.
 */
const syncChangeInsert = preparedWrite<[companyId: number, appointmentId: number, op: 'upsert' | 'delete', createdAt: string]>((db) =>
  db.insertInto('sync_changes').values({ company_id: arg(0), appointment_id: arg(1), op: arg(2), created_at: arg(3) }),
);

export async function recordSyncChange(
  trx: Transaction<Database>,
  companyId: number,
  appointmentId: number,
  op: 'upsert' | 'delete',
  now: Date,
): Promise<void> {
  await syncChangeInsert(trx, [companyId, appointmentId, op, now.toISOString()]);
}

/**
 * A change to every appointment of the company that shows a person (as customer or employee) or a
 * service whose name or contact changed: offline copies fetch them again through the feed
 * (docs/decisions/08-offline-pwa.md). Run under the company's booking lock, as every sync change is,
 * so the feed's ids commit in order.
 */
export async function recordSyncChangesShowing(
  trx: Transaction<Database>,
  companyId: number,
  of: { userId: number } | { serviceTypeId: number },
): Promise<void> {
  await trx
    .insertInto('sync_changes')
    // created_at: the column's default (the database's clock), as close as the writer's here.
    .columns(['company_id', 'appointment_id', 'op'])
    .expression((eb) => {
      const rows = eb
        .selectFrom('appointments')
        .select(['company_id', 'id', sql<'upsert'>`'upsert'`.as('op')])
        .where('company_id', '=', companyId);
      if ('userId' in of) return rows.where((w) => w.or([w('user_id', '=', of.userId), w('employee_id', '=', of.userId)]));
      return rows.where(
        'id',
        'in',
        eb.selectFrom('appointment_service_types').select('appointment_id').where('service_type_id', '=', of.serviceTypeId),
      );
    })
    .execute();
}

export interface SyncChangeRow {
  id: number;
  appointment_id: number;
  op: 'upsert' | 'delete';
}

export async function changesAfter(db: DbOrTx, companyId: number, afterId: number, limit: number): Promise<SyncChangeRow[]> {
  return db
    .selectFrom('sync_changes')
    .select(['id', 'appointment_id', 'op'])
    .where('company_id', '=', companyId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function latestChangeId(db: DbOrTx, companyId: number): Promise<number> {
  const row = await db
    .selectFrom('sync_changes')
    .select((eb) => eb.fn.max('id').as('max'))
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

export interface CompanyPerson {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  role: Role;
}

/** A non-archived user of the company (any role: staff may book a colleague as the customer). */
const companyPerson = prepared<[companyId: number, userId: number], CompanyPerson>((db) =>
  db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'phone', 'role'])
    .where('id', '=', arg(1))
    .where('company_id', '=', arg(0))
    .where('archived_at', 'is', null),
);

export async function findCompanyPerson(db: DbOrTx, companyId: number, userId: number): Promise<CompanyPerson | undefined> {
  return (await companyPerson(db, [companyId, userId]))[0];
}

// Every booking by email looks the person up: compiled once.
const customerByEmail = prepared<[companyId: number, email: string], CompanyPerson>((db) =>
  db.selectFrom('users').select(['id', 'name', 'email', 'phone', 'role']).where('company_id', '=', arg(0)).where('email', '=', arg(1)),
);

/**
 * PostgreSQL: findOrCreateCustomer's statement bound, not run, for a booking to send with its company
 * lock (docs/decisions/40-appointment-id-with-the-lock.md); its rows go back to findOrCreateCustomer.
 */
export function customerLookupQuery(
  db: DbOrTx,
  companyId: number,
  input: { name: string; email: string; phone: string | null },
  now: Date,
) {
  return companyPersonByEmailOrNewCustomerQuery(db, companyId, { ...input, email: input.email.toLowerCase() }, now);
}

/**
 * The company's record of this person, found by email or created as a password-less customer.
 * An existing record is never changed (docs/decisions/04-customers-and-anonymous-booking.md): whoever typed the email has not
 * proved they own it, so what they typed is kept on the appointment instead.
 * `lookedUp`: on PostgreSQL, the rows of customerLookupQuery when it was already sent.
 */
export async function findOrCreateCustomer(
  trx: DbOrTx,
  dialect: Dialect,
  companyId: number,
  input: { name: string; email: string; phone: string | null },
  now: Date,
  lookedUp?: LookedUp[],
): Promise<CompanyPerson & { created: boolean }> {
  const email = input.email.toLowerCase();
  if (dialect === 'postgres') {
    const row = lookedUp ? lookedUp[0] : await companyPersonByEmailOrNewCustomer(trx, companyId, { ...input, email }, now);
    if (row) return row;
  } else {
    const [existing] = await customerByEmail(trx, [companyId, email]);
    if (existing) return { ...existing, created: false };
    // Skipping an existing row covers a customer added by staff at the same moment (outside our lock).
    const created = await insertUser(trx, { company_id: companyId, name: input.name, email, phone: input.phone, role: 'customer' }, now, {
      unlessCompanyHasEmail: true,
    });
    if (created)
      return { id: created.id, name: created.name, email: created.email, phone: created.phone, role: created.role, created: true };
  }
  const [found] = await customerByEmail(trx, [companyId, email]);
  if (!found) throw new Error(`customer ${email} of company ${companyId} neither inserted nor found`);
  return { ...found, created: false };
}

export async function durationOptionMinutes(db: DbOrTx, optionId: number): Promise<number | undefined> {
  const row = await db.selectFrom('appointment_duration_options').select('duration_minutes').where('id', '=', optionId).executeTakeFirst();
  return row?.duration_minutes;
}

/** Services by id, archived ones included (an existing booking keeps its service). */
export async function servicesByIds(
  db: DbOrTx,
  ids: number[],
): Promise<{ id: number; name: string; duration_minutes: number; available_slots: number; archived_at: string | null }[]> {
  if (!ids.length) return [];
  return db
    .selectFrom('service_types')
    .select(['id', 'name', 'duration_minutes', 'available_slots', 'archived_at'])
    .where('id', 'in', ids)
    .execute();
}

/** The capacity of each of these services, archived ones included (at least one id). */
export const serviceCapacitiesQuery = (db: DbOrTx, ids: number[]) =>
  db.selectFrom('service_types').select(['id', 'available_slots']).where('id', 'in', ids);
