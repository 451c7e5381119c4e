// Customer self-service through the personal link in their emails (docs/decisions/09-customer-self-service.md,
// 23-self-service.md): read the appointment, cancel it, or move it to another offered slot, without an
// account. Writes go through the booking transaction every other write uses (booking-transaction.service.ts),
// so availability, versions, emails, reminders and the employee's notice follow as they do for any change.
import type { AuditContext } from '../../lib/audit-context.ts';
import type { AppDeps } from '../../lib/context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { looksLikeManageToken, manageTokenHash } from '../../lib/manage-token.ts';
import { canonicalInstant, isoWeekday, localDateOf, parseInstant } from '../../lib/zoned-time.ts';
import { bookableSlots } from '../availability/availability.ts';
import { findBookingCompany, loadSchedules, performsService, type BookingCompany } from '../availability/availability.repository.ts';
import {
  changeDeadline,
  notAcceptingBookings,
  subscriptionActive,
  tooLateToChange,
  type ChangeNotice,
} from '../companies/company.rules.ts';
import { findAppointmentView, servicesByIds, type AppointmentView } from '../appointments/appointment.repository.ts';
import {
  inBookingTransaction,
  notOffered,
  updateAppointmentChecked,
  type AppointmentEdit,
} from '../appointments/booking-transaction.service.ts';
// The same write context as staff changes, so a customer's move keeps an SMS reminder where SMS is on.
import { writeContext } from '../appointments/appointment.service.ts';
import { findByManageTokenHash, type ManagedAppointmentRef } from './self-service.repository.ts';
import type { ManagedAppointmentDto } from './self-service.schema.ts';

export type SelfServiceDeps = Pick<AppDeps, 'db' | 'database' | 'config' | 'now' | 'nudgeOutbox' | 'jwtKey'>;

const UNKNOWN_LINK = 'This link is not valid any more';

interface Managed {
  ref: ManagedAppointmentRef;
  view: AppointmentView;
  company: BookingCompany;
  services: { id: number; name: string; duration_minutes: number; available_slots: number }[];
  /**
   * Whether the booking page would still offer it: every service still offered, and its employee (if
   * any) still on the staff and performing each of them. Otherwise it cannot be moved online.
   */
  movable: boolean;
}

/**
 * The appointment a link names. Unknown links, and links of appointments that ended, were deleted or
 * whose company is gone, are all the same 404: the link is valid until the appointment ends.
 */
async function managed(deps: SelfServiceDeps, token: string): Promise<Managed> {
  if (!looksLikeManageToken(token)) throw notFound(UNKNOWN_LINK);
  const ref = await findByManageTokenHash(deps.db, manageTokenHash(token));
  if (!ref || Date.parse(ref.end_time) <= deps.now().getTime()) throw notFound(UNKNOWN_LINK);
  const [view, company] = await Promise.all([findAppointmentView(deps.db, ref.id), findBookingCompany(deps.db, ref.company_id)]);
  if (!view || !company) throw notFound(UNKNOWN_LINK);
  const services = await servicesByIds(
    deps.db,
    view.service_types.map((s) => s.id),
  );
  const employeeId = view.employee_id;
  const movable =
    services.length > 0 &&
    services.every((s) => s.archived_at === null) &&
    (employeeId === null ||
      (await Promise.all(services.map((s) => performsService(deps.db, company.id, s.id, employeeId)))).every(Boolean));
  return { ref, view, company, services: services.sort((a, b) => a.id - b.id), movable };
}

function toDto(m: Managed, now: Date): ManagedAppointmentDto {
  const { view, company, ref } = m;
  const deadline = changeDeadline(ref, view.start_time);
  const open = view.status === 'booked' && now.getTime() < deadline.getTime();
  return {
    id: view.id,
    start_time: view.start_time,
    end_time: view.end_time,
    status: view.status,
    version: view.version,
    services: m.services.map((s) => ({ id: s.id, name: s.name, duration_minutes: s.duration_minutes })),
    service_types: view.service_types,
    service_type_ids: view.service_types.map((s) => s.id),
    employee_id: view.employee_id,
    employee_name: view.employee_name,
    customer_name: view.customer_user_name ?? view.customer_name,
    company: { id: company.id, name: company.name, slug: ref.company_slug, timezone: company.timezone },
    company_id: company.id,
    company_name: company.name,
    company_slug: ref.company_slug,
    company_email: ref.company_email,
    timezone: company.timezone,
    cancellation_notice_hours: ref.cancellation_notice_hours,
    // The page says how far ahead it looked when no other time is free.
    booking_window_days: company.booking_window_days,
    deadline: deadline.toISOString(),
    can_cancel: open,
    // Moving needs the business to take online bookings (as the booking page does), and the services
    // and employee to be ones the booking page still offers.
    can_reschedule: open && subscriptionActive(company, now) && m.movable,
  };
}

