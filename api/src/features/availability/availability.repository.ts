// The reads availability is computed from (the company's booking settings, a bookable service, one
// staff member, and the appointments that can overlap a time range), each one bounded query.
import { PostgresAdapter, sql, type CompiledQuery, type ExpressionBuilder, type Kysely, type ReferenceExpression } from 'kysely';
import {
  STAFF_ROLES,
  arg,
  byPlace,
  columnsOf,
  perRound,
  prepared,
  readTogether,
  type Database,
  type DbOrTx,
  type ManyArgs,
} from '@bookwell/db';
import { startMsOf, type BusyAppointment, type DayHours } from './availability.ts';
import type { Remember } from '../../lib/settings-memo.ts';
import { cacheKey } from '../../lib/cache-key.ts';
import { CANONICAL_INSTANT_LENGTH, byteDigit, canonicalInstantIn, formatInstant, parseInstant } from '../../lib/zoned-time.ts';

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
  /** Self-service changes end this many hours before the start (docs/decisions/23-self-service.md); the emails say so. */
  cancellation_notice_hours: number;
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
  'companies.cancellation_notice_hours',
] as const;

const bookingCompany = prepared<[companyId: number], BookingCompany>((db) =>
  db.selectFrom('companies').select(COMPANY_COLUMNS).where('companies.id', '=', arg(0)),
);

export async function findBookingCompany(db: DbOrTx, companyId: number): Promise<BookingCompany | undefined> {
  return (await bookingCompany(db, [companyId]))[0];
}

/**
 * The company of an appointment, by the appointment's id: to read with the appointment's row
 * (readTogether), with its notice hours, which a customer's own change keeps.
 */
export const bookingCompanyOfAppointment = prepared<[appointmentId: number], BookingCompany>((db) =>
  db
    .selectFrom('companies')
    .select(COMPANY_COLUMNS)
    .where('companies.id', '=', (eb) =>
      eb.selectFrom('appointments').select('appointments.company_id').where('appointments.id', '=', arg(0)),
    ),
);

// Reads shared by a round (perRound) are keyed by their question's values joined by '|' (ids, ISO
// instants and nulls, none of which holds one), on PostgreSQL only: SQLite reads each question
// alone, with its values as they are. The round's questions go to PostgreSQL as one array per value,
// unnested with ordinality into a derived table k, and each answer row carries its question's place.
const keyOf = (question: readonly (number | string | null)[]) => question.join('|');
/** Each answer row under its question's key (k.i counts from 1). */
const byQuestion = <R extends { i: number | string }>(questions: readonly (readonly (number | string | null)[])[], rows: R[]) =>
  byPlace(questions, rows, keyOf);
/** A question's own value, as a single statement's parameter would be (a correlated reference into k). */
const questionRef = <T>(column: string) => sql.ref(`k.${column}`) as unknown as T;

/** The columns of a left-joined service (null when it is not one of the company's active services). */
interface JoinedService {
  service_id: number | null;
  service_name: string | null;
  duration_minutes: number | null;
  available_slots: number | null;
  buffer_before_minutes: number | null;
  buffer_after_minutes: number | null;
}

/** The company (argument 0, or another value) with its active service (argument 1, or another) left-joined. */
const companyWithServiceQuery = (db: Kysely<Database>, companyId: number = arg(0), serviceTypeId: number = arg(1)) =>
  db
    .selectFrom('companies')
    .leftJoin('service_types as st', (j) =>
      j.on('st.id', '=', serviceTypeId).onRef('st.company_id', '=', 'companies.id').on('st.archived_at', 'is', null),
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
    .where('companies.id', '=', companyId);

/** Splits a row of companyWithServiceQuery (and what else it selected) into its company, its service and the rest. */
function splitCompanyAndService<R extends BookingCompany & JoinedService>(row: R) {
  const { service_id, service_name, duration_minutes, available_slots, buffer_before_minutes, buffer_after_minutes, ...rest } = row;
  const service: BookableService | null =
    service_id === null
      ? null
      : {
          id: service_id,
          name: service_name!,
          duration_minutes: duration_minutes!,
          available_slots: available_slots!,
          buffer_before_minutes: buffer_before_minutes ?? 0,
          buffer_after_minutes: buffer_after_minutes ?? 0,
        };
  return { rest, service };
}

const companyWithService = prepared<[companyId: number, serviceTypeId: number], BookingCompany & JoinedService>(companyWithServiceQuery);

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
  const { rest: company, service } = splitCompanyAndService(row);
  return { company, service };
}

/**
 * Who performs a service (docs/decisions/27-scheduling-rules.md), as a condition on a user id: nobody
 * is assigned to the service, or that user is. The one home of the rule for every read that applies it.
 */
function performsRule<DB extends Database, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  userId: ReferenceExpression<DB, TB>,
  serviceTypeId: number,
) {
  const assigned = (alias: 'se' | 'se2') =>
    (eb as unknown as ExpressionBuilder<Database, never>)
      .selectFrom(`service_employees as ${alias}`)
      .select(`${alias}.user_id`)
      .where(`${alias}.service_type_id`, '=', serviceTypeId);
  return eb.or([eb.not(eb.exists(assigned('se'))), eb(userId, 'in', assigned('se2'))]);
}

type OpeningArgs = [companyId: number, serviceTypeId: number, employeeId: number | null];
type OpeningRow = BookingCompany & JoinedService & { staff_id: number | null; staff_name: string | null; performs: boolean | number };

/** A booking's opening read (findBookingOpening) for the given values: arguments, or a shared read's question. */
const bookingOpeningQuery = (db: Kysely<Database>, companyId: number, serviceTypeId: number, employeeId: number | null) =>
  companyWithServiceQuery(db, companyId, serviceTypeId)
    .leftJoin('users as u', (j) =>
      j
        .on('u.id', '=', employeeId)
        .onRef('u.company_id', '=', 'companies.id')
        .on('u.role', 'in', STAFF_ROLES)
        .on('u.archived_at', 'is', null),
    )
    .select(['u.id as staff_id', 'u.name as staff_name'])
    // performsService's answer for this one pair.
    .select((eb) => performsRule(eb, 'u.id', serviceTypeId).as('performs'));

const bookingOpening = prepared<OpeningArgs, OpeningRow>((db) => bookingOpeningQuery(db, arg(0), arg(1), arg(2)));

/**
 * Many bookings' opening reads in one statement on PostgreSQL: each question (k, its place k.i) with
 * its own opening read joined laterally, the same index lookups as one read alone.
 */
function manyBookingOpeningsQuery(
  db: Kysely<Database>,
  keys: { companyIds: number[]; serviceTypeIds: number[]; employeeIds: (number | null)[] },
) {
  const questions = sql<{
    co: number;
    svc: number;
    emp: number | null;
    i: number;
  }>`(select * from unnest(${keys.companyIds}::int4[], ${keys.serviceTypeIds}::int4[], ${keys.employeeIds}::int4[]) with ordinality as q(co, svc, emp, i))`;
  return db
    .selectFrom(questions.as('k'))
    .innerJoinLateral(
      bookingOpeningQuery(db, questionRef<number>('co'), questionRef<number>('svc'), questionRef<number | null>('emp')).as('o'),
      (j) => j.onTrue(),
    )
    .select('k.i')
    .selectAll('o');
}
const bookingOpenings = prepared<ManyArgs<OpeningArgs>, OpeningRow & { i: number | string }>((db) =>
  manyBookingOpeningsQuery(db, { companyIds: arg(0), serviceTypeIds: arg(1), employeeIds: arg(2) }),
);

