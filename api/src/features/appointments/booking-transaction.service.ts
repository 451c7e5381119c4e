// Booking integrity: every create, move, cancel and delete of an appointment, each run inside one
// transaction (opened with inBookingTransaction) that serialises competing writers of the same company.
//
// The order inside each transaction is fixed (see lockCompanyForBooking for why):
//   lock the company -> read the overlapping appointments (both ends bounded) -> re-check with the
//   pure availability engine -> write -> append the sync change -> queue the emails (and move the
//   reminders, tell the employee of a customer's change: notifications/reminders.ts) -> commit.
import { sql, type CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { arg, keptPlans, prepared, readTogether, type AppointmentRow, type Database, type Dialect } from '@bookwell/db';
import { isForeignKeyViolation } from '../../lib/db-errors.ts';
import { isKeyWrittenFirst, keyWrittenFirst } from '../../lib/idempotency.ts';
import { issueManageNonce } from '../../lib/manage-token.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { isoWeekday, localDayBounds } from '../../lib/zoned-time.ts';
import { bookableSlots, bookingConflict, chooseEmployee, type BusyAppointment, type SlotQuery } from '../availability/availability.ts';
import {
  anyEmployeeReads,
  bookingNeighbours,
  bookingNeighboursWithLockQuery,
  busyAppointmentsRead,
  findBookingCompany,
  loadSchedules,
  packedBuffersColumn,
  startBound,
  type ServiceBuffers,
  unpackBuffers,
  widestHold,
  withBuffers,
  type BookableService,
  type BookingCompany,
  type Schedules,
  type DaySchedule,
} from '../availability/availability.repository.ts';
import { queueAppointmentEmail, type AppointmentEmailInput, type AppointmentEmailKind } from '../notifications/appointment-emails.ts';
import { queueStaffNotice, syncReminders, type StaffNoticeChange, type StaffRecipient } from '../notifications/reminders.ts';
import { assignManageNonce } from '../self-service/self-service.repository.ts';
import { createdChanges, pickFields, recordAudit } from '../audit/audit.repository.ts';
import type { LookedUp } from '../users/user.repository.ts';
import { SYSTEM_AUDIT, type AuditContext } from '../../lib/audit-context.ts';
import {
  appointmentViewsByIds,
  deleteAppointment,
  appointmentRowQuery,
  appointmentViewReads,
  findAppointmentView,
  customerLookupQuery,
  findOrCreateCustomer,
  insertAppointment,
  recordSyncChange,
  recordSyncChangesShowing,
  serviceCapacitiesQuery,
  serviceIdsOfRow,
  updateAppointment,
  viewOfReads,
  type AppointmentChanges,
  type AppointmentView,
  type CompanyPerson,
} from './appointment.repository.ts';
import { toAppointmentDto } from './appointment.mapper.ts';
import type { AppointmentDto } from './appointment.schema.ts';

type Trx = Transaction<Database>;

export const SLOT_TAKEN = 'This time is no longer available';
/** Staff may set any end time, within reason: a day bounds every appointment. */
export const MAX_APPOINTMENT_MINUTES = 24 * 60;

export const slotTaken = () => new AppError('slot_taken', SLOT_TAKEN);

const NOT_OFFERED = 'This time cannot be booked. Please choose one of the available times.';
/** A start no booking could take (off the grid, outside hours, inside the notice, past the window): 400 on start_time. */
export const notOffered = () => badRequest(NOT_OFFERED, [{ path: 'start_time', message: NOT_OFFERED }]);

/**
 * Why a public or customer booking's start is not offered: 400 when no booking could ever take it
 * (off the day's grid, outside the hours, breaks or overrides, before the notice, beyond the window:
 * the day's slots with no appointment at all), 409 slot_taken when others' bookings fill it. Worked
 * out in the transaction from the hours it read there (docs/decisions/34-batched-round-trips.md,
 * "Session 38": no read of them before it).
 */
function refusalOf(ctx: WriteContext, b: NewBooking, hours: DaySchedule, employeeId: number | null) {
  const offered = bookableSlots({ ...offeredDay(ctx, b, hours, employeeId), appointments: [] });
  return offered.some((s) => s.start === b.start) ? slotTaken() : notOffered();
}

/** The slot question of a public or customer booking's day (its one service), without the holds and bookings. */
function offeredDay(ctx: WriteContext, b: NewBooking, hours: DaySchedule, employeeId: number | null) {
  const service = b.services[0];
  return {
    timezone: b.company.timezone,
    date: b.offeredSlot!.date,
    now: ctx.now,
    windowDays: b.company.booking_window_days,
    minNoticeMinutes: b.company.min_notice_minutes,
    incrementMinutes: b.company.time_increment_minutes,
    durationMinutes: service.duration_minutes,
    companyHours: hours.company,
    employeeHours: hours.employee,
    serviceTypeId: service.id,
    capacity: service.available_slots,
    employeeId,
  };
}

/**
 * The first statement of every appointment write. On PostgreSQL it locks the company row, so writers
 * of one company run one after another, also across API processes: the second waits here and then
 * (READ COMMITTED takes a fresh snapshot per statement) reads every appointment the first committed.
 * SQLite needs no row lock: BEGIN IMMEDIATE (db/src/connect.ts) already took the database's write lock.
 *
 * FOR NO KEY UPDATE rather than FOR UPDATE: it conflicts with itself (and with FOR UPDATE and plain
 * updates of the row), which is all the serialising needs, but not with the FOR KEY SHARE lock that
 * foreign-key checks take, so other requests inserting rows that reference the company (customers,
 * outbox messages) do not queue behind a booking, and cannot deadlock with one.
 *
 * Taking this lock before inserting into sync_changes is also what makes the sync cursor safe: ids
 * come from a sequence when the row is inserted, so without the lock two writers of one company
 * could commit ids 11 then 10, and a reader who saw 11 would skip 10 for ever. Under the lock each
 * company's ids are taken and committed in the same order.
 */
// reminder_hours_before is read under the lock too: a settings change (which updates this row, so waits
// for the lock) then re-times the reminders this write queues, or this write reads the new setting.
// The company's buffers come in the same statement (a booking's check needs them; on PostgreSQL one
// message less while the lock is held). Read in the statement's snapshot, which on PostgreSQL may
// predate the wait for the lock: a buffer change takes no company lock, so it was never ordered
// against bookings, and this is the order in which it came after.
type LockedRow = { id: number; longest_appointment_minutes: number; reminder_hours_before: number; buffers: string | null };
const companyLockQuery = (db: Kysely<Database>) =>
  db
    .selectFrom('companies')
    .select(['id', 'longest_appointment_minutes', 'reminder_hours_before', packedBuffersColumn(db).as('buffers')])
    .where('id', '=', arg(0));
const companyLock = {
  sqlite: prepared<[companyId: number], LockedRow>(companyLockQuery),
  postgres: prepared<[companyId: number], LockedRow>((db) => companyLockQuery(db).forNoKeyUpdate()),
};
// A new appointment's id, drawn in the lock's statement (PostgreSQL): the appointment's insert then
// reads nothing back, so it is held and goes out with the commit like the rows that hang off it
// (docs/decisions/40-appointment-id-with-the-lock.md). An id drawn by a booking that then fails is
// skipped, as a sequence always does after a rollback.
const companyLockWithNewId = prepared<[companyId: number], LockedRow & { new_appointment_id: number | string }>((db) =>
  companyLockQuery(db)
    .select(sql<number>`nextval('appointments_id_seq')`.as('new_appointment_id'))
    .forNoKeyUpdate(),
);

export type LockedCompany = Omit<LockedRow, 'buffers'> & { buffers: ServiceBuffers };

const lockedOf = (row: LockedRow | undefined): LockedCompany | undefined => row && { ...row, buffers: unpackBuffers(row.buffers) };

export async function lockCompanyForBooking(trx: Trx, dialect: Dialect, companyId: number): Promise<LockedCompany | undefined> {
  return lockedOf((await companyLock[dialect](trx, [companyId]))[0]);
}

/**
 * lockCompanyForBooking for a write to an existing appointment, with the appointment's row read after
 * the lock in the same message on PostgreSQL: the read runs once the lock is held, as it would alone
 * (docs/decisions/34-batched-round-trips.md, "Session 38"). SQLite runs them one by one (no round
 * trips there).
 */
async function lockWithAppointment(
  ctx: WriteContext,
  companyId: number,
  id: number,
): Promise<{ locked: LockedCompany | undefined; current: AppointmentRow | undefined }> {
  const [lockRows, rows] = await readTogether(ctx.trx, [
    companyLock[ctx.dialect].bound(ctx.trx, [companyId]),
    appointmentRowQuery(ctx.trx, id).compile(),
  ]);
  return { locked: lockedOf(lockRows[0]), current: rows[0] };
}

/** lockWithAppointment with the appointment's view too, in the same message (a deletion answers the view). */
async function lockWithAppointmentAndView(
  ctx: WriteContext,
  companyId: number,
  id: number,
): Promise<{ locked: LockedCompany | undefined; current: AppointmentRow | undefined; view: AppointmentView | undefined }> {
  const [lockRows, rows, viewRows, links] = await readTogether(ctx.trx, [
    companyLock[ctx.dialect].bound(ctx.trx, [companyId]),
    appointmentRowQuery(ctx.trx, id).compile(),
    ...appointmentViewReads(ctx.trx, id),
  ]);
  return { locked: lockedOf(lockRows[0]), current: rows[0], view: viewOfReads(viewRows, links) };
}

/**
 * A person's or service's name or contact changed: every appointment showing it gets a sync change,
 * taken under the company's booking lock as every sync change is, so the feed's ids commit in order
 * and offline copies fetch the new name (docs/decisions/08-offline-pwa.md).
 */
export async function syncAppointmentsShowing(
  trx: Trx,
  dialect: Dialect,
  companyId: number,
  of: { userId: number } | { serviceTypeId: number },
): Promise<void> {
  await lockCompanyForBooking(trx, dialect, companyId);
  await recordSyncChangesShowing(trx, companyId, of);
}

/** The neighbours' read that goes with the lock: its one row (bookingNeighboursWithLockQuery). */
type PrefetchedNeighbours = Parameters<typeof bookingNeighbours>[2];

/**
 * lockCompanyForBooking for a write that creates an appointment. On PostgreSQL the lock's statement
 * draws the appointment's id too, and the statements after it in the same message look up (or insert)
 * a customer named by contact and read a named employee's neighbours: they run once the lock is held,
 * as they would alone, and a booking that then fails rolls the customer back (decision 40). SQLite:
 * the plain lock (no round trips there).
 */
async function lockForNewAppointment(
  ctx: WriteContext,
  companyId: number,
  contact: Contact | null,
  neighbours: { employeeId: number; serviceTypeId: number; heldStart: string; heldEnd: string } | null,
): Promise<{
  locked: (LockedCompany & { newAppointmentId?: number }) | undefined;
  lookedUp?: LookedUp[];
  neighbours?: PrefetchedNeighbours;
}> {
  if (ctx.dialect !== 'postgres') return { locked: await lockCompanyForBooking(ctx.trx, ctx.dialect, companyId) };
  const reads: CompiledQuery[] = [companyLockWithNewId.bound(ctx.trx, [companyId])];
  if (contact) reads.push(customerLookupQuery(ctx.trx, companyId, contact, ctx.now));
  if (neighbours) reads.push(bookingNeighboursWithLockQuery(ctx.trx, { companyId, ...neighbours }));
  const answers = (await readTogether(ctx.trx, reads)) as unknown[][];
  const row = answers[0][0] as (LockedRow & { new_appointment_id: number | string }) | undefined;
  if (!row) return { locked: undefined };
  const { new_appointment_id, buffers, ...rest } = row;
  return {
    locked: { ...rest, buffers: unpackBuffers(buffers), newAppointmentId: Number(new_appointment_id) },
    lookedUp: contact ? (answers[1] as LookedUp[]) : undefined,
    neighbours: neighbours ? (answers[answers.length - 1][0] as PrefetchedNeighbours) : undefined,
  };
}

/** Runs a write transaction; a row it refers to that vanished meanwhile (a deleted service) is a conflict, not a crash. */
export async function inBookingTransaction<T>(db: Kysely<Database>, work: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (err) {
    if (isForeignKeyViolation(err))
      throw new AppError('conflict', 'Something this appointment refers to was removed meanwhile. Please try again.', { status: 409 });
    // PostgreSQL writes the request's Idempotency-Key with the commit: a request with the same key committed first.
    if (isKeyWrittenFirst(err)) throw keyWrittenFirst();
    throw err;
  }
}

export interface WriteContext {
  trx: Trx;
  dialect: Dialect;
  now: Date;
  appUrl: string;
  mailFrom: string;
  /** SMS is configured (SMS_PROVIDER=twilio): consenting customers with a phone get an SMS reminder too. */
  smsReminders?: boolean;
  /** The self-service link key (lib/manage-token.ts): new appointments get their link nonce with it. */
  manageKey?: Uint8Array | null;
  /** Who is writing: each write records its audit entry in this transaction (docs/decisions/31-audit-log.md). */
  audit?: AuditContext;
}

/** The appointment fields an audit entry shows (never the self-service nonce or token hash). */
const AUDITED_FIELDS = [
  'start_time',
  'end_time',
  'status',
  'employee_id',
  'user_id',
  'customer_name',
  'customer_email',
  'customer_phone',
  'description',
  'appointment_duration_option_id',
  'sms_consent',
] as const;

export interface Contact {
  name: string;
  email: string;
  phone: string | null;
}

/** Everything a new appointment needs, validated before the transaction starts. */
export interface NewBooking {
  company: BookingCompany;
  start: string;
  end: string;
  services: BookableService[];
  employee: { id: number; name: string } | null;
  /** The customer record: a known user, one to find or create by email, or none (staff blocking time). */
  customer: { kind: 'user'; person: CompanyPerson } | { kind: 'contact'; contact: Contact } | null;
  /** What the booker typed, kept on the appointment. */
  typed: Contact | null;
  description: string | null;
  durationOptionId: number | null;
  smsConsent: boolean;
  createdBy: number | null;
  /**
   * Public and customer bookings must start at an offered slot of this company-local day (its hours,
   * overrides, notice and window read inside the transaction); staff bookings are checked for conflicts only.
   */
  offeredSlot: { date: string } | null;
  /** Who will read the result: staff see contact details. */
  staffView: boolean;
}

/** The starts of the appointments that can meet [start, end) held with `hold`, their own holds included. */
function busyRange(
  longest: number,
  start: string,
  end: string,
  buffers: ServiceBuffers,
  hold: { bufferBeforeMinutes: number; bufferAfterMinutes: number },
) {
  // The candidate's held range, widened by the widest hold a neighbour can have (the company's
  // widest buffers, read with the lock): what can meet it.
  const widest = widestHold(buffers);
  return {
    startFrom: startBound(start, longest + hold.bufferBeforeMinutes + widest.after),
    startBefore: new Date(Date.parse(end) + (hold.bufferAfterMinutes + widest.before) * 60_000).toISOString(),
  };
}

/** The hold of an appointment of these services: the largest buffers among them (docs/decisions/27-scheduling-rules.md). */
export function holdOf(services: { buffer_before_minutes?: number; buffer_after_minutes?: number }[]) {
  return {
    bufferBeforeMinutes: Math.max(0, ...services.map((s) => s.buffer_before_minutes ?? 0)),
    bufferAfterMinutes: Math.max(0, ...services.map((s) => s.buffer_after_minutes ?? 0)),
  };
}

/** The company as the customer's emails name it; the notice hours say until when the manage link can change it. */
function emailCompany(company: BookingCompany): AppointmentEmailInput['company'] {
  return {
    id: company.id,
    name: company.name,
    email: company.email,
    timezone: company.timezone,
    cancellation_notice_hours: company.cancellation_notice_hours,
  };
}

async function queueEmail(
  ctx: WriteContext,
  kind: AppointmentEmailKind,
  company: BookingCompany,
  view: AppointmentView,
  opts: { previousStart?: string; version?: number } = {},
) {
  const email = view.customer_user_email ?? view.customer_email;
  if (!email) return;
  // An appointment staff enter after it ended (catching up the calendar) is not news to the
  // customer: a confirmation would invite them to something over, with a link that no longer works.
  if ((kind === 'confirmation' || kind === 'reschedule') && Date.parse(view.end_time) <= ctx.now.getTime()) return;
  await queueAppointmentEmail(
    ctx.trx,
    {
      kind,
      appointment: {
        id: view.id,
        start_time: view.start_time,
        end_time: view.end_time,
        version: opts.version ?? view.version,
        description: view.description,
      },
      previousStart: opts.previousStart,
      company: emailCompany(company),
      serviceNames: view.service_types.map((s) => s.name),
      customer: { name: view.customer_user_name ?? view.customer_name ?? 'there', email },
      employeeName: view.employee_name,
      appUrl: ctx.appUrl,
      mailFrom: ctx.mailFrom,
      manageNonce: view.manage_nonce,
    },
    ctx.now,
    { manageKey: ctx.manageKey },
  );
}

/**
 * The appointment as its reminders describe it (rendered when sent, so taken at each write). Kept
 * beside queueEmail rather than shared with it: the reminder's snapshot carries what the
 * confirmation's does (the manage link's data included, docs/decisions/23-self-service.md).
 */
function reminderDetails(ctx: WriteContext, company: BookingCompany, view: AppointmentView): AppointmentEmailInput {
  return {
    kind: 'reminder',
    appointment: {
      id: view.id,
      start_time: view.start_time,
      end_time: view.end_time,
      version: view.version,
      description: view.description,
    },
    company: emailCompany(company),
    serviceNames: view.service_types.map((s) => s.name),
    customer: {
      name: view.customer_user_name ?? view.customer_name ?? 'there',
      email: view.customer_user_email ?? view.customer_email ?? '',
    },
    employeeName: view.employee_name,
    appUrl: ctx.appUrl,
    mailFrom: ctx.mailFrom,
    manageNonce: view.manage_nonce,
  };
}

/** Queues, moves or drops the appointment's reminders after this write (notifications/reminders.ts). */
async function syncAppointmentReminders(
  ctx: WriteContext,
  company: BookingCompany,
  hoursBefore: number,
  view: AppointmentView,
  opts: { previousStart: string | null; deleted?: boolean },
) {
  const phone = view.customer_phone ?? view.customer_user_phone;
  const emailTo = view.customer_user_email ?? view.customer_email;
  const active = !opts.deleted && view.status === 'booked';
  // An appointment booked before self-service links existed gets its nonce now (as its confirmation
  // or reschedule notice would), so its reminder carries the link too.
  if (active && emailTo && !view.manage_nonce && ctx.manageKey)
    view = { ...view, manage_nonce: await assignManageNonce(ctx.trx, view.id, issueManageNonce(ctx.manageKey)) };
  await syncReminders(
    ctx.trx,
    {
      appointmentId: view.id,
      companyId: company.id,
      start: view.start_time,
      previousStart: opts.previousStart,
      active,
      hoursBefore,
      details: reminderDetails(ctx, company, view),
      emailTo,
      sms: ctx.smsReminders && view.sms_consent === 1 && phone ? { to: phone, userId: view.user_id } : null,
    },
    ctx.now,
  );
}

/**
 * The company's reminder_hours_before became shorter (the settings transaction calls this after the
 * pending reminders were re-timed, notifications/reminders.ts): appointments whose reminder was
 * skipped under the longer setting, or dropped when it was longer still, but whose due time under the
 * new one is ahead, get it now. Only appointments starting between the new and the old lead can be
 * such, so both ends of the range are bounded.
 */
export async function queueRemindersNowAhead(ctx: WriteContext, companyId: number, hoursBefore: number, previousHours: number) {
  if (hoursBefore >= previousHours) return;
  const locked = await lockCompanyForBooking(ctx.trx, ctx.dialect, companyId);
  const company = await findBookingCompany(ctx.trx, companyId);
  if (!locked || !company) return;
  const at = (hours: number) => new Date(ctx.now.getTime() + hours * 3600_000).toISOString();
  const ids = await ctx.trx
    .selectFrom('appointments')
    .select('id')
    .where('company_id', '=', companyId)
    .where('status', '=', 'booked')
    .where('start_time', '>', at(hoursBefore))
    .where('start_time', '<=', at(previousHours))
    .execute();
  for (const view of await appointmentViewsByIds(
    ctx.trx,
    ids.map((r) => r.id),
  )) {
    // As any write of the appointment: a missing reminder is queued, a dropped one revived, a sent one kept.
    await syncAppointmentReminders(ctx, company, hoursBefore, view, { previousStart: view.start_time });
  }
}

/** A customer's booking, move or cancellation: the assigned employee is told (staff changes tell no one). */
async function noticeToStaff(
  ctx: WriteContext,
  company: BookingCompany,
  view: AppointmentView,
  change: StaffNoticeChange,
  previousStart?: string,
  employee?: StaffRecipient,
) {
  await queueStaffNotice(
    ctx.trx,
    {
      change,
      employeeId: view.employee_id,
      details: reminderDetails(ctx, company, view),
      previousStart,
      customerPhone: view.customer_phone ?? view.customer_user_phone,
      employee,
    },
    ctx.now,
  );
}

/**
 * "Any employee" (docs/decisions/27-scheduling-rules.md): a public or customer booking without a
 * chosen employee gets one, chosen under the company lock from what this transaction reads: the one
 * holding a group session of the service at that start with places left, else the free qualified
 * employee with the fewest appointments that day (ties: lowest id). No one free: the time is taken.
 */
/**
 * The chosen employee, with what was read under the lock to choose them: the re-check that follows
 * uses the same hours rather than reading them again (the chosen one is a performer, so
 * their hours are among those read).
 */
interface ChosenEmployee {
  /** With what their staff notice needs: it is not read again. */
  person: StaffRecipient;
  schedules: Schedules;
  /** Every appointment of the company that can meet the booking's hold, with their holds: the re-check's neighbours too. */
  busy: BusyAppointment[];
}

async function chooseEmployeeFor(ctx: WriteContext, b: NewBooking, longest: number, buffers: ServiceBuffers): Promise<ChosenEmployee> {
  const service = b.services[0];
  const date = b.offeredSlot!.date;
  const tz = b.company.timezone;
  const weekday = isoWeekday(tz, date);
  const day = localDayBounds(tz, date);
  const hold = holdOf(b.services);
  const range = busyRange(longest, b.start, b.end, buffers, hold);
  // The performers, only their hours that weekday (they are the candidates), the neighbours and the
  // day's counts: read together, one message on PostgreSQL (docs/decisions/40-appointment-id-with-the-lock.md).
  const read = await anyEmployeeReads(ctx.trx, {
    companyId: b.company.id,
    serviceTypeId: service.id,
    date,
    weekday,
    busyFrom: range.startFrom,
    busyBefore: range.startBefore,
    dayStart: day.start,
    dayEnd: day.end,
  });
  const { schedules } = read;
  const hours = schedules.forDate(date, weekday, null);
  // Each candidate's own hours and id replace the company's question's (chooseEmployee).
  const q: SlotQuery = { ...offeredDay(ctx, b, hours, null), ...hold, appointments: withBuffers(read.busy, buffers) };
  const candidates = read.staff.map(({ id }) => ({ id, hours: schedules.forDate(date, weekday, id).employee }));
  const chosen = chooseEmployee(q, candidates, b.start, read.dayCounts);
  // The name comes with the performers' read: the chosen one is among them.
  const person = read.staff.find((p) => p.id === chosen);
  if (!person) throw refusalOf(ctx, b, hours, null);
  return { person, schedules, busy: q.appointments };
}

export async function createAppointment(ctx: WriteContext, b: NewBooking): Promise<AppointmentDto> {
  const { trx, now } = ctx;
  const hold = holdOf(b.services);
  // A named employee and one service (most bookings): their neighbours are read with the lock.
  const neighboursWithLock =
    b.employee && b.services.length === 1
      ? {
          employeeId: b.employee.id,
          serviceTypeId: b.services[0].id,
          heldStart: new Date(Date.parse(b.start) - hold.bufferBeforeMinutes * 60_000).toISOString(),
          heldEnd: new Date(Date.parse(b.end) + hold.bufferAfterMinutes * 60_000).toISOString(),
        }
      : null;
  // PostgreSQL: every statement from here on runs on its kept plan, said in the lock's message
  // (docs/decisions/41-named-statements-in-shared-messages.md; the query-plan test checks those plans).
  await keptPlans(trx);
  const { locked, lookedUp, neighbours } = await lockForNewAppointment(
    ctx,
    b.company.id,
    b.customer?.kind === 'contact' ? b.customer.contact : null,
    neighboursWithLock,
  );
  if (!locked) throw notFound('Company not found');
  const chosen =
    b.offeredSlot && b.employee === null ? await chooseEmployeeFor(ctx, b, locked.longest_appointment_minutes, locked.buffers) : null;
  if (chosen) b = { ...b, employee: chosen.person };

  const buffers = locked.buffers;
  // The neighbours of the held range, so their own holds are read too: a hold reaches at most the
  // company's widest buffers (read with the lock), not MAX_BUFFER_MINUTES. On a busy
  // service this read counts a few hours of bookings less per booking.
  // "Any employee" read every appointment of the company that can meet it: those are the neighbours.
  const widest = widestHold(buffers);
  const busy =
    chosen?.busy ??
    withBuffers(
      await bookingNeighbours(
        trx,
        {
          companyId: b.company.id,
          employeeId: b.employee?.id ?? null,
          services: b.services,
          start: new Date(Date.parse(b.start) - (hold.bufferBeforeMinutes + widest.after) * 60_000).toISOString(),
          end: new Date(Date.parse(b.end) + (hold.bufferAfterMinutes + widest.before) * 60_000).toISOString(),
          longestMinutes: locked.longest_appointment_minutes,
        },
        neighbours,
      ),
      buffers,
    );
  if (b.offeredSlot) {
    const { date } = b.offeredSlot;
    // The one person's hours (or none): the answer for them is the same as from everyone's.
    const schedules =
      chosen?.schedules ?? (await loadSchedules(trx, b.company.id, date, date, b.employee ? { employeeId: b.employee.id } : false));
    const hours = schedules.forDate(date, isoWeekday(b.company.timezone, date), b.employee?.id ?? null);
    const slots = bookableSlots({ ...offeredDay(ctx, b, hours, b.employee?.id ?? null), ...hold, appointments: busy });
    // "Any employee" asked for no one: its refusal is about the company's hours, as chooseEmployeeFor's.
    if (!slots.some((s) => s.start === b.start))
      throw chosen
        ? refusalOf(ctx, b, schedules.forDate(date, isoWeekday(b.company.timezone, date), null), null)
        : refusalOf(ctx, b, hours, b.employee?.id ?? null);
  } else if (
    bookingConflict({
      start: b.start,
      end: b.end,
      serviceTypes: b.services.map((s) => ({ id: s.id, capacity: s.available_slots })),
      employeeId: b.employee?.id ?? null,
      appointments: busy,
      ...hold,
    })
  ) {
    throw slotTaken();
  }

  let person: CompanyPerson | null = null;
  if (b.customer?.kind === 'user') person = b.customer.person;
  else if (b.customer?.kind === 'contact') {
    const { created, ...found } = await findOrCreateCustomer(trx, ctx.dialect, b.company.id, b.customer.contact, now, lookedUp);
    person = found;
    // A booking that creates the company's record of a person is a write to users (docs/decisions/31-audit-log.md).
    if (created)
      await recordAudit(trx, ctx.audit ?? SYSTEM_AUDIT, {
        company_id: b.company.id,
        action: 'create',
        entity: 'user',
        entity_id: found.id,
        changes: createdChanges({ ...pickFields(found, ['name', 'email', 'phone', 'role']), company_id: b.company.id }),
      });
  }

  const values = {
    company_id: b.company.id,
    user_id: person?.id ?? null,
    employee_id: b.employee?.id ?? null,
    start_time: b.start,
    end_time: b.end,
    description: b.description,
    appointment_duration_option_id: b.durationOptionId,
    customer_name: b.typed?.name ?? null,
    customer_email: b.typed?.email ?? null,
    customer_phone: b.typed?.phone ?? null,
    sms_consent: b.smsConsent ? 1 : 0,
    created_by: b.createdBy,
    // The self-service link (docs/decisions/23-self-service.md): only the nonce and the token's hash are kept.
    ...(ctx.manageKey ? issueManageNonce(ctx.manageKey) : { manage_nonce: null, manage_token_hash: null }),
  };
  const id = await insertAppointment(
    trx,
    values,
    b.services.map((s) => s.id),
    now,
    locked.newAppointmentId,
  );
  await recordSyncChange(trx, b.company.id, id, 'upsert', now);
  const created: Record<string, { new: unknown }> = { status: { new: 'booked' } };
  for (const f of AUDITED_FIELDS) if (f !== 'status' && values[f] !== null) created[f] = { new: values[f] };
  created.service_type_ids = { new: b.services.map((s) => s.id) };
  await recordAudit(trx, ctx.audit ?? SYSTEM_AUDIT, {
    company_id: b.company.id,
    action: 'create',
    entity: 'appointment',
    entity_id: id,
    changes: created,
  });
  // Everything the answer shows is already known: no second read while the write lock is held.
  const iso = now.toISOString();
  const view: AppointmentView = {
    ...values,
    id,
    status: 'booked',
    version: 1,
    created_at: iso,
    updated_at: iso,
    customer_user_name: person?.name ?? null,
    customer_user_email: person?.email ?? null,
    customer_user_phone: person?.phone ?? null,
    employee_name: b.employee?.name ?? null,
    service_types: b.services.map((s) => ({ id: s.id, name: s.name })).sort((x, y) => x.id - y.id),
  };
  await queueEmail(ctx, 'confirmation', b.company, view);
  await syncAppointmentReminders(ctx, b.company, locked.reminder_hours_before, view, { previousStart: null });
  if (!b.staffView) await noticeToStaff(ctx, b.company, view, 'booked', undefined, chosen?.person);
  return toAppointmentDto(view, { staff: b.staffView });
}

/**
 * The If-Match precondition, checked on the row read under the lock. `expected` is undefined without
 * the header, null for `*`.
 */
async function checkVersion(
  ctx: WriteContext,
  row: AppointmentRow,
  expected: number[] | null | undefined,
  staffView: boolean,
): Promise<void> {
  if (!expected || expected.includes(row.version)) return;
  const view = (await findAppointmentView(ctx.trx, row.id))!;
  throw new AppError('version_mismatch', 'This appointment was changed by someone else. Review the current version and try again.', {
    extra: { current: toAppointmentDto(view, { staff: staffView }) },
    headers: { ETag: `"${row.version}"` },
  });
}

/** A change to an existing appointment; fields left undefined keep their value. */
export interface AppointmentEdit {
  start?: string;
  end?: string;
  /** Recompute the end as start + this many minutes (a new duration option without an explicit end). */
  durationMinutes?: number;
  services?: BookableService[];
  employeeId?: number | null;
  userId?: number | null;
  description?: string | null;
  durationOptionId?: number | null;
  status?: 'booked' | 'cancelled';
  smsConsent?: boolean;
}

const sameIds = (a: number[], b: number[]) =>
  a.length === b.length && [...a].sort((x, y) => x - y).every((v, i) => v === [...b].sort((x, y) => x - y)[i]);

export async function updateAppointmentChecked(
  ctx: WriteContext,
  company: BookingCompany,
  id: number,
  edit: AppointmentEdit,
  ifMatch: number[] | null | undefined,
  staffView: boolean,
): Promise<AppointmentDto> {
  const { trx, now } = ctx;
  const { locked, current } = await lockWithAppointment(ctx, company.id, id);
  if (!locked || !current || current.company_id !== company.id) throw notFound('Appointment not found');
  await checkVersion(ctx, current, ifMatch, staffView);

  const start = edit.start ?? current.start_time;
  let end: string;
  if (edit.end !== undefined) end = edit.end;
  else if (edit.durationMinutes !== undefined) end = new Date(Date.parse(start) + edit.durationMinutes * 60_000).toISOString();
  else if (edit.start !== undefined) {
    // Moving the start alone keeps the appointment's length.
    end = new Date(Date.parse(start) + (Date.parse(current.end_time) - Date.parse(current.start_time))).toISOString();
  } else end = current.end_time;
  if (Date.parse(end) <= Date.parse(start))
    throw badRequest('end_time must be after start_time', [{ path: 'end_time', message: 'end_time must be after start_time' }]);
  if (Date.parse(end) - Date.parse(start) > MAX_APPOINTMENT_MINUTES * 60_000)
    throw badRequest('An appointment cannot last longer than 24 hours');

  const currentServiceIds = serviceIdsOfRow(current);
  const serviceIds = edit.services ? [...new Set(edit.services.map((s) => s.id))] : currentServiceIds;
  const status = edit.status ?? current.status;
  const employeeId = edit.employeeId !== undefined ? edit.employeeId : current.employee_id;

  const changes: AppointmentChanges = {};
  if (start !== current.start_time) changes.start_time = start;
  if (end !== current.end_time) changes.end_time = end;
  if (employeeId !== current.employee_id) changes.employee_id = employeeId;
  if (edit.userId !== undefined && edit.userId !== current.user_id) changes.user_id = edit.userId;
  if (edit.description !== undefined && edit.description !== current.description) changes.description = edit.description;
  if (edit.durationOptionId !== undefined && edit.durationOptionId !== current.appointment_duration_option_id)
    changes.appointment_duration_option_id = edit.durationOptionId;
  if (status !== current.status) changes.status = status;
  if (edit.smsConsent !== undefined && (edit.smsConsent ? 1 : 0) !== current.sms_consent) changes.sms_consent = edit.smsConsent ? 1 : 0;
  const servicesChanged = !sameIds(serviceIds, currentServiceIds);

  if (Object.keys(changes).length === 0 && !servicesChanged) {
    return toAppointmentDto((await findAppointmentView(trx, id))!, { staff: staffView });
  }

  const timeChanged = changes.start_time !== undefined || changes.end_time !== undefined;
  const rebooked = current.status === 'cancelled' && status === 'booked';
  if (status === 'booked' && (timeChanged || servicesChanged || changes.employee_id !== undefined || rebooked)) {
    const buffers = locked.buffers;
    const hold = holdOf(
      serviceIds.map((sid) => ({ buffer_before_minutes: buffers.get(sid)?.before, buffer_after_minutes: buffers.get(sid)?.after })),
    );
    // Capacities of the services it will have, archived ones included (an old booking keeps its
    // service), and its neighbours: read together (one message on PostgreSQL).
    const neighbours = busyAppointmentsRead(trx, {
      companyId: company.id,
      ...busyRange(locked.longest_appointment_minutes, start, end, buffers, hold),
    });
    const [capacities, busyRows] = serviceIds.length
      ? await readTogether(trx, [serviceCapacitiesQuery(trx, serviceIds).compile(), neighbours.query])
      : // One read alone still goes through readTogether: SQLite's direct path inside a transaction.
        [[], (await readTogether(trx, [neighbours.query]))[0]];
    const busy = withBuffers(neighbours.parse(busyRows), buffers);
    if (
      bookingConflict({
        start,
        end,
        serviceTypes: capacities.map((s) => ({ id: s.id, capacity: s.available_slots })),
        employeeId,
        appointments: busy,
        ignoreAppointmentId: id,
        ...hold,
      })
    )
      throw slotTaken();
  }

  await updateAppointment(trx, id, changes, servicesChanged ? serviceIds : undefined, now);
  await recordSyncChange(trx, company.id, id, 'upsert', now);
  const audited: Record<string, { old: unknown; new: unknown }> = {};
  for (const [f, v] of Object.entries(changes)) audited[f] = { old: current[f as keyof AppointmentChanges] ?? null, new: v };
  if (servicesChanged) audited.service_type_ids = { old: currentServiceIds, new: serviceIds };
  await recordAudit(trx, ctx.audit ?? SYSTEM_AUDIT, {
    company_id: company.id,
    action: changes.status === 'cancelled' ? 'cancel' : 'update',
    entity: 'appointment',
    entity_id: id,
    changes: audited,
  });
  const view = (await findAppointmentView(trx, id))!;
  if (changes.status === 'cancelled') await queueEmail(ctx, 'cancellation', company, view);
  else if (rebooked) await queueEmail(ctx, 'confirmation', company, view);
  else if (status === 'booked' && timeChanged) await queueEmail(ctx, 'reschedule', company, view, { previousStart: current.start_time });
  await syncAppointmentReminders(ctx, company, locked.reminder_hours_before, view, { previousStart: current.start_time });
  // Only a customer's own change reaches the employee (staffView is false for customers, the public and self-service).
  if (!staffView) {
    if (changes.status === 'cancelled') await noticeToStaff(ctx, company, view, 'cancelled');
    else if (rebooked) await noticeToStaff(ctx, company, view, 'booked');
    else if (status === 'booked' && changes.start_time !== undefined)
      await noticeToStaff(ctx, company, view, 'rescheduled', current.start_time);
  }
  return toAppointmentDto(view, { staff: staffView });
}

export async function deleteAppointmentChecked(
  ctx: WriteContext,
  company: BookingCompany,
  id: number,
  ifMatch: number[] | null | undefined,
): Promise<void> {
  const { trx, now } = ctx;
  const { locked, current, view } = await lockWithAppointmentAndView(ctx, company.id, id);
  if (!locked || !current || !view || current.company_id !== company.id) throw notFound('Appointment not found');
  await checkVersion(ctx, current, ifMatch, true);
  await deleteAppointment(trx, id);
  await recordSyncChange(trx, company.id, id, 'delete', now);
  const removed: Record<string, { old: unknown }> = {};
  for (const f of AUDITED_FIELDS) if (current[f] !== null) removed[f] = { old: current[f] };
  await recordAudit(trx, ctx.audit ?? SYSTEM_AUDIT, {
    company_id: company.id,
    action: 'delete',
    entity: 'appointment',
    entity_id: id,
    changes: removed,
  });
  // A cancelled appointment's customer was already told.
  if (current.status === 'booked') await queueEmail(ctx, 'cancellation', company, view, { version: current.version + 1 });
  await syncAppointmentReminders(ctx, company, locked.reminder_hours_before, view, { previousStart: null, deleted: true });
}
