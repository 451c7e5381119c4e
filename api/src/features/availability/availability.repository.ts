// The reads availability is computed from (the company's booking settings, a bookable service, one
// staff member, and the appointments that can overlap a time range), each one bounded query.
import { STAFF_ROLES, arg, prepared, type DbOrTx } from '@bookwell/db';
import type { BusyAppointment, DayHours } from './availability.ts';

export interface BookingCompany {
  id: number;
  name: string;
  email: string | null;
  timezone: string;
  time_increment_minutes: number;
  enable_employee_booking: number;
  subscription_expires_at: string | null;
  longest_appointment_minutes: number;
  /** ISO 3166-1 alpha-2: the region of phone numbers typed without a + (lib/phone.ts). */
  country: string;
  /** Public and customer bookings only (docs/decisions/27-scheduling-rules.md). */
  min_notice_minutes: number;
  booking_window_days: number;
}

export interface BookableService {
  id: number;
  name: string;
  duration_minutes: number;
  available_slots: number;
  /** Held before and after the service time; 0 when absent. */
  buffer_before_minutes?: number;
  buffer_after_minutes?: number;
}

const COMPANY_COLUMNS = [
  'companies.id',
  'companies.name',
  'companies.email',
  'companies.timezone',
  'companies.time_increment_minutes',
  'companies.enable_employee_booking',
  'companies.subscription_expires_at',
  'companies.longest_appointment_minutes',
  'companies.country',
  'companies.min_notice_minutes',
  'companies.booking_window_days',
] as const;

const bookingCompany = prepared<[companyId: number], BookingCompany>((db) =>
  db.selectFrom('companies').select(COMPANY_COLUMNS).where('companies.id', '=', arg(0)),
);

export async function findBookingCompany(db: DbOrTx, companyId: number): Promise<BookingCompany | undefined> {
  return (await bookingCompany(db, [companyId]))[0];
}

const companyWithService = prepared<
  [companyId: number, serviceTypeId: number],
  BookingCompany & {
    service_id: number | null;
    service_name: string | null;
    duration_minutes: number | null;
    available_slots: number | null;
    buffer_before_minutes: number | null;
    buffer_after_minutes: number | null;
  }
>((db) =>
  db
    .selectFrom('companies')
    .leftJoin('service_types as st', (j) =>
      j.on('st.id', '=', arg(1)).onRef('st.company_id', '=', 'companies.id').on('st.archived_at', 'is', null),
    )
    .select(COMPANY_COLUMNS)
    .select([
      'st.id as service_id',
      'st.name as service_name',
      'st.duration_minutes',
      'st.available_slots',
      'st.buffer_before_minutes',
      'st.buffer_after_minutes',
    ])
    .where('companies.id', '=', arg(0)),
);

/**
 * The company and, when it is one of its active (not archived) services, the service, in one query:
 * the hot path of the availability endpoints.
 */
export async function findCompanyWithService(
  db: DbOrTx,
  companyId: number,
  serviceTypeId: number,
): Promise<{ company: BookingCompany; service: BookableService | null } | undefined> {
  const [row] = await companyWithService(db, [companyId, serviceTypeId]);
  if (!row) return undefined;
  const { service_id, service_name, duration_minutes, available_slots, buffer_before_minutes, buffer_after_minutes, ...company } = row;
  return {
    company,
    service:
      service_id === null
        ? null
        : {
            id: service_id,
            name: service_name!,
            duration_minutes: duration_minutes!,
            available_slots: available_slots!,
            buffer_before_minutes: buffer_before_minutes ?? 0,
            buffer_after_minutes: buffer_after_minutes ?? 0,
          },
  };
}

/** A current (not archived) staff member of the company, with the name bookings show. */
const staffMember = prepared<[companyId: number, userId: number], { id: number; name: string }>((db) =>
  db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('id', '=', arg(1))
    .where('company_id', '=', arg(0))
    .where('role', 'in', STAFF_ROLES)
    .where('archived_at', 'is', null),
);

