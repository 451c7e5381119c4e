// The appointment use cases the endpoints call: book (public, customer or staff), list, read one,
// change or cancel, delete. Each checks who may do what, turns the request into a validated booking
// or edit before any transaction starts, and runs the write in booking-transaction.service.ts.
import type { AuditContext } from '../../lib/audit-context.ts';
import type { Transaction } from 'kysely';
import { readTogether, type AppointmentRow, type Database } from '@bookwell/db';
import type { Actor, AppDeps } from '../../lib/context.ts';
import { actingCompanyId } from '../../lib/authorize.ts';
import { smsConfigured } from '../../config.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { manageLinkKey } from '../../lib/manage-token.ts';
import { normalisePhone } from '../../lib/phone.ts';
import { canonicalInstant, localDateOf, localDayBounds, parseInstant } from '../../lib/zoned-time.ts';
import { changeDeadline, isCompanyInsider, notAcceptingBookings, subscriptionActive, tooLateToChange } from '../companies/company.rules.ts';
import { listCompanies } from '../companies/company.repository.ts';
import { findActiveServiceTypes } from '../service-types/service-type.repository.ts';
import {
  bookingCompanyOfAppointment,
  findBookingCompany,
  findBookingOpening,
  findCompanyStaffMember,
  performsService,
  type BookableService,
  type BookingCompany,
  type BookingOpening,
} from '../availability/availability.repository.ts';
import {
  appointmentRowQuery,
  durationOptionMinutes,
  findAppointmentRow,
  findAppointmentView,
  findCompanyPerson,
  listAppointmentViews,
  serviceIdsOfRow,
  servicesByIds,
} from './appointment.repository.ts';
import { parseIfMatch, toAppointmentDto } from './appointment.mapper.ts';
import type { AppointmentDto, CreateAppointmentInput, UpdateAppointmentInput } from './appointment.schema.ts';
import {
  createAppointment,
  deleteAppointmentChecked,
  inBookingTransaction,
  MAX_APPOINTMENT_MINUTES,
  updateAppointmentChecked,
  type AppointmentEdit,
  type NewBooking,
  type WriteContext,
} from './booking-transaction.service.ts';

const NOT_FOUND = 'Appointment not found';

export type AppointmentDeps = Pick<AppDeps, 'db' | 'database' | 'config' | 'now' | 'nudgeOutbox'> & Partial<Pick<AppDeps, 'jwtKey'>>;

/**
 * Runs inside the write transaction, just before it commits, with the answer and the clock the write
 * used: the endpoints store the idempotent response there, so it commits (or not) with the write.
 */
export type BeforeCommit<T> = (trx: Transaction<Database>, result: T, at: Date) => Promise<void>;

function serviceIdsFrom(body: Pick<CreateAppointmentInput, 'service_type_ids' | 'service_types'>): number[] | undefined {
  const ids = body.service_type_ids ?? body.service_types?.map((s) => s.id);
  return ids ? [...new Set(ids)] : undefined;
}

function field(path: string, message: string) {
  return badRequest(message, [{ path, message }]);
}

