// The reads availability is computed from (the company's booking settings, a bookable service, one
// staff member, and the appointments that can overlap a time range), each one bounded query.
import { sql, type Kysely, type Transaction } from 'kysely';
import { STAFF_ROLES, arg, prepared, type Database } from '@bookwell/db';
import type { BusyAppointment } from './availability.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface BookingCompany {
  id: number;
  name: string;
  email: string | null;
  timezone: string;
  time_increment_minutes: number;
  enable_employee_booking: number;
  subscription_expires_at: string | null;
  longest_appointment_minutes: number;
}

export interface BookableService {
  id: number;
  name: string;
  duration_minutes: number;
  available_slots: number;
}

const COMPANY_COLUMNS = [
  'companies.id', 'companies.name', 'companies.email', 'companies.timezone', 'companies.time_increment_minutes',
  'companies.enable_employee_booking', 'companies.subscription_expires_at', 'companies.longest_appointment_minutes',
] as const;

const bookingCompany = prepared<[companyId: number], BookingCompany>((db) =>
  db.selectFrom('companies').select(COMPANY_COLUMNS).where('companies.id', '=', arg(0)));

export async function findBookingCompany(db: Db, companyId: number): Promise<BookingCompany | undefined> {
  return (await bookingCompany(db, [companyId]))[0];
}

const companyWithService = prepared<[companyId: number, serviceTypeId: number], BookingCompany & {
  service_id: number | null; service_name: string | null; duration_minutes: number | null; available_slots: number | null;
}>((db) => db.selectFrom('companies')
  .leftJoin('service_types as st', (j) => j
    .on('st.id', '=', arg(1))
    .onRef('st.company_id', '=', 'companies.id')
    .on('st.archived_at', 'is', null))
  .select(COMPANY_COLUMNS)
  .select(['st.id as service_id', 'st.name as service_name', 'st.duration_minutes', 'st.available_slots'])
  .where('companies.id', '=', arg(0)));

/**
 * The company and, when it is one of its active (not archived) services, the service, in one query:
 * the hot path of the availability endpoints.
 */
export async function findCompanyWithService(db: Db, companyId: number, serviceTypeId: number): Promise<{ company: BookingCompany; service: BookableService | null } | undefined> {
  const [row] = await companyWithService(db, [companyId, serviceTypeId]);
  if (!row) return undefined;
  const { service_id, service_name, duration_minutes, available_slots, ...company } = row;
  return {
    company,
    service: service_id === null ? null : { id: service_id, name: service_name!, duration_minutes: duration_minutes!, available_slots: available_slots! },
  };
}

/** A current (not archived) staff member of the company, with the name bookings show. */
const staffMember = prepared<[companyId: number, userId: number], { id: number; name: string }>((db) =>
  db.selectFrom('users').select(['id', 'name'])
    .where('id', '=', arg(1)).where('company_id', '=', arg(0))
    .where('role', 'in', STAFF_ROLES).where('archived_at', 'is', null));

export async function findCompanyStaffMember(db: Db, companyId: number, userId: number): Promise<{ id: number; name: string } | undefined> {
  return (await staffMember(db, [companyId, userId]))[0];
}

export interface BusyFilter {
  companyId: number;
  /** Inclusive lower bound on start_time: the range start minus the company's longest appointment. */
  startFrom: string;
  /** Exclusive upper bound on start_time: the range end. */
  startBefore: string;
}

/**
 * Every booked appointment of the company whose start lies in [startFrom, startBefore), one row per
 * (appointment, service). Both ends are bounded so the (company_id, start_time) index reads only the
 * requested stretch, never the whole table. The write transactions use it: they need every
 * neighbour, whatever its service or employee. Exported as a builder for the query-plan test.
 */
export function busyAppointmentsQuery(db: Db, f: BusyFilter) {
  return db.selectFrom('appointments as a')
    .leftJoin('appointment_service_types as ast', 'ast.appointment_id', 'a.id')
    .select(['a.id', 'a.start_time', 'a.end_time', 'a.employee_id', 'ast.service_type_id'])
    .where('a.company_id', '=', f.companyId)
    .where('a.start_time', '>=', f.startFrom)
    .where('a.start_time', '<', f.startBefore)
    .where('a.status', '=', 'booked');
}

interface BusyRow {
  /** Absent when only one service's times were read. */
  id?: number;
  start_time: string | null;
  end_time: string | null;
  employee_id?: number | null;
  service_type_id?: number | null;
}