export async function findCompanyStaffMember(
  db: DbOrTx,
  companyId: number,
  userId: number,
): Promise<{ id: number; name: string } | undefined> {
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
export function busyAppointmentsQuery(db: DbOrTx, f: BusyFilter) {
  return db
    .selectFrom('appointments as a')
    .leftJoin('appointment_service_types as ast', 'ast.appointment_id', 'a.id')
    .select(['a.id', 'a.start_time', 'a.end_time', 'a.employee_id', 'ast.service_type_id'])
    .where('a.company_id', '=', f.companyId)
    .where('a.start_time', '>=', f.startFrom)
    .where('a.start_time', '<', f.startBefore)
    .where('a.status', '=', 'booked');
}

export interface SlotFilter extends BusyFilter {
  serviceTypeId: number;
  employeeId: number | null;
}

/**
 * One service's booked times in a range, answered from service_bookings' covering
 * (service_type_id, start_time, ...) index alone, bounded at both ends. With `withIds` each row also
 * names its appointment, so an employee's own appointments read separately are not counted twice.
 * A busy day of the whole company is never read, which keeps a 30-day window to a few hundred entries.
 */
export function serviceBookingsQuery(db: DbOrTx, f: Omit<SlotFilter, 'companyId' | 'employeeId'>, withIds: boolean) {
  const q = db
    .selectFrom('service_bookings as s')
    .where('s.service_type_id', '=', f.serviceTypeId)
    .where('s.start_time', '>=', f.startFrom)
    .where('s.start_time', '<', f.startBefore)
    .where('s.status', '=', 'booked');
  // Fewer columns is most of the cost of a 30-day read: each timestamp is a string to build.
  return withIds ? q.select(['s.appointment_id as id', 's.start_time', 's.end_time']) : q.select(['s.start_time', 's.end_time']);
}

/** One employee's booked appointments in a range, one row per service, by (employee_id, start_time) bounded at both ends. */
export function employeeAppointmentsQuery(db: DbOrTx, f: Omit<SlotFilter, 'serviceTypeId'> & { employeeId: number }) {
  return db
    .selectFrom('appointments as a')
    .leftJoin('appointment_service_types as x', 'x.appointment_id', 'a.id')
    .select(['a.id', 'a.start_time', 'a.end_time', 'x.service_type_id'])
    .where('a.employee_id', '=', f.employeeId)
    .where('a.company_id', '=', f.companyId)
    .where('a.start_time', '>=', f.startFrom)
    .where('a.start_time', '<', f.startBefore)
    .where('a.status', '=', 'booked');
}

interface BusyRow {
  id: number;
  start_time: string;
  end_time: string;
  employee_id: number | null;
  service_type_id: number | null;
}

/** Rows (one per appointment and service) into appointments. */
function collect(rows: BusyRow[]): BusyAppointment[] {
  const byId = new Map<number, BusyAppointment>();
  const out: BusyAppointment[] = [];
  for (const r of rows) {
    let a = byId.get(r.id);
    if (!a) {
      a = { id: r.id, start: r.start_time, end: r.end_time, employeeId: r.employee_id ?? null, serviceTypeIds: [] };
      byId.set(r.id, a);
      out.push(a);
    }
    if (r.service_type_id != null && !a.serviceTypeIds.includes(r.service_type_id)) a.serviceTypeIds.push(r.service_type_id);
  }
  return out;
}

type BusyArgs = [companyId: number, startFrom: string, startBefore: string];
const busyRows = prepared<BusyArgs, BusyRow>((db) =>
  busyAppointmentsQuery(db, { companyId: arg(0), startFrom: arg(1), startBefore: arg(2) }),
);

export async function busyAppointments(db: DbOrTx, f: BusyFilter): Promise<BusyAppointment[]> {
  return collect(await busyRows(db, [f.companyId, f.startFrom, f.startBefore]));
}

type ServiceArgs = [serviceTypeId: number, startFrom: string, startBefore: string];
const serviceTimes = prepared<ServiceArgs, { start_time: string; end_time: string }>((db) =>
  serviceBookingsQuery(db, { serviceTypeId: arg(0), startFrom: arg(1), startBefore: arg(2) }, false),
);
const serviceTimesWithIds = prepared<ServiceArgs, { id: number; start_time: string; end_time: string }>((db) =>
  serviceBookingsQuery(db, { serviceTypeId: arg(0), startFrom: arg(1), startBefore: arg(2) }, true),
);
const employeeRows = prepared<
  [employeeId: number, companyId: number, startFrom: string, startBefore: string],
  Omit<BusyRow, 'employee_id'>
>((db) => employeeAppointmentsQuery(db, { employeeId: arg(0), companyId: arg(1), startFrom: arg(2), startBefore: arg(3) }));

/**
 * What the slots of one service (and optionally one employee) depend on: the service's bookings
 * (capacity) and the employee's own appointments (never double-booked), two bounded index ranges.
 */
export async function slotAppointments(db: DbOrTx, f: SlotFilter): Promise<BusyAppointment[]> {
  const range: ServiceArgs = [f.serviceTypeId, f.startFrom, f.startBefore];
  if (f.employeeId === null) {
    const rows = await serviceTimes(db, range);
    return rows.map((r) => ({ start: r.start_time, end: r.end_time, employeeId: null, serviceTypeIds: [f.serviceTypeId] }));
  }
  const employeeId = f.employeeId;
  const own = collect(
    (await employeeRows(db, [employeeId, f.companyId, f.startFrom, f.startBefore])).map((r) => ({ ...r, employee_id: employeeId })),
  );
  const ownIds = new Set(own.map((a) => a.id));
  const out = own;
  for (const r of await serviceTimesWithIds(db, range)) {
    // The employee's own appointments of this service are already in, with all their services.
    if (!ownIds.has(r.id))
      out.push({ id: r.id, start: r.start_time, end: r.end_time, employeeId: null, serviceTypeIds: [f.serviceTypeId] });
  }
  return out;
}

// How many booked appointments of a service overlap [start, end): an upper bound of how many run at
// once there, answered from the covering index without building rows.
const overlapping = prepared<[serviceTypeId: number, startFrom: string, start: string, end: string], { n: number | string }>((db) =>
  db
    .selectFrom('service_bookings as s')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('s.service_type_id', '=', arg(0))
    .where('s.start_time', '>=', arg(1))
    .where('s.start_time', '<', arg(3))
    .where('s.end_time', '>', arg(2))
    .where('s.status', '=', 'booked'),
);

/**
 * What a new booking of [start, end) must be checked against, read inside its transaction: every
 * appointment of its employee that can overlap (with all their services), and, for each service,
 * the bookings that can overlap, but only when there are at least as many as its capacity (fewer
 * can never fill it, so the check needs none of them). Same answers as reading the company's whole
 * range, for a fraction of the rows on a busy day.
 */
export async function bookingNeighbours(
  db: DbOrTx,
  b: {
    companyId: number;
    employeeId: number | null;
    services: { id: number; available_slots: number }[];
    start: string;
    end: string;
    longestMinutes: number;
  },
): Promise<BusyAppointment[]> {
  const from = startBound(b.start, b.longestMinutes);
  const out =
    b.employeeId === null
      ? []
      : collect((await employeeRows(db, [b.employeeId, b.companyId, from, b.end])).map((r) => ({ ...r, employee_id: b.employeeId })));
  const own = new Set(out.map((a) => a.id));
  for (const s of b.services) {
    const [{ n }] = await overlapping(db, [s.id, from, b.start, b.end]);
    if (Number(n) < s.available_slots) continue;
    for (const r of await serviceTimesWithIds(db, [s.id, from, b.end])) {
      if (!own.has(r.id)) out.push({ id: r.id, start: r.start_time, end: r.end_time, employeeId: null, serviceTypeIds: [s.id] });
    }
  }
  return out;
}

/** The look-back of a range query: no stored appointment is longer than this. */
export function startBound(rangeStart: string, longestMinutes: number): string {
  return new Date(Date.parse(rangeStart) - Math.max(0, longestMinutes) * 60_000).toISOString();
}

// ---------------------------------------------------------------------------
// The scheduling rules of docs/decisions/27-scheduling-rules.md: hours with breaks, date overrides,
// buffers and who performs a service.

/** The widest buffer a service may have (0 to 240 minutes): range reads reach this much further both ways. */
export const MAX_BUFFER_MINUTES = 240;

/** One local date's hours: the company's intervals and, when the person has their own, theirs (undefined: the company's). */
export interface DaySchedule {
  company: DayHours[];
  employee: DayHours[] | undefined;
}

interface HoursRow {
  user_id: number | null;
  day_of_week: number;
  open_time: string | null;
  close_time: string | null;
  is_closed: number;
}

interface OverrideRow {
  user_id: number | null;
  date: string;
  is_closed: number;
  intervals: string | null;
}

const companyHoursRows = prepared<[companyId: number], HoursRow>((db) =>
  db
    .selectFrom('operating_hours')
    .select(['user_id', 'day_of_week', 'open_time', 'close_time', 'is_closed'])
    .where('company_id', '=', arg(0))
    .where('user_id', 'is', null),
);
const peopleHoursRows = prepared<[companyId: number], HoursRow>((db) =>
  db
    .selectFrom('operating_hours')
    .select(['user_id', 'day_of_week', 'open_time', 'close_time', 'is_closed'])
    .where('company_id', '=', arg(0))
    .where('user_id', 'is not', null),
);
const overrideRows = prepared<[companyId: number, from: string, to: string], OverrideRow>((db) =>
  db
    .selectFrom('date_overrides')
    .select(['user_id', 'date', 'is_closed', 'intervals'])
    .where('company_id', '=', arg(0))
    .where('date', '>=', arg(1))
    .where('date', '<=', arg(2))
    .orderBy('id'),
);

function rowInterval(open: string | null, close: string | null): DayHours | null {
  if (!open || !close) return null;
  // The stored close '00:00:00' means the end of the day.
  return { open, close: close === '00:00:00' ? '24:00:00' : close };
}

function weekIntervals(rows: HoursRow[]): DayHours[][] {
  const week: DayHours[][] = [[], [], [], [], [], [], [], []];
  for (const r of rows) {
    if (r.is_closed === 1 || r.day_of_week < 1 || r.day_of_week > 7) continue;
    const iv = rowInterval(r.open_time, r.close_time);
    if (iv) week[r.day_of_week].push(iv);
  }
  return week;
}

function overrideIntervals(row: OverrideRow): DayHours[] {
  if (row.is_closed === 1 || !row.intervals) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.intervals);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const out: DayHours[] = [];
  for (const p of parsed as { open_time?: unknown; close_time?: unknown }[]) {
    if (typeof p?.open_time !== 'string' || typeof p?.close_time !== 'string') continue;
    const iv = rowInterval(p.open_time, p.close_time);
    if (iv) out.push(iv);
  }
  return out;
}