/**
 * Bookings' opening reads of one round of events share a statement on PostgreSQL (db/src/round-batch.ts),
 * as their callers' reads and their Idempotency-Keys' do: a round trip of its own cost the server more
 * CPU than the read (docs/decisions/39-booking-opening-read.md, "Session 39").
 */
const sharedBookingOpening = perRound<OpeningArgs, OpeningRow, string>(
  async (db, questions) =>
    // Without the question's place: the rest of the row is the company findBookingOpening answers.
    new Map([...byQuestion(questions, await bookingOpenings(db, columnsOf(questions)))].map(([key, { i: _place, ...row }]) => [key, row])),
  async (db, question) => (await bookingOpening(db, question))[0],
  keyOf,
);

/** What a booking of one service (and perhaps one employee) checks before its transaction. */
export interface BookingOpening {
  company: BookingCompany;
  serviceId: number;
  /** The service when it is one of the company's active ones. */
  service: BookableService | null;
  employeeId: number | null;
  /** The employee when a current staff member of the company. */
  staffMember: { id: number; name: string } | null;
  /** Whether the employee performs the service (performsService); meaningless without both. */
  performs: boolean;
}

/**
 * The company, the service and the employee a booking names, and whether that employee performs that
 * service, in one statement: what findBookingCompany, findActiveServiceTypes, findCompanyStaffMember
 * and performsService would answer in four (docs/decisions/39-booking-opening-read.md).
 */