export interface SlotFilter extends BusyFilter {
  serviceTypeId: number;
  employeeId: number | null;
}

/**
 * What the slots of one service (and optionally one employee) depend on, in one query of two
 * index ranges: the service's bookings by service_bookings' (service_type_id, start_time), and the employee's
 * appointments by (employee_id, start_time), both bounded at both ends. A busy day of the whole
 * company is never read, which keeps a 30-day window to a few hundred index entries.
 */
export function slotAppointmentsQuery(db: Db, f: SlotFilter) {
  const ofService = db.selectFrom('service_bookings as s')
    .where('s.service_type_id', '=', f.serviceTypeId)
    .where('s.start_time', '>=', f.startFrom)
    .where('s.start_time', '<', f.startBefore)
    .where('s.status', '=', 'booked');
  // Without an employee only the times matter; fewer columns is most of the cost of a 30-day read.
  if (f.employeeId === null) return ofService.select(['s.start_time', 's.end_time']).$castTo<BusyRow>();
  return ofService
    .select(['s.appointment_id as id', 's.start_time', 's.end_time', sql<number | null>`null`.as('employee_id'), 's.service_type_id'])
    .$castTo<BusyRow>()
    .unionAll(db.selectFrom('appointments as a')
      .leftJoin('appointment_service_types as x', 'x.appointment_id', 'a.id')
      .select(['a.id', 'a.start_time', 'a.end_time', 'a.employee_id', 'x.service_type_id'])
      .where('a.employee_id', '=', f.employeeId)
      .where('a.company_id', '=', f.companyId)
      .where('a.start_time', '>=', f.startFrom)
      .where('a.start_time', '<', f.startBefore)
      .where('a.status', '=', 'booked')
      .$castTo<BusyRow>());
}

/** Rows (one per appointment and service) into appointments; a row with its employee wins over a service-only copy. */
function collect(rows: BusyRow[], serviceTypeId?: number): BusyAppointment[] {
  const byId = new Map<number, BusyAppointment>();
  const out: BusyAppointment[] = [];
  for (const r of rows) {
    if (r.id === undefined) {
      out.push({ start: r.start_time!, end: r.end_time!, employeeId: null, serviceTypeIds: [serviceTypeId!] });
      continue;
    }
    let a = byId.get(r.id);
    if (!a) {
      a = { id: r.id, start: r.start_time!, end: r.end_time!, employeeId: r.employee_id ?? null, serviceTypeIds: [] };
      byId.set(r.id, a);
      out.push(a);
    } else if (r.employee_id != null) {
      a.employeeId = r.employee_id;
    }
    if (r.service_type_id != null && !a.serviceTypeIds.includes(r.service_type_id)) a.serviceTypeIds.push(r.service_type_id);
  }
  return out;
}

type BusyArgs = [companyId: number, startFrom: string, startBefore: string];
const busyRows = prepared<BusyArgs, BusyRow>((db) =>
  busyAppointmentsQuery(db, { companyId: arg(0), startFrom: arg(1), startBefore: arg(2) }));

export async function busyAppointments(db: Db, f: BusyFilter): Promise<BusyAppointment[]> {
  return collect(await busyRows(db, [f.companyId, f.startFrom, f.startBefore]));
}

type SlotArgs = [serviceTypeId: number, startFrom: string, startBefore: string];
const serviceSlotRows = prepared<SlotArgs, BusyRow>((db) => slotAppointmentsQuery(db, {
  serviceTypeId: arg(0), startFrom: arg(1), startBefore: arg(2), companyId: 0, employeeId: null,
}));
const employeeSlotRows = prepared<[...SlotArgs, companyId: number, employeeId: number], BusyRow>((db) => slotAppointmentsQuery(db, {
  serviceTypeId: arg(0), startFrom: arg(1), startBefore: arg(2), companyId: arg(3), employeeId: arg(4),
}));

export async function slotAppointments(db: Db, f: SlotFilter): Promise<BusyAppointment[]> {
  const rows = f.employeeId === null
    ? await serviceSlotRows(db, [f.serviceTypeId, f.startFrom, f.startBefore])
    : await employeeSlotRows(db, [f.serviceTypeId, f.startFrom, f.startBefore, f.companyId, f.employeeId]);
  return collect(rows, f.serviceTypeId);
}

/** The look-back of a range query: no stored appointment is longer than this. */
export function startBound(rangeStart: string, longestMinutes: number): string {
  return new Date(Date.parse(rangeStart) - Math.max(0, longestMinutes) * 60_000).toISOString();
}