/**
 * Everyone's hours over local dates `from`..`to` (two reads and one for the overrides): the company's
 * weekday intervals replaced by its override of a date (closed: none), each person's weekday intervals
 * (if they have any rows) replaced by their override (time off). `forDate(date, weekday, userId)`
 * answers one date for the company and, with a user id, that person.
 */
export async function loadSchedules(db: DbOrTx, companyId: number, from: string, to: string, withPeople: boolean) {
  const [companyRows, peopleRows, overrides] = await Promise.all([
    companyHoursRows(db, [companyId]),
    withPeople ? peopleHoursRows(db, [companyId]) : Promise.resolve([] as HoursRow[]),
    overrideRows(db, [companyId, from, to]),
  ]);
  const companyWeek = weekIntervals(companyRows);
  const byPerson = new Map<number, HoursRow[]>();
  for (const r of peopleRows) {
    const list = byPerson.get(r.user_id!) ?? [];
    list.push(r);
    byPerson.set(r.user_id!, list);
  }
  const personWeeks = new Map<number, DayHours[][]>();
  for (const [id, rows] of byPerson) personWeeks.set(id, weekIntervals(rows));
  // The latest override of an owner and date wins (the API keeps one per owner and date).
  const companyOverrides = new Map<string, DayHours[]>();
  const personOverrides = new Map<string, DayHours[]>();
  for (const o of overrides) {
    if (o.user_id === null) companyOverrides.set(o.date, overrideIntervals(o));
    else personOverrides.set(`${o.user_id}|${o.date}`, overrideIntervals(o));
  }
  return {
    forDate(date: string, weekday: number, userId: number | null): DaySchedule {
      const company = companyOverrides.get(date) ?? companyWeek[weekday];
      if (userId === null) return { company, employee: undefined };
      const own = personOverrides.get(`${userId}|${date}`);
      if (own) return { company, employee: own };
      const week = personWeeks.get(userId);
      return { company, employee: week ? week[weekday] : undefined };
    },
  };
}

