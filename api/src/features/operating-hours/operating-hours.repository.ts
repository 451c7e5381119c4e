// Operating hours rows (the company's and each staff member's), and the reading of them that scheduling builds on.
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import { STAFF_ROLES, arg, prepared, type Database, type DbOrTx, type OperatingHoursRow } from '@bookwell/db';

/** One day's open interval, company-local 'HH:MM:SS'. A close of '24:00:00' is midnight at the end of the day. */
export interface OpenInterval {
  open: string;
  close: string;
}

/**
 * What one weekday looks like for the company and, optionally, one staff member.
 * - company: null when the company is closed that day, and also when it has no row for that day
 *   (hours are opt-in: a company that never set Sunday is not open on Sunday).
 * - employee: undefined when no employee was asked for or the person has no work-hours rows at all
 *   (they work the company's hours); null when they have rows but that day is closed or missing.
 * A booking slot must lie inside company hours and, when employee is an interval, inside that too.
 */
export interface DayHours {
  company: OpenInterval | null;
  employee: OpenInterval | null | undefined;
}

type HoursFields = Pick<OperatingHoursRow, 'user_id' | 'day_of_week' | 'open_time' | 'close_time' | 'is_closed'>;

function intervalOf(row: HoursFields | undefined): OpenInterval | null {
  if (!row || row.is_closed === 1 || !row.open_time || !row.close_time) return null;
  // The stored close '00:00:00' (the 00:00 time slot) means the end of the day; callers get the unambiguous form.
  return { open: row.open_time, close: row.close_time === '00:00:00' ? '24:00:00' : row.close_time };
}

function assertWeekday(isoWeekday: number): void {
  if (!Number.isInteger(isoWeekday) || isoWeekday < 1 || isoWeekday > 7) {
    throw new RangeError(`isoWeekday must be an integer from 1 (Monday) to 7 (Sunday), got ${isoWeekday}`);
  }
}

function dayFrom(rows: HoursFields[], isoWeekday: number, employeeId: number | null | undefined): DayHours {
  const company = intervalOf(rows.find((r) => r.user_id === null && r.day_of_week === isoWeekday));
  if (employeeId == null) return { company, employee: undefined };
  const personal = rows.filter((r) => r.user_id === employeeId);
  if (personal.length === 0) return { company, employee: undefined };
  return { company, employee: intervalOf(personal.find((r) => r.day_of_week === isoWeekday)) };
}

/** The company's row of that day (or of every day) plus, with an employee, every row of theirs. */
function hoursQuery(db: Kysely<Database>, oneDay: boolean, withEmployee: boolean) {
  return db
    .selectFrom('operating_hours')
    .select(['user_id', 'day_of_week', 'open_time', 'close_time', 'is_closed'])
    .where('company_id', '=', arg(0))
    .where((eb) => {
      const companyRows = oneDay ? eb.and([eb('user_id', 'is', null), eb('day_of_week', '=', arg(1))]) : eb('user_id', 'is', null);
      return withEmployee ? eb.or([companyRows, eb('user_id', '=', arg(oneDay ? 2 : 1))]) : companyRows;
    });
}

// Read on every availability request: one prepared query per shape.
const hoursShapes = [false, true].map((oneDay) =>
  [false, true].map((withEmployee) => prepared<(number | undefined)[], HoursFields>((db) => hoursQuery(db, oneDay, withEmployee))),
);

/** The company's row of that day plus every row of the employee: enough to tell "no personal hours" from "closed". */
function hoursRows(db: DbOrTx, companyId: number, employeeId: number | null | undefined, isoWeekday?: number): Promise<HoursFields[]> {
  const oneDay = isoWeekday !== undefined;
  const withEmployee = employeeId != null;
  const args: number[] = [companyId];
  if (oneDay) args.push(isoWeekday);
  if (withEmployee) args.push(employeeId);
  return hoursShapes[Number(oneDay)][Number(withEmployee)](db, args);
}