export async function findBookingOpening(
  db: DbOrTx,
  companyId: number,
  serviceTypeId: number,
  employeeId: number | null,
): Promise<BookingOpening | undefined> {
  const row = await sharedBookingOpening(db, [companyId, serviceTypeId, employeeId]);
  if (!row) return undefined;
  const {
    rest: { staff_id, staff_name, performs, ...company },
    service,
  } = splitCompanyAndService(row);
  return {
    company,
    serviceId: serviceTypeId,
    service,
    employeeId,
    staffMember: staff_id === null ? null : { id: staff_id, name: staff_name! },
    // SQLite answers 0 or 1.
    performs: Boolean(performs),
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
 * Every booked appointment of the company whose start lies in [startFrom, startBefore), each with its
 * services (the row's copy, migration 059). Both ends are bounded so the (company_id, start_time)
 * index reads only the requested stretch, never the whole table. The write transactions use it: they
 * need every neighbour, whatever its service or employee. Exported as a builder for the query-plan test.
 */
export function busyAppointmentsQuery(db: DbOrTx, f: BusyFilter) {
  return db
    .selectFrom('appointments as a')
    .select(['a.id', 'a.start_time', 'a.end_time', 'a.employee_id', 'a.service_ids'])
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

/**
 * One employee's booked appointments in a range with their services, by (employee_id, start_time)
 * bounded at both ends, from the index alone: it carries the services' copy (migration 059), which
 * spares a lookup of the link table per appointment.
 */
export function employeeAppointmentsQuery(db: DbOrTx, f: Omit<SlotFilter, 'serviceTypeId'> & { employeeId: number }) {
  return db
    .selectFrom('appointments as a')
    .select(['a.id', 'a.start_time', 'a.end_time', 'a.service_ids'])
    .where('a.employee_id', '=', f.employeeId)
    .where('a.company_id', '=', f.companyId)
    .where('a.start_time', '>=', f.startFrom)
    .where('a.start_time', '<', f.startBefore)
    .where('a.status', '=', 'booked');
}

/**
 * An appointment as read: its times as epoch ms, parsed once, and every field withBuffers sets
 * already made (an object given a property later grows a second store). Its times as text are made
 * only when asked: the availability engine works in ms, and a 30-day read would otherwise keep two
 * strings a row alive for nothing.
 */
class ReadAppointment implements BusyAppointment {
  bufferBeforeMinutes = 0;
  bufferAfterMinutes = 0;
  constructor(
    readonly id: number,
    readonly startMs: number,
    readonly endMs: number,
    readonly employeeId: number | null,
    readonly serviceTypeIds: number[],
  ) {}

  get start(): string {
    return formatInstant(this.startMs);
  }

  get end(): string {
    return formatInstant(this.endMs);
  }
}

/**
 * What "any employee" slots of one service depend on, in one read bounded at both ends by the
 * (company_id, start_time) index: the booked appointments of the staff who perform the service (any
 * of them may be given the booking) and every booking of the service (its capacity), each with all
 * its services. The rest of the company's day (other staff's other services) is never turned into
 * rows. Exported as a builder for the query-plan test.
 */
export function qualifiedAppointmentsQuery(db: DbOrTx, f: Omit<SlotFilter, 'employeeId'>) {
  return busyAppointmentsQuery(db, f).where((eb) =>
    eb.or([
      // Has the service: its id between commas in the row's copy (migration 059), no link read.
      eb(sql<string>`',' || a.service_ids || ','`, 'like', sql<string>`'%,' || cast(${f.serviceTypeId} as text) || ',%'`),
      eb(
        'a.employee_id',
        'in',
        eb.selectFrom('service_employees as se').select('se.user_id').where('se.service_type_id', '=', f.serviceTypeId),
      ),
      eb.not(eb.exists(eb.selectFrom('service_employees as se2').select('se2.user_id').where('se2.service_type_id', '=', f.serviceTypeId))),
    ]),
  );
}

// ---------------------------------------------------------------------------
// The company-stretch reads on PostgreSQL: the same statements as rows (the packed form is SQLite's).
// They read no link: the prepared statements run with PostgreSQL's generic plan, made without the
// parameters' values, and for a join to the link table (and a "has this service" EXISTS into it)
// that plan hash-joined the whole link table and hashed every booking of the service ever made:
// 11.7 ms for one day of 274 appointments among 100,000, against 0.6 ms with a lateral read of the
// link table's key, before the copy (query-plan.test.ts checks the generic plan).

interface PgBusyRow {
  id: number;
  start_time: string;
  end_time: string;
  employee_id: number | null;
  service_ids: string | null;
}

function fromPgRows(rows: PgBusyRow[]): BusyAppointment[] {
  return rows.map(
    (r) => new ReadAppointment(r.id, parseInstant(r.start_time), parseInstant(r.end_time), r.employee_id, idsOfCopy(r.service_ids)),
  );
}

/** A services' copy (migration 059) read as text: its ids. */
export function idsOfCopy(copy: string | null): number[] {
  if (!copy) return [];
  const ids = copy.split(',').map(Number);
  for (const id of ids)
    if (!Number.isInteger(id) || id <= 0) throw new Error(`An appointment's services copy is not a list of ids: ${copy}`);
  return ids;
}

// ---------------------------------------------------------------------------
// Packed reads (SQLite). better-sqlite3 spends about 2 µs turning each result row into a JS object,
// which for the hundreds of rows of a 30-day window is most of a request; the same rows folded into
// one value by group_concat cost a few µs in all, and are split here in one typed scan.
// Each row starts with its two timestamps in the database's one form (db/src/time.ts), 24 characters
// each with nothing between them, read in place at fixed offsets; then its other fields (integers or
// empty), separated by the ASCII unit separator, and rows by the record separator, which no id or
// timestamp contains. Every `||` and `char()` is a string SQLite builds for each row: the separators
// are literals, and the timestamps need none (a 512-row service read 95 -> 66 µs). The value is cast
// to a blob, so it arrives as bytes, read without asking a string how it is stored at every character
// (a timestamp 144 -> 95 ns in a loop; a computed 30-day answer about 5% cheaper in all,
// docs/decisions/27-scheduling-rules.md). A timestamp in any other form fails the
// read rather than being misread. On PostgreSQL the two largest reads are packed too, as binary
// fields (below); the company-stretch reads stay rows there (lateral, above).

/** A packed read: the text form above on SQLite, binary fields on PostgreSQL (below), as bytes either way. */
type Packed = { packed: Buffer | null };
const FIELD = '\x1f';
const ROW = '\x1e';
const FIELD_BYTE = FIELD.charCodeAt(0);
const ROW_BYTE = ROW.charCodeAt(0);

function isPostgres(db: DbOrTx): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Packed bytes read field by field in place: no string or array per row or field. */
class PackedRows {
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  /** The row's next timestamp (see above) as epoch ms. */
  instant(): number {
    const at = this.at;
    const ms = canonicalInstantIn(this.bytes, at);
    this.at = at + CANONICAL_INSTANT_LENGTH;
    if (!Number.isFinite(ms))
      throw new Error(
        `Packed row holds a timestamp not in the database's form: ${JSON.stringify(Buffer.from(this.bytes.subarray(at, this.at)).toString('latin1'))}`,
      );
    return ms;
  }

  /** The row's next field, followed by the unit separator: a non-negative integer, or null when empty. */
  field(): number | null {
    return this.integerUntil(FIELD_BYTE, false);
  }

  /** The row's last field, followed by the record separator or the end: as field(). */
  last(): number | null {
    return this.integerUntil(ROW_BYTE, true);
  }

  /**
   * The row's last field, the services' copy (migration 059): ids joined by ',' (empty: none), up to
   * the record separator or the end of the bytes (SQLite's last row has none).
   */
  ids(): number[] {
    const b = this.bytes;
    let at = this.at;
    let n = 0;
    let value = -1;
    for (; at < b.length && b[at] !== ROW_BYTE; at++) {
      if (b[at] === COMMA_BYTE) {
        if (value < 0) break;
        idScratch[n++] = value;
        value = -1;
        continue;
      }
      const d = byteDigit(b, at);
      if (Number.isNaN(d)) throw new Error(`Packed row holds a service id that is not a whole number at byte ${at}`);
      value = value < 0 ? d : value * 10 + d;
    }
    if (value < 0 && (n > 0 || (at < b.length && b[at] === COMMA_BYTE)))
      throw new Error(`Packed row holds an empty service id at byte ${at}`);
    this.at = at + 1;
    // Lists of exactly their length: one grown by pushes would keep room for 17 (a 30-day read makes hundreds).
    if (n === 0) return value < 0 ? [] : [value];
    idScratch[n++] = value;
    return idScratch.slice(0, n);
  }

  /** The row's next timestamptz in its binary form (PostgreSQL: pgInstantAt) as epoch ms. */
  pgInstant(): number {
    const ms = pgInstantAt(this.bytes, this.at);
    this.at += 8;
    return ms;
  }

  /** The row's next int4 in its binary form (PostgreSQL). */
  int32(): number {
    const at = this.at;
    this.at = at + 4;
    return readInt32(this.bytes, at);
  }

  /** A field that always holds a number (an id). */
  static required(value: number | null): number {
    if (value === null) throw new Error('Packed row lacks an id');
    return value;
  }

  private integerUntil(separator: number, endMayClose: boolean): number | null {
    const b = this.bytes;
    let at = this.at;
    let value = 0;
    const from = at;
    for (; at < b.length && b[at] !== separator; at++) {
      const d = byteDigit(b, at);
      if (Number.isNaN(d)) throw new Error(`Packed row holds a field that is not a whole number at byte ${at}`);
      value = value * 10 + d;
    }
    if (at >= b.length && !endMayClose) throw new Error('Packed row ended early');
    this.at = at + 1;
    return at === from ? null : value;
  }
}

// ids()'s working list, copied out at its length.
const idScratch: number[] = [];
const COMMA_BYTE = ','.charCodeAt(0);

/**
 * Packed 'start end id employee services' rows, one per appointment, into appointments; `owner` is
 * the employee of rows packed without one.
 */
function appointmentsOf(packed: Uint8Array | null | undefined, owner: number | null = null): BusyAppointment[] {
  const out: BusyAppointment[] = [];
  if (!packed) return out;
  const rows = new PackedRows(packed);
  while (!rows.done) {
    const startMs = rows.instant();
    const endMs = rows.instant();
    const id = PackedRows.required(rows.field());
    const employee = rows.field() ?? owner;
    out.push(new ReadAppointment(id, startMs, endMs, employee, rows.ids()));
  }
  return out;
}

/** Packed 'start end id' rows of one service's bookings into appointments (employee unknown), sharing `serviceTypeIds`. */
function serviceBookingsOf(packed: Uint8Array | null | undefined, serviceTypeIds: number[]): BusyAppointment[] {
  const out: BusyAppointment[] = [];
  if (!packed) return out;
  const rows = new PackedRows(packed);
  while (!rows.done) {
    const startMs = rows.instant();
    const endMs = rows.instant();
    out.push(new ReadAppointment(PackedRows.required(rows.last()), startMs, endMs, null, serviceTypeIds));
  }
  return out;
}

// The same two reads on PostgreSQL, packed as bytes (see PACK_OWN_PG below): each row its start and
// end in timestamptz's binary form, then the int4 appointment id, at fixed offsets; an own row then
// its services' copy as text up to the record separator.
const SERVICE_ROW_BYTES = 20;
/** A big-endian int4 at `at` (PostgreSQL's binary form), from any bytes (PackedRows holds a Uint8Array). */
function readInt32(b: Uint8Array, at: number): number {
  return (b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3];
}

/** 2000-01-01T00:00:00Z in epoch ms: the zero of timestamptz's binary form. */
const PG_EPOCH_MS = 946_684_800_000;

/**
 * Epoch ms of a timestamptz in its binary form at `at` (a big-endian int64 of microseconds since
 * 2000-01-01 UTC), floored to the millisecond as the database's ISO form is. Read as two halves: an
 * exact double up to 2^53 µs, nearly 300 years either side of 2000.
 */
function pgInstantAt(packed: Uint8Array, at: number): number {
  const micros = readInt32(packed, at) * 4_294_967_296 + (readInt32(packed, at + 4) >>> 0);
  return Math.floor(micros / 1000) + PG_EPOCH_MS;
}

/** Packed own rows (start, end, appointment id, services) of `owner`, one per appointment. */
function ownAppointmentsOfBytes(packed: Buffer | null | undefined, owner: number): BusyAppointment[] {
  const out: BusyAppointment[] = [];
  if (!packed) return out;
  const rows = new PackedRows(packed);
  while (!rows.done) {
    const startMs = rows.pgInstant();
    const endMs = rows.pgInstant();
    out.push(new ReadAppointment(rows.int32(), startMs, endMs, owner, rows.ids()));
  }
  return out;
}

/** Packed service rows (start, end, appointment id) into appointments (employee unknown), sharing `serviceTypeIds`. */
function serviceBookingsOfBytes(packed: Buffer | null | undefined, serviceTypeIds: number[]): BusyAppointment[] {
  const out: BusyAppointment[] = [];
  if (!packed) return out;
  for (let at = 0; at + SERVICE_ROW_BYTES <= packed.length; at += SERVICE_ROW_BYTES)
    out.push(new ReadAppointment(packed.readInt32BE(at + 16), pgInstantAt(packed, at), pgInstantAt(packed, at + 8), null, serviceTypeIds));
  return out;
}

// The separators as SQL literals (the characters themselves between quotes).
const F = sql.raw(`'${FIELD}'`);
const R = sql.raw(`'${ROW}'`);
const PACK_BUSY = sql<Buffer | null>`cast(group_concat(a.start_time || a.end_time || a.id || ${F} || ifnull(a.employee_id, '') || ${F} || ifnull(a.service_ids, ''), ${R}) as blob)`;
const PACK_OWN = sql<Buffer | null>`cast(group_concat(a.start_time || a.end_time || a.id || ${F} || ${F} || ifnull(a.service_ids, ''), ${R}) as blob)`;
const PACK_SERVICE = sql<Buffer | null>`cast(group_concat(s.start_time || s.end_time || s.appointment_id, ${R}) as blob)`;

// The same two reads on PostgreSQL, the ones a 30-day answer spends its rows on (the service's
// bookings, each candidate's own appointments): node-postgres builds each row from its wire form at
// a few µs a row (4 ms of server CPU for a 30-day answer's 800 rows), so each read is folded into one
// value. As bytes rather than text: writing 500 rows' timestamps as ISO text with to_char cost
// PostgreSQL 0.9 ms a service read, and as float8 epoch ms 0.27 ms, with no text to parse here
// either. Each timestamp goes as its own binary form (timestamptz_send: no calendar arithmetic),
// which cost PostgreSQL half what date_part's epoch ms did (300 against 600-750 ns a row:
// docs/decisions/27-scheduling-rules.md, "Session 19"); pgInstantAt reads it.
const pgTime = (column: string) => sql.raw(`timestamptz_send(${column})`);
// Each own row ends with its services' copy (migration 059) as text and the record separator.
const PACK_OWN_PG = sql<Buffer | null>`string_agg(${pgTime('a.start_time')} || ${pgTime('a.end_time')} || int4send(a.id) || convert_to(coalesce(a.service_ids, ''), 'UTF8') || decode('1e', 'hex'), ''::bytea order by a.start_time, a.id)`;
const PACK_SERVICE_PG = sql<Buffer | null>`string_agg(${pgTime('s.start_time')} || ${pgTime('s.end_time')} || int4send(s.appointment_id), ''::bytea order by s.start_time)`;

type BusyArgs = [companyId: number, startFrom: string, startBefore: string];
const busyRows = prepared<BusyArgs, PgBusyRow>((db) =>
  busyAppointmentsQuery(db, { companyId: arg(0), startFrom: arg(1), startBefore: arg(2) }),
);
const busyPacked = prepared<BusyArgs, Packed>((db) =>
  busyAppointmentsQuery(db, { companyId: arg(0), startFrom: arg(1), startBefore: arg(2) })
    .clearSelect()
    .select(PACK_BUSY.as('packed')),
);

/**
 * The booked appointments of the company starting in [startFrom, startBefore), as a read to send with
 * others (readTogether: an edit's neighbours with its services' capacities), and how its answer is read.
 */
export function busyAppointmentsRead(db: DbOrTx, f: BusyFilter): { query: CompiledQuery; parse: (rows: unknown[]) => BusyAppointment[] } {
  const args: BusyArgs = [f.companyId, f.startFrom, f.startBefore];
  return isPostgres(db)
    ? { query: busyRows.bound(db, args), parse: (rows) => fromPgRows(rows as PgBusyRow[]) }
    : { query: busyPacked.bound(db, args), parse: (rows) => appointmentsOf((rows as Packed[])[0]?.packed) };
}

type QualifiedArgs = [companyId: number, serviceTypeId: number, startFrom: string, startBefore: string];
const qualifiedRowsInRange = prepared<QualifiedArgs, PgBusyRow>((db) =>
  qualifiedAppointmentsQuery(db, { companyId: arg(0), serviceTypeId: arg(1), startFrom: arg(2), startBefore: arg(3) }),
);
const qualifiedPacked = prepared<QualifiedArgs, Packed>((db) =>
  qualifiedAppointmentsQuery(db, { companyId: arg(0), serviceTypeId: arg(1), startFrom: arg(2), startBefore: arg(3) })
    .clearSelect()
    .select(PACK_BUSY.as('packed')),
);

/** See qualifiedAppointmentsQuery: the appointments "any employee" slots of a service depend on. */
export async function qualifiedAppointments(db: DbOrTx, f: Omit<SlotFilter, 'employeeId'>): Promise<BusyAppointment[]> {
  const args: QualifiedArgs = [f.companyId, f.serviceTypeId, f.startFrom, f.startBefore];
  return isPostgres(db) ? fromPgRows(await qualifiedRowsInRange(db, args)) : appointmentsOf((await qualifiedPacked(db, args))[0]?.packed);
}

type ServiceArgs = [serviceTypeId: number, startFrom: string, startBefore: string];
const serviceTimes = prepared<ServiceArgs, { start_time: string; end_time: string }>((db) =>
  serviceBookingsQuery(db, { serviceTypeId: arg(0), startFrom: arg(1), startBefore: arg(2) }, false),
);
const packService = (db: DbOrTx, f: Omit<SlotFilter, 'companyId' | 'employeeId'>) =>
  serviceBookingsQuery(db, f, true)
    .clearSelect()
    .select((isPostgres(db) ? PACK_SERVICE_PG : PACK_SERVICE).as('packed'));
const serviceTimesPacked = prepared<ServiceArgs, Packed>((db) =>
  packService(db, { serviceTypeId: arg(0), startFrom: arg(1), startBefore: arg(2) }),
);
type EmployeeArgs = [employeeId: number, companyId: number, startFrom: string, startBefore: string];
const packOwn = (db: DbOrTx, f: Omit<SlotFilter, 'serviceTypeId'> & { employeeId: number }) =>
  employeeAppointmentsQuery(db, f)
    .clearSelect()
    .select((isPostgres(db) ? PACK_OWN_PG : PACK_OWN).as('packed'));
const employeePacked = prepared<EmployeeArgs, Packed>((db) =>
  packOwn(db, { employeeId: arg(0), companyId: arg(1), startFrom: arg(2), startBefore: arg(3) }),
);
const ownFrom = (db: DbOrTx, packed: Packed['packed'] | undefined, employeeId: number) =>
  isPostgres(db) ? ownAppointmentsOfBytes(packed, employeeId) : appointmentsOf(packed, employeeId);
const serviceFrom = (db: DbOrTx, packed: Packed['packed'] | undefined, serviceTypeId: number) =>
  isPostgres(db) ? serviceBookingsOfBytes(packed, [serviceTypeId]) : serviceBookingsOf(packed, [serviceTypeId]);

/** One service's bookings starting in a range (with their appointment ids, employee unknown), from the covering index. */
export async function serviceAppointments(db: DbOrTx, f: Omit<SlotFilter, 'companyId' | 'employeeId'>): Promise<BusyAppointment[]> {
  return serviceFrom(db, (await serviceTimesPacked(db, [f.serviceTypeId, f.startFrom, f.startBefore]))[0]?.packed, f.serviceTypeId);
}

/**
 * The service's packed bookings and one employee's packed appointments over one range, as one
 * statement: the two reads a date picker starts with. On PostgreSQL each statement is a round trip,
 * and with two cores shared with the database a round trip costs more than its reads (docs/benchmarks.md, "Session 15").
 */
export function serviceAndEmployeeAppointmentsQuery(db: DbOrTx, f: Omit<SlotFilter, 'employeeId'> & { employeeId: number }) {
  const range = { startFrom: f.startFrom, startBefore: f.startBefore };
  return db.selectNoFrom([
    packService(db, { serviceTypeId: f.serviceTypeId, ...range }).as('service'),
    packOwn(db, { employeeId: f.employeeId, companyId: f.companyId, ...range }).as('own'),
  ]);
}
type ServiceAndOwnArgs = [serviceTypeId: number, employeeId: number, companyId: number, startFrom: string, startBefore: string];
const serviceAndOwnPacked = prepared<ServiceAndOwnArgs, { service: Packed['packed']; own: Packed['packed'] }>((db) =>
  serviceAndEmployeeAppointmentsQuery(db, {
    serviceTypeId: arg(0),
    employeeId: arg(1),
    companyId: arg(2),
    startFrom: arg(3),
    startBefore: arg(4),
  }),
);

/**
 * Many date pickers' first reads in one statement on PostgreSQL: one row per question (k.i, its
 * place in the arrays), each with the two packed reads above correlated to it, so each is the same
 * pair of bounded index ranges whatever the values (query-plan.test.ts checks the plan). Exported as
 * a builder for the query-plan test.
 */
export function manyServiceAndEmployeeAppointmentsQuery(
  db: DbOrTx,
  keys: { serviceTypeIds: number[]; employeeIds: number[]; companyIds: number[]; startFroms: string[]; startBefores: string[] },
) {
  const questions = sql<{
    svc: number;
    emp: number;
    co: number;
    f: string;
    b: string;
    i: number;
  }>`(select * from unnest(${keys.serviceTypeIds}::int4[], ${keys.employeeIds}::int4[], ${keys.companyIds}::int4[], ${keys.startFroms}::timestamptz[], ${keys.startBefores}::timestamptz[]) with ordinality as q(svc, emp, co, f, b, i))`;
  const range = { startFrom: questionRef<string>('f'), startBefore: questionRef<string>('b') };
  return db
    .selectFrom(questions.as('k'))
    .select([
      'k.i',
      packService(db, { serviceTypeId: questionRef<number>('svc'), ...range }).as('service'),
      packOwn(db, { employeeId: questionRef<number>('emp'), companyId: questionRef<number>('co'), ...range }).as('own'),
    ]);
}
const manyServiceAndOwnPacked = prepared<
  ManyArgs<ServiceAndOwnArgs>,
  { i: number | string; service: Packed['packed']; own: Packed['packed'] }
>((db) =>
  manyServiceAndEmployeeAppointmentsQuery(db, {
    serviceTypeIds: arg(0),
    employeeIds: arg(1),
    companyIds: arg(2),
    startFroms: arg(3),
    startBefores: arg(4),
  }),
);

type ServiceAndOwnRow = { service: Packed['packed']; own: Packed['packed'] };

/**
 * The date pickers' first reads of one round of events share a statement on PostgreSQL's pool
 * (db/src/round-batch.ts; docs/decisions/28-availability-generation.md, "The date picker's first read
 * shared by each round too"): each read is a round trip, and a round trip cost the server more CPU
 * than the read itself. The key is the question's five values; equal questions share their row.
 */
const sharedServiceAndOwn = perRound<ServiceAndOwnArgs, ServiceAndOwnRow, string>(
  async (db, questions) => byQuestion(questions, await manyServiceAndOwnPacked(db, columnsOf(questions))),
  async (db, question) => (await serviceAndOwnPacked(db, question))[0],
  keyOf,
);

/** serviceAppointments and employeeAppointments over the same range, read together. */
export async function serviceAndEmployeeAppointments(
  db: DbOrTx,
  f: Omit<SlotFilter, 'employeeId'> & { employeeId: number },
): Promise<{ service: BusyAppointment[]; own: BusyAppointment[] }> {
  const row = await sharedServiceAndOwn(db, [f.serviceTypeId, f.employeeId, f.companyId, f.startFrom, f.startBefore]);
  return { service: serviceFrom(db, row?.service, f.serviceTypeId), own: ownFrom(db, row?.own, f.employeeId) };
}

/**
 * Many employees' own reads in one statement on PostgreSQL: the later candidates of date pickers
 * (availability.service.ts, datesWithSlot), one row per question as above, each the same bounded
 * range of (employee_id, start_time) (query-plan.test.ts). Exported as a builder for that test.
 */
export function manyEmployeeAppointmentsQuery(
  db: DbOrTx,
  keys: { employeeIds: number[]; companyIds: number[]; startFroms: string[]; startBefores: string[] },
) {
  const questions = sql<{
    emp: number;
    co: number;
    f: string;
    b: string;
    i: number;
  }>`(select * from unnest(${keys.employeeIds}::int4[], ${keys.companyIds}::int4[], ${keys.startFroms}::timestamptz[], ${keys.startBefores}::timestamptz[]) with ordinality as q(emp, co, f, b, i))`;
  return db.selectFrom(questions.as('k')).select([
    'k.i',
    packOwn(db, {
      employeeId: questionRef<number>('emp'),
      companyId: questionRef<number>('co'),
      startFrom: questionRef<string>('f'),
      startBefore: questionRef<string>('b'),
    }).as('packed'),
  ]);
}
const manyEmployeePacked = prepared<ManyArgs<EmployeeArgs>, { i: number | string; packed: Packed['packed'] }>((db) =>
  manyEmployeeAppointmentsQuery(db, { employeeIds: arg(0), companyIds: arg(1), startFroms: arg(2), startBefores: arg(3) }),
);

/**
 * Employees' own reads of one round share a statement on PostgreSQL, as the first reads do: after the
 * first candidate, a date picker reads each later one's appointments alone, and those reads were the
 * most frequent statement of PostgreSQL's computed dates (docs/decisions/28-availability-generation.md,
 * "Later candidates' reads shared too"). Transactions (the booking's re-check) read alone.
 */
const sharedOwn = perRound<EmployeeArgs, { packed: Packed['packed'] }, string>(
  async (db, questions) => byQuestion(questions, await manyEmployeePacked(db, columnsOf(questions))),
  async (db, question) => (await employeePacked(db, question))[0],
  keyOf,
);

/** One employee's booked appointments starting in a range, each with all its services. */
export async function employeeAppointments(
  db: DbOrTx,
  f: Omit<SlotFilter, 'serviceTypeId' | 'employeeId'> & { employeeId: number },
): Promise<BusyAppointment[]> {
  return ownFrom(db, (await sharedOwn(db, [f.employeeId, f.companyId, f.startFrom, f.startBefore]))?.packed, f.employeeId);
}

/** An employee's own appointments plus the service's bookings that are not theirs (theirs already carry all their services). */
export function mergeOwn(own: BusyAppointment[], service: readonly BusyAppointment[]): BusyAppointment[] {
  const ownIds = new Set(own.map((a) => a.id));
  // A merge by start: both lists come in start order from their indexes, and so does the result
  // then, which a 30-day answer would otherwise sort again for each candidate (dayShares).
  const out: BusyAppointment[] = [];
  let i = 0;
  for (const a of service) {
    if (ownIds.has(a.id)) continue;
    const start = startMsOf(a);
    while (i < own.length && startMsOf(own[i]) <= start) out.push(own[i++]);
    out.push(a);
  }
  while (i < own.length) out.push(own[i++]);
  return out;
}

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
  const { own, service } = await serviceAndEmployeeAppointments(db, { ...f, employeeId: f.employeeId });
  return mergeOwn(own, service);
}

// How many booked appointments of a service overlap [start, end): an upper bound of how many run at
// once there, answered from the covering index without building rows.
const overlappingQuery = (db: Kysely<Database>, serviceTypeId: number, startFrom: string, start: string, end: string) =>
  db
    .selectFrom('service_bookings as s')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('s.service_type_id', '=', serviceTypeId)
    .where('s.start_time', '>=', startFrom)
    .where('s.start_time', '<', end)
    .where('s.end_time', '>', start)
    .where('s.status', '=', 'booked');
const overlapping = prepared<[serviceTypeId: number, startFrom: string, start: string, end: string], { n: number | string }>((db) =>
  overlappingQuery(db, arg(0), arg(1), arg(2), arg(3)),
);

/**
 * A booking of one service with its employee (the usual case) asks both questions in one statement:
 * the employee's own appointments that can overlap, and how many of the service's bookings do
 * (docs/decisions/39-booking-opening-read.md, "Under the lock"). Exported as a builder for the
 * query-plan test.
 */
export function ownAndOverlappingQuery(
  db: DbOrTx,
  f: { employeeId: number; companyId: number; startFrom: string; end: string; serviceTypeId: number; start: string },
) {
  return db.selectNoFrom([
    packOwn(db, { employeeId: f.employeeId, companyId: f.companyId, startFrom: f.startFrom, startBefore: f.end }).as('own'),
    overlappingQuery(db as Kysely<Database>, f.serviceTypeId, f.startFrom, f.start, f.end).as('n'),
  ]);
}
const ownAndOverlapping = prepared<
  [employeeId: number, companyId: number, startFrom: string, end: string, serviceTypeId: number, start: string],
  { own: Packed['packed']; n: number | string }
>((db) =>
  ownAndOverlappingQuery(db, {
    employeeId: arg(0),
    companyId: arg(1),
    startFrom: arg(2),
    end: arg(3),
    serviceTypeId: arg(4),
    start: arg(5),
  }),
);

/**
 * PostgreSQL: ownAndOverlapping with its range worked out by the statement itself, from the held
 * range [heldStart, heldEnd) and the company's longest appointment and widest buffers as its own
 * snapshot has them (bookingNeighbours' bounds). Nothing in it waits for the company lock's answer,
 * so a booking sends it in the lock's message, as a statement after the lock: it runs once the lock
 * is held and sees what the previous holder committed (docs/decisions/40-appointment-id-with-the-lock.md).
 */
const ownAndOverlappingFromHeld = prepared<
  [employeeId: number, companyId: number, heldStart: string, heldEnd: string, serviceTypeId: number],
  { own: Packed['packed']; n: number | string }
>((db) => {
  const widest = (column: 'buffer_before_minutes' | 'buffer_after_minutes') =>
    sql<number>`(select coalesce(max(st.${sql.raw(column)}), 0) from service_types as st where st.company_id = ${arg(1)})`;
  const longest = sql<number>`(select greatest(0, c.longest_appointment_minutes) from companies as c where c.id = ${arg(1)})`;
  const start = sql`(cast(${arg(2)} as timestamptz) - make_interval(mins => ${widest('buffer_after_minutes')}))`;
  const end = sql`(cast(${arg(3)} as timestamptz) + make_interval(mins => ${widest('buffer_before_minutes')}))`;
  const from = sql`(${start} - make_interval(mins => ${longest}))`;
  // Expressions where the builder takes values: Kysely writes them into the SQL as they are.
  const at = (e: typeof start) => e as unknown as string;
  return ownAndOverlappingQuery(db, {
    employeeId: arg(0),
    companyId: arg(1),
    startFrom: at(from),
    end: at(end),
    serviceTypeId: arg(4),
    start: at(start),
  });
});

/** The read above, bound and not run; its one row goes to bookingNeighbours as `prefetched`. */
export function bookingNeighboursWithLockQuery(
  db: DbOrTx,
  b: { companyId: number; employeeId: number; serviceTypeId: number; heldStart: string; heldEnd: string },
) {
  return ownAndOverlappingFromHeld.bound(db, [b.employeeId, b.companyId, b.heldStart, b.heldEnd, b.serviceTypeId]);
}

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
  /** One service with its employee: the row of bookingNeighboursWithLockQuery, when already read. */
  prefetched?: { own: Packed['packed']; n: number | string },
): Promise<BusyAppointment[]> {
  const from = startBound(b.start, b.longestMinutes);
  // One service with its employee: both questions in one statement.
  const both =
    b.employeeId !== null && b.services.length === 1
      ? (prefetched ?? (await ownAndOverlapping(db, [b.employeeId, b.companyId, from, b.end, b.services[0].id, b.start]))[0])
      : undefined;
  const out =
    b.employeeId === null
      ? []
      : both
        ? ownFrom(db, both.own, b.employeeId)
        : await employeeAppointments(db, { employeeId: b.employeeId, companyId: b.companyId, startFrom: from, startBefore: b.end });
  const own = new Set(out.map((a) => a.id));
  for (const s of b.services) {
    const n = Number((both ?? (await overlapping(db, [s.id, from, b.start, b.end]))[0]).n);
    if (n < s.available_slots) continue;
    for (const a of await serviceAppointments(db, { serviceTypeId: s.id, startFrom: from, startBefore: b.end }))
      if (!own.has(a.id)) out.push(a);
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
// The staff who perform a service: those assigned to it, or everyone when nobody is (see qualifiedStaff).
const performs = (serviceTypeId: number) => (eb: ExpressionBuilder<Database, 'operating_hours'>) =>
  performsRule(eb, 'user_id', serviceTypeId);
// Narrower reads of people's hours (a company's 50 staff have 700 rows of them with breaks, and
// turning rows into objects is most of their cost): one person's, or the performers' of one weekday.
const personHoursRows = prepared<[companyId: number, userId: number], HoursRow>((db) =>
  db
    .selectFrom('operating_hours')
    .select(['user_id', 'day_of_week', 'open_time', 'close_time', 'is_closed'])
    .where('user_id', '=', arg(1))
    .where('company_id', '=', arg(0)),
);
const performersHoursRows = prepared<[companyId: number, serviceTypeId: number], HoursRow>((db) =>
  db
    .selectFrom('operating_hours')
    .select(['user_id', 'day_of_week', 'open_time', 'close_time', 'is_closed'])
    .where('company_id', '=', arg(0))
    .where('user_id', 'is not', null)
    .where(performs(arg(1))),
);
// A performer with hours of their own on other weekdays but none on this one is off that day, not on
// the company's hours: each such person comes back with one row of weekday 0 (no interval), so they
// have a week of their own like everyone read with their whole week (session 36: "any employee"
// handed a booking to someone on their weekly day off).
const performersDayRows = prepared<[companyId: number, serviceTypeId: number, weekday: number], HoursRow>((db) =>
  db
    .selectFrom('operating_hours')
    .select(['user_id', 'day_of_week', 'open_time', 'close_time', 'is_closed'])
    .where('company_id', '=', arg(0))
    .where('day_of_week', '=', arg(2))
    .where('user_id', 'is not', null)
    .where(performs(arg(1)))
    .unionAll(
      db
        .selectFrom('operating_hours')
        .select([
          'user_id',
          sql<number>`0`.as('day_of_week'),
          sql<string | null>`null`.as('open_time'),
          sql<string | null>`null`.as('close_time'),
          sql<number>`1`.as('is_closed'),
        ])
        .where('company_id', '=', arg(0))
        .where('user_id', 'is not', null)
        .where(performs(arg(1)))
        .groupBy('user_id'),
    ),
);

/**
 * Whose hours loadSchedules reads: everyone's (true), nobody's (false), one person's, or those of
 * the staff who perform a service (on one ISO weekday only, when given: a single date's question).
 */
export type SchedulePeople = boolean | { employeeId: number } | { serviceTypeId: number; weekday?: number };

/** The read of `people`'s hours, bound and not run; null for nobody. */
function peopleQuery(db: DbOrTx, companyId: number, people: SchedulePeople) {
  if (people === false) return null;
  if (people === true) return peopleHoursRows.bound(db, [companyId]);
  if ('employeeId' in people) return personHoursRows.bound(db, [companyId, people.employeeId]);
  if (people.weekday === undefined) return performersHoursRows.bound(db, [companyId, people.serviceTypeId]);
  return performersDayRows.bound(db, [companyId, people.serviceTypeId, people.weekday]);
}

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

function personWeeksOf(rows: HoursRow[]): Map<number, DayHours[][]> {
  const byPerson = new Map<number, HoursRow[]>();
  for (const r of rows) {
    const list = byPerson.get(r.user_id!) ?? [];
    list.push(r);
    byPerson.set(r.user_id!, list);
  }
  const personWeeks = new Map<number, DayHours[][]>();
  for (const [id, list] of byPerson) personWeeks.set(id, weekIntervals(list));
  return personWeeks;
}

interface Overrides {
  company: Map<string, DayHours[]>;
  /** By `${userId}|${date}`. */
  person: Map<string, DayHours[]>;
}

function overridesOf(rows: OverrideRow[]): Overrides {
  // The latest override of an owner and date wins (the API keeps one per owner and date).
  const company = new Map<string, DayHours[]>();
  const person = new Map<string, DayHours[]>();
  for (const o of rows) {
    if (o.user_id === null) company.set(o.date, overrideIntervals(o));
    else person.set(`${o.user_id}|${o.date}`, overrideIntervals(o));
  }
  return { company, person };
}

async function loadOverrides(db: DbOrTx, companyId: number, from: string, to: string): Promise<Overrides> {
  return overridesOf(await overrideRows(db, [companyId, from, to]));
}

/**
 * Everyone's hours over local dates `from`..`to` (two reads and one for the overrides): the company's
 * weekday intervals replaced by its override of a date (closed: none), each person's weekday intervals
 * (if they have any rows) replaced by their override (time off). `forDate(date, weekday, userId)`
 * answers one date for the company and, with a user id, that person.
 *
 * With `memo` (the availability answers: settings-memo.ts) the company's week, everyone's weeks and
 * the overrides of `memoWindow` (the booking window, which holds `from`..`to`) are each read once per
 * settings generation, whoever `withPeople` names: read once, everyone's hours cost less than the
 * narrower reads made again on every request, and one read of the window's few overrides serves
 * every date's slots (each date had read its own: docs/decisions/28-availability-generation.md,
 * "Settings generation"). The values it returns are shared between requests and never changed.
 */
export async function loadSchedules(
  db: DbOrTx,
  companyId: number,
  from: string,
  to: string,
  withPeople: SchedulePeople,
  memo?: Remember,
  memoWindow: { from: string; to: string } = { from, to },
) {
  if (!memo) {
    // Read together: one message on PostgreSQL (docs/decisions/40-appointment-id-with-the-lock.md).
    const companyRead = companyHoursRows.bound(db, [companyId]);
    const overridesRead = overrideRows.bound(db, [companyId, from, to]);
    const peopleRead = peopleQuery(db, companyId, withPeople);
    const [companyRows, overrideList, peopleList] = peopleRead
      ? await readTogether(db, [companyRead, overridesRead, peopleRead])
      : [...(await readTogether(db, [companyRead, overridesRead])), []];
    return schedulesOfRows(db, companyId, companyRows, peopleList, overrideList);
  }
  const [companyWeek, loadedWeeks, overrides] = await Promise.all([
    memo('hours|company', async () => weekIntervals(await companyHoursRows(db, [companyId]))),
    memo('hours|people', async () => personWeeksOf(await peopleHoursRows(db, [companyId]))),
    memo(cacheKey('overrides', memoWindow.from, memoWindow.to), () => loadOverrides(db, companyId, memoWindow.from, memoWindow.to)),
  ]);
  // Everyone's weeks are known from the memo; otherwise addPerson reads the rest as they are asked for.
  return schedulesFrom(db, companyId, companyWeek, loadedWeeks, overrides, true);
}

/** loadSchedules' answer from its three reads' rows (people's hours of those read only). */
function schedulesOfRows(db: DbOrTx, companyId: number, companyRows: HoursRow[], peopleRows: HoursRow[], overrideRows: OverrideRow[]) {
  return schedulesFrom(db, companyId, weekIntervals(companyRows), personWeeksOf(peopleRows), overridesOf(overrideRows), false);
}

/** loadSchedules' answer from what was read. */
function schedulesFrom(
  db: DbOrTx,
  companyId: number,
  companyWeek: DayHours[][],
  loadedWeeks: Map<number, DayHours[][]>,
  overrides: Overrides,
  everyone: boolean,
) {
  const addedWeeks = new Map<number, DayHours[][]>();
  const weekOf = (userId: number) => loadedWeeks.get(userId) ?? addedWeeks.get(userId);
  return {
    /**
     * Adds one person's hours after the fact (loaded with people = false or a narrower set): a caller
     * that asks candidates one by one reads only the hours of those it asks.
     */
    async addPerson(userId: number): Promise<void> {
      if (everyone || weekOf(userId)) return;
      const rows = await personHoursRows(db, [companyId, userId]);
      if (rows.length > 0) addedWeeks.set(userId, weekIntervals(rows));
    },
    forDate(date: string, weekday: number, userId: number | null): DaySchedule {
      const company = overrides.company.get(date) ?? companyWeek[weekday];
      if (userId === null) return { company, employee: undefined };
      const own = overrides.person.get(`${userId}|${date}`);
      if (own) return { company, employee: own };
      const week = weekOf(userId);
      return { company, employee: week ? week[weekday] : undefined };
    },
  };
}

export type Schedules = ReturnType<typeof schedulesFrom>;

/** A service's buffers, by service id: only services with a buffer before or after are listed. */
export type ServiceBuffers = Map<number, { before: number; after: number }>;

const bufferRows = prepared<[companyId: number], { id: number; buffer_before_minutes: number; buffer_after_minutes: number }>((db) =>
  db
    .selectFrom('service_types')
    .select(['id', 'buffer_before_minutes', 'buffer_after_minutes'])
    .where('company_id', '=', arg(0))
    .where((eb) => eb.or([eb('buffer_before_minutes', '>', 0), eb('buffer_after_minutes', '>', 0)])),
);

/**
 * The same as serviceBuffers, as one column of a query on `companies`: the booking transaction reads
 * it with the company lock (appointments/booking-transaction.service.ts), a statement less inside the
 * lock. Rows of id, before and after, packed as the range reads are.
 */
export function packedBuffersColumn(db: Kysely<Database>) {
  const [agg, chr] = isPostgres(db) ? ['string_agg', 'chr'] : ['group_concat', 'char'];
  return sql<
    string | null
  >`(select ${sql.raw(agg)}(st.id || ${sql.raw(chr)}(31) || st.buffer_before_minutes || ${sql.raw(chr)}(31) || st.buffer_after_minutes, ${sql.raw(chr)}(30))
    from service_types as st where st.company_id = companies.id and (st.buffer_before_minutes > 0 or st.buffer_after_minutes > 0))`;
}

/** packedBuffersColumn's text as serviceBuffers' map. */
export function unpackBuffers(packed: string | null): ServiceBuffers {
  const map: ServiceBuffers = new Map();
  if (!packed) return map;
  // 'id before after' rows, read where they lie: a booking reads them inside its transaction.
  for (let at = 0; at < packed.length;) {
    const first = packed.indexOf(FIELD, at);
    const second = first < 0 ? -1 : packed.indexOf(FIELD, first + 1);
    if (second < 0) throw new Error(`Packed buffers are not 'id before after' rows: ${JSON.stringify(packed)}`);
    let end = packed.indexOf(ROW, second + 1);
    if (end < 0) end = packed.length;
    map.set(Number(packed.slice(at, first)), {
      before: Number(packed.slice(first + 1, second)),
      after: Number(packed.slice(second + 1, end)),
    });
    at = end + 1;
  }
  return map;
}

/** The company's services that have buffers (archived ones too: their old appointments still hold them). */
export async function serviceBuffers(db: DbOrTx, companyId: number): Promise<ServiceBuffers> {
  const map: ServiceBuffers = new Map();
  for (const r of await bufferRows(db, [companyId])) map.set(r.id, { before: r.buffer_before_minutes, after: r.buffer_after_minutes });
  return map;
}

/**
 * The widest buffers any of the company's services has (0 when none has any): how far a stored
 * appointment's hold can reach past its own times, so a range read for a check needs to reach only
 * this far beyond the range checked, not MAX_BUFFER_MINUTES.
 */
export function widestHold(buffers: ServiceBuffers): { before: number; after: number } {
  let before = 0;
  let after = 0;
  for (const b of buffers.values()) {
    before = Math.max(before, b.before);
    after = Math.max(after, b.after);
  }
  return { before, after };
}

/** Gives each appointment the hold of its services: the largest buffer before and after among them. */
export function withBuffers(appointments: BusyAppointment[], buffers: ServiceBuffers): BusyAppointment[] {
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

/**
 * Who performs a service: its assigned staff, or every current staff member when it has none. Read
 * through (company_id, role), never by visiting the company's customers (migration 058). Exported as
 * a builder for the query-plan test.
 */
export function performersQuery(db: Kysely<Database>, companyId: number, serviceTypeId: number) {
  return db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', companyId)
    .where('role', 'in', STAFF_ROLES)
    .where('archived_at', 'is', null)
    .where((eb) => performsRule(eb, 'id', serviceTypeId));
}
const performers = (db: Kysely<Database>) => performersQuery(db, arg(0), arg(1));
const performerRow = prepared<[companyId: number, serviceTypeId: number, userId: number], { id: number }>((db) =>
  performers(db).where('id', '=', arg(2)),
);

// The performers (ids ascending), with their names and what a staff notice needs of its recipient (notifications/reminders.ts, StaffRecipient).
const performerRows = prepared<
  [companyId: number, serviceTypeId: number],
  { id: number; name: string; email: string | null; booking_notices: number; archived_at: string | null; role: string }
>((db) => performers(db).select(['name', 'email', 'booking_notices', 'archived_at', 'role']).orderBy('id'));

/** The current staff who perform the service (ids ascending): those assigned to it, or everyone when nobody is. */
export async function qualifiedStaff(db: DbOrTx, companyId: number, serviceTypeId: number): Promise<number[]> {
  return (await performerRows(db, [companyId, serviceTypeId])).map((r) => r.id);
}

/**
 * What choosing "any employee" for a booking reads under its company lock
 * (appointments/booking-transaction.service.ts): the service's performers with their names and what
 * a staff notice needs of them (qualifiedStaff), the company's hours and the performers' on the date's weekday and the date's
 * overrides (loadSchedules), the appointments starting in [busyFrom, busyBefore) (busyAppointmentsRead),
 * and each employee's booked count starting in [dayStart, dayEnd) (dayCountRows). No argument
 * depends on another read's answer, so on PostgreSQL they go out in one message (readTogether).
 */
export async function anyEmployeeReads(
  db: DbOrTx,
  q: {
    companyId: number;
    serviceTypeId: number;
    date: string;
    weekday: number;
    busyFrom: string;
    busyBefore: string;
    dayStart: string;
    dayEnd: string;
  },
) {
  const busyArgs: BusyArgs = [q.companyId, q.busyFrom, q.busyBefore];
  const pgBusy = isPostgres(db);
  const [staff, companyRows, peopleRows, overrides, busy, counts] = await readTogether(db, [
    performerRows.bound(db, [q.companyId, q.serviceTypeId]),
    companyHoursRows.bound(db, [q.companyId]),
    peopleQuery(db, q.companyId, { serviceTypeId: q.serviceTypeId, weekday: q.weekday })!,
    overrideRows.bound(db, [q.companyId, q.date, q.date]),
    pgBusy ? busyRows.bound(db, busyArgs) : busyPacked.bound(db, busyArgs),
    dayCountRows.bound(db, [q.companyId, q.dayStart, q.dayEnd]),
  ]);
  const dayCounts = new Map<number, number>();
  for (const r of counts) if (r.employee_id !== null) dayCounts.set(r.employee_id, Number(r.n));
  return {
    staff,
    schedules: schedulesOfRows(db, q.companyId, companyRows, peopleRows, overrides),
    busy: pgBusy ? fromPgRows(busy as PgBusyRow[]) : appointmentsOf((busy as unknown as Packed[])[0]?.packed),
    dayCounts,
  };
}

/** Whether one person is among qualifiedStaff: one primary-key read instead of the whole list. */
export async function performsService(db: DbOrTx, companyId: number, serviceTypeId: number, userId: number): Promise<boolean> {
  return (await performerRow(db, [companyId, serviceTypeId, userId])).length > 0;
}

// Booked appointments per employee starting in [from, to) (a local day): who is least busy.
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
