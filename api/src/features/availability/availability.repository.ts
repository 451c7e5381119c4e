// The reads availability is computed from (the company's booking settings, a bookable service, one
// staff member, and the appointments that can overlap a time range), each one bounded query.
import { sql, type Kysely, type Transaction } from 'kysely';
import { STAFF_ROLES, type Database } from '@bookwell/db';
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

export async function findBookingCompany(db: Db, companyId: number): Promise<BookingCompany | undefined> {
  return db.selectFrom('companies').select(COMPANY_COLUMNS).where('companies.id', '=', companyId).executeTakeFirst();
}

/**
 * The company and, when it is one of its active (not archived) services, the service, in one query:
 * the hot path of the availability endpoints.
 */
export async function findCompanyWithService(db: Db, companyId: number, serviceTypeId: number): Promise<{ company: BookingCompany; service: BookableService | null } | undefined> {
  const row = await db.selectFrom('companies')
    .leftJoin('service_types as st', (j) => j
      .on('st.id', '=', serviceTypeId)
      .onRef('st.company_id', '=', 'companies.id')
      .on('st.archived_at', 'is', null))
    .select(COMPANY_COLUMNS)
    .select(['st.id as service_id', 'st.name as service_name', 'st.duration_minutes', 'st.available_slots'])
    .where('companies.id', '=', companyId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { service_id, service_name, duration_minutes, available_slots, ...company } = row;
  return {
    company,
    service: service_id === null ? null : { id: service_id, name: service_name!, duration_minutes: duration_minutes!, available_slots: available_slots! },
  };
}

/** A current (not archived) staff member of the company, with the name bookings show. */
export async function findCompanyStaffMember(db: Db, companyId: number, userId: number): Promise<{ id: number; name: string } | undefined> {
  return db.selectFrom('users').select(['id', 'name'])
    .where('id', '=', userId).where('company_id', '=', companyId)
    .where('role', 'in', STAFF_ROLES).where('archived_at', 'is', null)
    .executeTakeFirst();
}

export interface BusyFilter {
  companyId: number;
  /** Inclusive lower bound on start_time: the range start minus the company's longest appointment. */
  startFrom: string;
  /** Exclusive upper bound on start_time: the range end. */
  startBefore: string;
  /** Only appointments that include this service or belong to `employeeId` matter (slot reads). */
  serviceTypeId?: number;
  employeeId?: number | null;
}

/**
 * Booked appointments whose start lies in [startFrom, startBefore), one row per (appointment, service).
 * Both ends are bounded so the (company_id, start_time) index reads only the requested day(s), never
 * the whole table. Exported as a builder so the query-plan test explains exactly this query.
 */
export function busyAppointmentsQuery(db: Db, f: BusyFilter) {
  let q = db.selectFrom('appointments as a')
    .leftJoin('appointment_service_types as ast', 'ast.appointment_id', 'a.id')
    .select(['a.id', 'a.start_time', 'a.end_time', 'a.employee_id', 'ast.service_type_id'])
    .where('a.company_id', '=', f.companyId)
    .where('a.start_time', '>=', f.startFrom)
    .where('a.start_time', '<', f.startBefore)
    .where('a.status', '=', 'booked');
  if (f.serviceTypeId !== undefined) {
    const serviceTypeId = f.serviceTypeId;
    const employeeId = f.employeeId ?? null;
    // Capacity depends on the appointments of this service; an employee's other appointments only on
    // them. Filtering here keeps the rows to a fraction of a busy day.
    q = q.where((eb) => {
      const hasService = eb.exists(eb.selectFrom('appointment_service_types as x').select(sql.lit(1).as('one'))
        .whereRef('x.appointment_id', '=', 'a.id').where('x.service_type_id', '=', serviceTypeId));
      return employeeId === null ? hasService : eb.or([hasService, eb('a.employee_id', '=', employeeId)]);
    });
  }
  return q;
}

export async function busyAppointments(db: Db, f: BusyFilter): Promise<BusyAppointment[]> {
  const rows = await busyAppointmentsQuery(db, f).execute();
  const byId = new Map<number, BusyAppointment>();
  const out: BusyAppointment[] = [];
  for (const r of rows) {
    let a = byId.get(r.id);
    if (!a) {
      a = { id: r.id, start: r.start_time, end: r.end_time, employeeId: r.employee_id, serviceTypeIds: [] };
      byId.set(r.id, a);
      out.push(a);
    }
    if (r.service_type_id !== null) a.serviceTypeIds.push(r.service_type_id);
  }
  return out;
}

/** The look-back of a range query: no stored appointment is longer than this. */
export function startBound(rangeStart: string, longestMinutes: number): string {
  return new Date(Date.parse(rangeStart) - Math.max(0, longestMinutes) * 60_000).toISOString();
}