export type Schedules = Awaited<ReturnType<typeof loadSchedules>>;

const bufferRows = prepared<[companyId: number], { id: number; buffer_before_minutes: number; buffer_after_minutes: number }>((db) =>
  db
    .selectFrom('service_types')
    .select(['id', 'buffer_before_minutes', 'buffer_after_minutes'])
    .where('company_id', '=', arg(0))
    .where((eb) => eb.or([eb('buffer_before_minutes', '>', 0), eb('buffer_after_minutes', '>', 0)])),
);

/** The company's services that have buffers (archived ones too: their old appointments still hold them). */
export async function serviceBuffers(db: DbOrTx, companyId: number): Promise<Map<number, { before: number; after: number }>> {
  const map = new Map<number, { before: number; after: number }>();
  for (const r of await bufferRows(db, [companyId])) map.set(r.id, { before: r.buffer_before_minutes, after: r.buffer_after_minutes });
  return map;
}

/** Gives each appointment the hold of its services: the largest buffer before and after among them. */
export function withBuffers(appointments: BusyAppointment[], buffers: Map<number, { before: number; after: number }>): BusyAppointment[] {
  if (buffers.size === 0) return appointments;
  for (const a of appointments) {
    let before = 0;
    let after = 0;
    for (const id of a.serviceTypeIds) {
      const b = buffers.get(id);
      if (b) {
        before = Math.max(before, b.before);
        after = Math.max(after, b.after);
      }
    }
    a.bufferBeforeMinutes = before;
    a.bufferAfterMinutes = after;
  }
  return appointments;
}