function tooLate(m: Managed): AppError {
  return tooLateToChange(noticeOf(m), m.view.start_time);
}

function noticeOf(m: Managed): ChangeNotice {
  return {
    cancellation_notice_hours: m.ref.cancellation_notice_hours,
    name: m.company.name,
    email: m.ref.company_email,
    timezone: m.company.timezone,
  };
}

/** A change as any customer change: staffView false, so the employee is told and no contact details come back. */
async function applyEdit(deps: SelfServiceDeps, m: Managed, edit: AppointmentEdit, now: Date, who: AuditContext): Promise<void> {
  await inBookingTransaction(deps.db, (trx) =>
    // The link proves the customer: recorded as the appointment's customer (docs/decisions/31-audit-log.md).
    updateAppointmentChecked(
      writeContext(deps, trx, now, { ...who, actor_user_id: m.view.user_id, actor_role: 'customer' }),
      m.company,
      m.view.id,
      edit,
      undefined,
      false,
    ),
  );
  deps.nudgeOutbox();
}

export async function getManagedAppointment(deps: SelfServiceDeps, token: string): Promise<ManagedAppointmentDto> {
  return toDto(await managed(deps, token), deps.now());
}

/** Cancels; cancelling a cancelled appointment answers its state again (200), whatever the deadline. */
export async function cancelManagedAppointment(deps: SelfServiceDeps, token: string, who: AuditContext): Promise<ManagedAppointmentDto> {
  const now = deps.now();
  const m = await managed(deps, token);
  if (m.view.status === 'cancelled') return toDto(m, now);
  if (now.getTime() >= changeDeadline(m.ref, m.view.start_time).getTime()) throw tooLate(m);
  await applyEdit(deps, m, { status: 'cancelled' }, now, who);
  return toDto(await managed(deps, token), now);
}

/**
 * Moves it to an offered slot of the same services and employee: the start must be on the day's
 * grid, inside the hours (the company's and the employee's), not past and inside the booking window,
 * as on the booking page (400 otherwise); whether it is still free is decided under the booking lock
 * (409 slot_taken). The length stays what it is (the services' duration for online bookings).
 */
export async function rescheduleManagedAppointment(
  deps: SelfServiceDeps,
  token: string,
  startTime: string,
  who: AuditContext,
): Promise<ManagedAppointmentDto> {
  const now = deps.now();
  const m = await managed(deps, token);
  if (m.view.status === 'cancelled') throw new AppError('conflict', 'This appointment is cancelled. Please book a new one.');
  if (now.getTime() >= changeDeadline(m.ref, m.view.start_time).getTime()) throw tooLate(m);
  if (!subscriptionActive(m.company, now)) throw notAcceptingBookings();
  const service = m.services[0];
  if (!service || !m.movable) throw new AppError('conflict', `This appointment cannot be moved online. Please contact ${m.company.name}.`);

  const start = canonicalInstant(startTime);
  const lengthMs = Date.parse(m.view.end_time) - Date.parse(m.view.start_time);
  const tz = m.company.timezone;
  const date = localDateOf(tz, parseInstant(start));
  // Breaks, date overrides, notice and window as for a new booking (docs/decisions/27-scheduling-rules.md).
  const schedules = await loadSchedules(deps.db, m.company.id, date, date, m.view.employee_id !== null);
  const hours = schedules.forDate(date, isoWeekday(tz, date), m.view.employee_id);
  const offered = bookableSlots({
    timezone: tz,
    date,
    now,
    windowDays: m.company.booking_window_days,
    minNoticeMinutes: m.company.min_notice_minutes,
    incrementMinutes: m.company.time_increment_minutes,
    durationMinutes: lengthMs / 60_000,
    companyHours: hours.company,
    employeeHours: hours.employee,
    serviceTypeId: service.id,
    capacity: service.available_slots,
    employeeId: m.view.employee_id,
    appointments: [],
  });
  if (!offered.some((s) => s.start === start)) throw notOffered();
  if (start !== m.view.start_time) {
    await applyEdit(deps, m, { start, end: new Date(Date.parse(start) + lengthMs).toISOString() }, now, who);
  }
  return toDto(await managed(deps, token), now);
}