async function activeServices(
  db: AppDeps['db'],
  companyId: number,
  ids: number[],
  alsoAllowed: number[] = [],
  opening?: BookingOpening,
): Promise<BookableService[]> {
  // A new booking's one service was read with its company (findBookingOpening).
  const found =
    opening && ids.length === 1 && ids[0] === opening.serviceId
      ? opening.service
        ? [opening.service]
        : []
      : await findActiveServiceTypes(db, companyId, ids);
  const missing = ids.filter((id) => !found.some((s) => s.id === id) && !alsoAllowed.includes(id));
  if (missing.length) throw field('service_type_ids', `Unknown service type${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  const kept = alsoAllowed.filter((id) => ids.includes(id) && !found.some((s) => s.id === id));
  const archived = await servicesByIds(db, kept);
  return [...found, ...archived].map((s) => ({
    id: s.id,
    name: s.name,
    duration_minutes: s.duration_minutes,
    available_slots: s.available_slots,
    // Archived services read without their buffers: the transaction reads every service's buffers itself.
    buffer_before_minutes: (s as { buffer_before_minutes?: number }).buffer_before_minutes ?? 0,
    buffer_after_minutes: (s as { buffer_after_minutes?: number }).buffer_after_minutes ?? 0,
  }));
}

/** A service with assigned employees may be booked only with one of them (docs/decisions/27-scheduling-rules.md). */
async function assertPerforms(
  db: AppDeps['db'],
  companyId: number,
  services: BookableService[],
  employeeId: number,
  opening?: BookingOpening,
): Promise<void> {
  for (const s of services) {
    const performs =
      opening && opening.serviceId === s.id && opening.employeeId === employeeId
        ? opening.performs
        : await performsService(db, companyId, s.id, employeeId);
    if (!performs) throw field('employee_id', `This employee does not perform ${s.name}`);
  }
}

/** The staff member a booking names: read with its company when findBookingOpening had it. */
async function staffMemberOf(db: AppDeps['db'], companyId: number, employeeId: number, opening?: BookingOpening) {
  if (opening && opening.employeeId === employeeId) return opening.staffMember ?? undefined;
  return findCompanyStaffMember(db, companyId, employeeId);
}

export function writeContext(deps: AppointmentDeps, trx: WriteContext['trx'], now: Date, audit?: AuditContext): WriteContext {
  return {
    audit,
    trx,
    dialect: deps.database.dialect,
    now,
    appUrl: deps.config.APP_URL,
    mailFrom: deps.config.MAIL_FROM,
    smsReminders: smsConfigured(deps.config),
    manageKey: deps.jwtKey ? manageLinkKey(deps.jwtKey) : null,
  };
}

/** The versions an If-Match header accepts (see parseIfMatch); undefined without the header. */
function ifMatchOf(header: string | undefined): number[] | null | undefined {
  if (header === undefined) return undefined;
  const parsed = parseIfMatch(header);
  if (parsed === undefined) throw field('If-Match', 'If-Match must be an entity tag from ETag, such as "3"');
  return parsed;
}

async function companyOf(db: AppDeps['db'], companyId: number): Promise<BookingCompany> {
  const company = await findBookingCompany(db, companyId);
  if (!company) throw notFound('Company not found');
  return company;
}

/** Anonymous visitors, customers, and staff of other companies book like the public booking page. */
async function preparePublicBooking(
  db: AppDeps['db'],
  actor: Actor | null,
  company: BookingCompany,
  body: CreateAppointmentInput,
  now: Date,
  opening?: BookingOpening,
): Promise<NewBooking> {
  if (!subscriptionActive(company, now)) throw notAcceptingBookings();

  const ids = serviceIdsFrom(body) ?? [];
  if (ids.length !== 1) throw field('service_type_ids', 'Choose exactly one service');
  const [service] = await activeServices(db, company.id, ids, [], opening);

  let employee: NewBooking['employee'] = null;
  if (body.employee_id != null) {
    if (!company.enable_employee_booking) throw field('employee_id', 'This business does not take bookings with a specific employee');
    employee = (await staffMemberOf(db, company.id, body.employee_id, opening)) ?? null;
    if (!employee) throw field('employee_id', 'Unknown employee');
    await assertPerforms(db, company.id, [service], employee.id, opening);
  }

  let customer: NewBooking['customer'];
  let typed: NewBooking['typed'] = null;
  if (actor?.role === 'customer' && actor.company_id === company.id) {
    const person = await findCompanyPerson(db, company.id, actor.id);
    if (!person) throw notFound('Customer not found');
    customer = { kind: 'user', person };
    if (body.customer)
      typed = {
        name: body.customer.name,
        email: body.customer.email,
        phone: normalisePhone(body.customer.phone, company.country, 'customer.phone'),
      };
  } else {
    if (!body.customer) throw field('customer', 'customer is required: name, email and phone of the person booking');
    if (!body.customer.phone?.trim()) throw field('customer.phone', 'Phone number is required');
    // Stored in E.164, read with the company's country (docs/decisions/22-messaging.md).
    const phone = normalisePhone(body.customer.phone, company.country, 'customer.phone')!;
    typed = { name: body.customer.name, email: body.customer.email, phone };
    customer = { kind: 'contact', contact: typed };
  }

  const start = canonicalInstant(body.start_time);
  const end = new Date(Date.parse(start) + service.duration_minutes * 60_000).toISOString();
  // Whether this start is offered (the day's grid, hours, breaks, overrides, notice, window, and
  // others' bookings) is the transaction's to answer, from the hours it reads under the lock: 400
  // when no booking could take it, 409 when others did (createAppointment).
  const date = localDateOf(company.timezone, parseInstant(start));

  return {
    company,
    start,
    end,
    services: [service],
    employee,
    customer,
    typed,
    description: body.description?.trim() || null,
    durationOptionId: null,
    smsConsent: body.sms_consent ?? false,
    createdBy: actor?.id ?? null,
    offeredSlot: { date },
    staffView: isCompanyInsider(actor, company.id),
  };
}

/** Staff (and global_admin) book for anyone, at any time that breaks no capacity and no employee's day. */
async function prepareStaffBooking(
  db: AppDeps['db'],
  actor: Actor,
  company: BookingCompany,
  body: CreateAppointmentInput,
  opening?: BookingOpening,
): Promise<NewBooking> {
  const services = await activeServices(db, company.id, serviceIdsFrom(body) ?? [], [], opening);

  let employee: NewBooking['employee'] = null;
  if (body.employee_id != null) {
    employee = (await staffMemberOf(db, company.id, body.employee_id, opening)) ?? null;
    if (!employee) throw field('employee_id', 'Unknown employee');
    await assertPerforms(db, company.id, services, employee.id, opening);
  }

  let customer: NewBooking['customer'] = null;
  let typed: NewBooking['typed'] = null;
  if (body.user_id != null) {
    const person = await findCompanyPerson(db, company.id, body.user_id);
    if (!person) throw field('user_id', 'Unknown customer');
    customer = { kind: 'user', person };
  } else if (body.customer) {
    typed = {
      name: body.customer.name,
      email: body.customer.email,
      phone: normalisePhone(body.customer.phone, company.country, 'customer.phone'),
    };
    customer = { kind: 'contact', contact: typed };
  }

  const start = canonicalInstant(body.start_time);
  let end: string;
  if (body.end_time) end = canonicalInstant(body.end_time);
  else if (body.appointment_duration_option_id != null) {
    const minutes = await durationOptionMinutes(db, body.appointment_duration_option_id);
    if (minutes === undefined) throw field('appointment_duration_option_id', 'Unknown duration option');
    end = new Date(Date.parse(start) + minutes * 60_000).toISOString();
  } else {
    const minutes = services.reduce((sum, s) => sum + s.duration_minutes, 0);
    if (minutes <= 0) throw field('end_time', 'end_time is required (or a duration option, or services)');
    end = new Date(Date.parse(start) + minutes * 60_000).toISOString();
  }
  if (
    body.appointment_duration_option_id != null &&
    body.end_time &&
    (await durationOptionMinutes(db, body.appointment_duration_option_id)) === undefined
  ) {
    throw field('appointment_duration_option_id', 'Unknown duration option');
  }
  if (Date.parse(end) <= Date.parse(start)) throw field('end_time', 'end_time must be after start_time');
  if (Date.parse(end) - Date.parse(start) > MAX_APPOINTMENT_MINUTES * 60_000)
    throw field('end_time', 'An appointment cannot last longer than 24 hours');

  return {
    company,
    start,
    end,
    services,
    employee,
    customer,
    typed,
    description: body.description?.trim() || null,
    durationOptionId: body.appointment_duration_option_id ?? null,
    smsConsent: body.sms_consent ?? false,
    createdBy: actor.id,
    offeredSlot: null,
    staffView: true,
  };
}

async function prepareStaffEdit(
  db: AppDeps['db'],
  company: BookingCompany,
  current: Pick<AppointmentRow, 'id' | 'employee_id' | 'user_id' | 'service_ids'>,
  body: UpdateAppointmentInput,
): Promise<AppointmentEdit> {
  if (body.company_id !== undefined && body.company_id !== company.id)
    throw field('company_id', 'An appointment cannot move to another company');
  const edit: AppointmentEdit = {};
  if (body.start_time !== undefined) edit.start = canonicalInstant(body.start_time);
  if (body.end_time) edit.end = canonicalInstant(body.end_time);
  const ids = serviceIdsFrom(body);
  const currentIds = serviceIdsOfRow(current);
  // Services it already has stay acceptable even if archived since (clients send the whole object back).
  if (ids) edit.services = await activeServices(db, company.id, ids, currentIds);
  if (body.employee_id !== undefined) {
    if (
      body.employee_id !== null &&
      body.employee_id !== current.employee_id &&
      !(await findCompanyStaffMember(db, company.id, body.employee_id))
    ) {
      throw field('employee_id', 'Unknown employee');
    }
    edit.employeeId = body.employee_id;
  }
  // Who performs a service binds staff changes as it binds staff bookings (docs/decisions/27-scheduling-rules.md):
  // a new employee, or new services, must make a pair POST would accept. An unchanged pair is left alone,
  // so editing the notes of an appointment made before the service's assignments changed still works.
  const employeeId = edit.employeeId !== undefined ? edit.employeeId : current.employee_id;
  const employeeChanged = employeeId !== current.employee_id;
  const servicesChanged = !!edit.services && edit.services.some((s) => !currentIds.includes(s.id));
  if (employeeId !== null && (employeeChanged || servicesChanged)) {
    const services = edit.services ?? (await activeServices(db, company.id, currentIds, currentIds));
    await assertPerforms(db, company.id, employeeChanged ? services : services.filter((s) => !currentIds.includes(s.id)), employeeId);
  }
  if (body.user_id !== undefined) {
    if (body.user_id !== null && body.user_id !== current.user_id && !(await findCompanyPerson(db, company.id, body.user_id))) {
      throw field('user_id', 'Unknown customer');
    }
    edit.userId = body.user_id;
  }
  if (body.appointment_duration_option_id !== undefined) {
    if (body.appointment_duration_option_id !== null) {
      const minutes = await durationOptionMinutes(db, body.appointment_duration_option_id);
      if (minutes === undefined) throw field('appointment_duration_option_id', 'Unknown duration option');
      if (!body.end_time) edit.durationMinutes = minutes;
    }
    edit.durationOptionId = body.appointment_duration_option_id;
  }
  if (body.description !== undefined) edit.description = body.description?.trim() || null;
  if (body.status !== undefined) edit.status = body.status;
  if (body.sms_consent !== undefined) edit.smsConsent = body.sms_consent;
  return edit;
}

/** Customers may cancel their own appointment, and nothing else. */
function customerEdit(body: UpdateAppointmentInput): AppointmentEdit {
  const others = Object.entries(body).filter(([k, v]) => k !== 'status' && v !== undefined);
  if (body.status !== 'cancelled' || others.length) throw forbidden('Customers can cancel their appointments but not change them');
  return { status: 'cancelled' };
}

/** The appointment if the caller may see it: staff of its company, global_admin, or its customer; else 404. */
function visibleTo(actor: Actor, row: AppointmentRow | undefined) {
  if (!row) throw notFound(NOT_FOUND);
  const insider = isCompanyInsider(actor, row.company_id);
  const owner = actor.role === 'customer' && actor.company_id === row.company_id && row.user_id === actor.id;
  if (!insider && !owner) throw notFound(NOT_FOUND);
  return { row, insider };
}

async function visibleAppointment(db: AppDeps['db'], actor: Actor, id: number) {
  return visibleTo(actor, await findAppointmentRow(db, id));
}

/**
 * visibleAppointment with its company, for a change: read together, one message on PostgreSQL
 * (docs/decisions/34-batched-round-trips.md, "Session 38").
 */
async function appointmentToChange(db: AppDeps['db'], actor: Actor, id: number) {
  const [rows, companies] = await readTogether(db, [appointmentRowQuery(db, id).compile(), bookingCompanyOfAppointment.bound(db, [id])]);
  const visible = visibleTo(actor, rows[0]);
  if (!companies[0]) throw notFound('Company not found');
  return { ...visible, company: companies[0] };
}

/** Books an appointment: staff of the company (and global_admin) like staff, everyone else like the public booking page. */
export async function bookAppointment(
  deps: AppointmentDeps,
  actor: Actor | null,
  body: CreateAppointmentInput,
  beforeCommit: BeforeCommit<AppointmentDto>,
  audit: AuditContext,
): Promise<AppointmentDto> {
  const { db } = deps;
  const at = deps.now();
  const companyId = body.company_id ?? actor?.company_id ?? null;
  if (companyId === null) throw field('company_id', 'company_id is required');
  // A booking of one service (nearly all) reads its company, service and employee in one statement.
  const ids = serviceIdsFrom(body);
  let opening: BookingOpening | undefined;
  if (ids?.length === 1) {
    opening = await findBookingOpening(db, companyId, ids[0], body.employee_id ?? null);
    if (!opening) throw notFound('Company not found');
  }
  const company = opening?.company ?? (await companyOf(db, companyId));
  const booking =
    actor !== null && isCompanyInsider(actor, company.id)
      ? await prepareStaffBooking(db, actor, company, body, opening)
      : await preparePublicBooking(db, actor, company, body, at, opening);
  const dto = await inBookingTransaction(db, async (trx) => {
    const result = await createAppointment(writeContext(deps, trx, at, audit), booking);
    await beforeCommit(trx, result, at);
    return result;
  });
  deps.nudgeOutbox();
  return dto;
}

export interface AppointmentListQuery {
  start_date?: string;
  end_date?: string;
  user_id?: number;
  employee_id?: number;
  company_id?: number;
}

/**
 * The company's appointments overlapping the range, in start order; customers see only their own.
 * global_admin without `company_id`: every company's (each date read in its own company's zone).
 */
export async function listAppointments(db: AppDeps['db'], actor: Actor, q: AppointmentListQuery): Promise<AppointmentDto[]> {
  let companyId: number;
  let userId = q.user_id;
  if (actor.role === 'customer') {
    if (actor.company_id === null || (q.company_id !== undefined && q.company_id !== actor.company_id)) throw notFound('Company not found');
    if (userId !== undefined && userId !== actor.id) return [];
    companyId = actor.company_id;
    userId = actor.id;
  } else if (actor.role === 'global_admin' && q.company_id === undefined) {
    // The list's rows carry each company's zone and longest appointment: not read again per company.
    const all = await Promise.all((await listCompanies(db, {})).map((c) => companyAppointments(db, c, q, q.user_id, true)));
    return all.flat().sort((a, b) => a.start_time.localeCompare(b.start_time) || a.id - b.id);
  } else {
    companyId = actingCompanyId(actor, q.company_id);
  }
  return companyAppointments(db, await companyOf(db, companyId), q, userId, actor.role !== 'customer');
}

async function companyAppointments(
  db: AppDeps['db'],
  company: { id: number; timezone: string; longest_appointment_minutes: number },
  q: AppointmentListQuery,
  userId: number | undefined,
  staff: boolean,
): Promise<AppointmentDto[]> {
  // A date means the company's local day; an instant is taken as it is.
  const bound = (v: string | undefined, edge: 'start' | 'end') => {
    if (v === undefined) return undefined;
    if (v.length === 10) return localDayBounds(company.timezone, v)[edge];
    return canonicalInstant(v);
  };
  const from = bound(q.start_date, 'start');
  const to = bound(q.end_date, 'end');
  if (from !== undefined && to !== undefined && to <= from) throw field('end_date', 'end_date must not be before start_date');
  const views = await listAppointmentViews(db, {
    companyId: company.id,
    userId,
    employeeId: q.employee_id,
    from,
    to,
    longestMinutes: company.longest_appointment_minutes,
  });
  return views.map((v) => toAppointmentDto(v, { staff }));
}

/** One appointment the caller may see (contact details for the company's insiders). */
export async function getAppointment(db: AppDeps['db'], actor: Actor, id: number): Promise<AppointmentDto> {
  const { insider } = await visibleAppointment(db, actor, id);
  const view = await findAppointmentView(db, id);
  if (!view) throw notFound(NOT_FOUND);
  return toAppointmentDto(view, { staff: insider });
}

/** Changes an appointment (insiders), or cancels it (its customer); `ifMatch` is the raw If-Match header. */
export async function changeAppointment(
  deps: AppointmentDeps,
  actor: Actor,
  id: number,
  body: UpdateAppointmentInput,
  ifMatchHeader: string | undefined,
  beforeCommit: BeforeCommit<AppointmentDto>,
  audit: AuditContext,
): Promise<AppointmentDto> {
  const { db } = deps;
  const { row, insider, company } = await appointmentToChange(db, actor, id);
  const ifMatch = ifMatchOf(ifMatchHeader);
  const edit = insider ? await prepareStaffEdit(db, company, row, body) : customerEdit(body);
  const at = deps.now();
  // A customer's own cancellation keeps the company's notice, as through their link; staff never do.
  if (!insider && row.status !== 'cancelled' && at.getTime() >= changeDeadline(company, row.start_time).getTime())
    throw tooLateToChange(company, row.start_time);
  const dto = await inBookingTransaction(db, async (trx) => {
    const result = await updateAppointmentChecked(writeContext(deps, trx, at, audit), company, id, edit, ifMatch, insider);
    await beforeCommit(trx, result, at);
    return result;
  });
  deps.nudgeOutbox();
  return dto;
}

/** Removes an appointment (insiders only; to anyone else it does not exist); the customer is told. */
export async function removeAppointment(
  deps: AppointmentDeps,
  actor: Actor,
  id: number,
  ifMatchHeader: string | undefined,
  beforeCommit: BeforeCommit<void>,
  audit: AuditContext,
): Promise<void> {
  const { db } = deps;
  const { insider, company } = await appointmentToChange(db, actor, id);
  if (!insider) throw notFound(NOT_FOUND);
  const ifMatch = ifMatchOf(ifMatchHeader);
  const at = deps.now();
  await inBookingTransaction(db, async (trx) => {
    await deleteAppointmentChecked(writeContext(deps, trx, at, audit), company, id, ifMatch);
    await beforeCommit(trx, undefined, at);
  });
  deps.nudgeOutbox();
}