// Who performs a service: its assigned staff, or every current staff member when it has none.
const qualifiedRows = prepared<[companyId: number, serviceTypeId: number], { id: number }>((db) =>
  db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', arg(0))
    .where('role', 'in', STAFF_ROLES)
    .where('archived_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.not(eb.exists(eb.selectFrom('service_employees as se').select('se.user_id').where('se.service_type_id', '=', arg(1)))),
        eb('id', 'in', eb.selectFrom('service_employees as se2').select('se2.user_id').where('se2.service_type_id', '=', arg(1))),
      ]),
    )
    .orderBy('id'),
);

/** The current staff who perform the service (ids ascending): those assigned to it, or everyone when nobody is. */
export async function qualifiedStaff(db: DbOrTx, companyId: number, serviceTypeId: number): Promise<number[]> {
  return (await qualifiedRows(db, [companyId, serviceTypeId])).map((r) => r.id);
}

const dayCountRows = prepared<[companyId: number, from: string, to: string], { employee_id: number | null; n: number | string }>((db) =>
  db
    .selectFrom('appointments')
    .select(['employee_id', (eb) => eb.fn.countAll().as('n')])
    .where('company_id', '=', arg(0))
    .where('start_time', '>=', arg(1))
    .where('start_time', '<', arg(2))
    .where('status', '=', 'booked')
    .where('employee_id', 'is not', null)
    .groupBy('employee_id'),
);

/** Booked appointments per employee starting in [from, to) (a local day): who is least busy. */
export async function employeeDayCounts(db: DbOrTx, companyId: number, from: string, to: string): Promise<Map<number, number>> {
  const map = new Map<number, number>();
  for (const r of await dayCountRows(db, [companyId, from, to])) if (r.employee_id !== null) map.set(r.employee_id, Number(r.n));
  return map;
}