/** One weekday (ISO: 1 Monday .. 7 Sunday) of the company's hours and, if given, the employee's, in one query. */
export async function hoursForDay(db: DbOrTx, companyId: number, isoWeekday: number, employeeId?: number | null): Promise<DayHours> {
  assertWeekday(isoWeekday);
  return dayFrom(await hoursRows(db, companyId, employeeId, isoWeekday), isoWeekday, employeeId);
}

/** The whole week in one query: keys 1 (Monday) .. 7 (Sunday), each as hoursForDay would answer. */
export async function hoursForWeek(db: DbOrTx, companyId: number, employeeId?: number | null): Promise<Record<number, DayHours>> {
  const rows = await hoursRows(db, companyId, employeeId);
  const week: Record<number, DayHours> = {};
  for (let day = 1; day <= 7; day++) week[day] = dayFrom(rows, day, employeeId);
  return week;
}

// ---------------------------------------------------------------------------
// Breaks: every opening interval of a weekday (docs/decisions/27-scheduling-rules.md). The readers
// above give the first interval only; these give them all, sorted by opening time.

/**
 * A weekday's opening intervals for the company and, optionally, one staff member.
 * - company: [] when the company is closed that day or has no row for it.
 * - employee: undefined when no employee was asked for or the person has no work-hours rows at all
 *   (they work the company's hours); [] when they have rows but are off that day.
 * A slot must lie inside one company interval and, when employee is an array, inside one of those too.
 */
export interface DayIntervals {
  company: OpenInterval[];
  employee: OpenInterval[] | undefined;
}

function intervalsOf(rows: HoursFields[]): OpenInterval[] {
  return rows
    .map(intervalOf)
    .filter((i): i is OpenInterval => i !== null)
    .sort((x, y) => (x.open < y.open ? -1 : x.open > y.open ? 1 : 0));
}

function dayIntervalsFrom(rows: HoursFields[], isoWeekday: number, employeeId: number | null | undefined): DayIntervals {
  const company = intervalsOf(rows.filter((r) => r.user_id === null && r.day_of_week === isoWeekday));
  if (employeeId == null) return { company, employee: undefined };
  const personal = rows.filter((r) => r.user_id === employeeId);
  if (personal.length === 0) return { company, employee: undefined };
  return { company, employee: intervalsOf(personal.filter((r) => r.day_of_week === isoWeekday)) };
}

/** One weekday (ISO: 1 Monday .. 7 Sunday): every company interval and, if given, every interval of the employee; one query. */
export async function intervalsForDay(
  db: DbOrTx,
  companyId: number,
  isoWeekday: number,
  employeeId?: number | null,
): Promise<DayIntervals> {
  assertWeekday(isoWeekday);
  return dayIntervalsFrom(await hoursRows(db, companyId, employeeId, isoWeekday), isoWeekday, employeeId);
}

/** The whole week in one query: keys 1 (Monday) .. 7 (Sunday), each as intervalsForDay would answer. */
export async function intervalsForWeek(db: DbOrTx, companyId: number, employeeId?: number | null): Promise<Record<number, DayIntervals>> {
  const rows = await hoursRows(db, companyId, employeeId);
  const week: Record<number, DayIntervals> = {};
  for (let day = 1; day <= 7; day++) week[day] = dayIntervalsFrom(rows, day, employeeId);
  return week;
}

/**
 * Several staff members' weeks in one query (for "any employee"): for each id, undefined when the
 * person has no work-hours rows (they work the company's hours), else keys 1..7 with their
 * intervals ([] when off that day). Ids without rows are present with undefined.
 */
export async function staffIntervalsForWeek(
  db: DbOrTx,
  companyId: number,
  userIds: readonly number[],
): Promise<Map<number, Record<number, OpenInterval[]> | undefined>> {
  const out = new Map<number, Record<number, OpenInterval[]> | undefined>();
  for (const id of userIds) out.set(id, undefined);
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('operating_hours')
    .select(['user_id', 'day_of_week', 'open_time', 'close_time', 'is_closed'])
    .where('company_id', '=', companyId)
    .where('user_id', 'in', [...userIds])
    .execute();
  for (const id of userIds) {
    const personal = rows.filter((r) => r.user_id === id);
    if (personal.length === 0) continue;
    const week: Record<number, OpenInterval[]> = {};
    for (let day = 1; day <= 7; day++) week[day] = intervalsOf(personal.filter((r) => r.day_of_week === day));
    out.set(id, week);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Rows, as the hours endpoints read and write them.

export async function listHours(
  db: DbOrTx,
  filter: { companyId: number; userId: number | null; dayOfWeek?: number },
): Promise<OperatingHoursRow[]> {
  let q = db
    .selectFrom('operating_hours')
    .selectAll()
    .where('company_id', '=', filter.companyId)
    .where('user_id', filter.userId === null ? 'is' : '=', filter.userId);
  if (filter.dayOfWeek !== undefined) q = q.where('day_of_week', '=', filter.dayOfWeek);
  return q.orderBy('day_of_week').orderBy('id').execute();
}

export async function findHours(db: DbOrTx, id: number): Promise<OperatingHoursRow | undefined> {
  return db.selectFrom('operating_hours').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A current (not archived) staff member of the company: the only people with work hours. */
export async function findStaffMember(db: DbOrTx, companyId: number | null, userId: number) {
  let q = db
    .selectFrom('users')
    .select(['id', 'company_id', 'role'])
    .where('id', '=', userId)
    .where('role', 'in', STAFF_ROLES)
    .where('archived_at', 'is', null);
  if (companyId !== null) q = q.where('company_id', '=', companyId);
  return q.executeTakeFirst();
}

export interface HoursValues {
  open_time: string | null;
  close_time: string | null;
  is_closed: boolean;
}

/**
 * The first statement of every hours write: on PostgreSQL it locks the company row, so two writers
 * of one company's (or one person's) hours take turns and the overlap check reads what the other
 * committed (breaks, docs/decisions/27-scheduling-rules.md: no unique index can say "no overlap").
 * Bookings take the same lock, so a booking transaction reads hours as one write left them.
 * SQLite needs no row lock: BEGIN IMMEDIATE (db/src/connect.ts) already took the write lock.
 */
export async function lockCompanyHours(trx: Transaction<Database>, companyId: number): Promise<void> {
  const q = trx.selectFrom('companies').select('id').where('id', '=', companyId);
  await (trx.getExecutor().adapter instanceof PostgresAdapter ? q.forNoKeyUpdate() : q).execute();
}

export async function insertHours(
  trx: DbOrTx,
  key: { companyId: number; userId: number | null; dayOfWeek: number },
  values: HoursValues,
): Promise<OperatingHoursRow> {
  return trx
    .insertInto('operating_hours')
    .values({
      company_id: key.companyId,
      user_id: key.userId,
      day_of_week: key.dayOfWeek,
      open_time: values.open_time,
      close_time: values.close_time,
      is_closed: values.is_closed ? 1 : 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes the other rows of a day (closing a day with breaks leaves one closed row). */
export async function deleteHoursExcept(
  trx: DbOrTx,
  key: { companyId: number; userId: number | null; dayOfWeek: number },
  keepId: number,
): Promise<void> {
  await trx
    .deleteFrom('operating_hours')
    .where('company_id', '=', key.companyId)
    .where('user_id', key.userId === null ? 'is' : '=', key.userId)
    .where('day_of_week', '=', key.dayOfWeek)
    .where('id', '!=', keepId)
    .execute();
}

export async function updateHours(
  db: DbOrTx,
  id: number,
  values: HoursValues & { day_of_week: number },
): Promise<OperatingHoursRow | undefined> {
  return db
    .updateTable('operating_hours')
    .set({
      day_of_week: values.day_of_week,
      open_time: values.open_time,
      close_time: values.close_time,
      is_closed: values.is_closed ? 1 : 0,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteHours(db: DbOrTx, id: number): Promise<void> {
  await db.deleteFrom('operating_hours').where('id', '=', id).execute();
}
