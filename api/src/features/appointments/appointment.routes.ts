// The appointment endpoints: booking (public, customer and staff), the calendar list, one appointment,
// partial updates and cancellation, deletion; writes honour Idempotency-Key and If-Match.
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import { DateTime } from 'luxon';
import type { Actor, AppEnv } from '../../lib/context.ts';
import { actingCompanyId, currentActor, isStaff, STAFF_OR_GLOBAL } from '../../lib/authorize.ts';
import { isForeignKeyViolation } from '../../lib/db-errors.ts';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { idempotency, recordIdempotentResponse } from '../../lib/idempotency.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { consume } from '../../lib/rate-limit.ts';
import { ErrorSchema, IdParam } from '../../lib/validation.ts';
import { subscriptionActive } from '../companies/company.repository.ts';
import { hoursForDay } from '../operating-hours/operating-hours.repository.ts';
import { findActiveServiceTypes } from '../service-types/service-type.repository.ts';
import { canonicalInstant, isoWeekday, localDayBounds } from '../../lib/zoned-time.ts';
import { bookableSlots } from '../availability/availability.ts';
import { findBookingCompany, findCompanyStaffMember, type BookableService, type BookingCompany } from '../availability/availability.repository.ts';
import { availabilityRoutes } from '../availability/availability.routes.ts';
import {
  durationOptionMinutes, findAppointmentRow, findAppointmentView, findCompanyPerson, listAppointmentViews, serviceIdsOf,
} from './appointment.repository.ts';
import { etagOf, parseIfMatch, toAppointmentDto } from './appointment.mapper.ts';
import {
  AppointmentSchema, CreateAppointmentBody, ListAppointmentsQuery, UpdateAppointmentBody,
  type CreateAppointmentInput, type UpdateAppointmentInput,
} from './appointment.schema.ts';
import {
  createAppointment, deleteAppointmentChecked, MAX_APPOINTMENT_MINUTES, notAcceptingBookings, updateAppointmentChecked,
  type AppointmentEdit, type NewBooking, type WriteContext,
} from './appointment.service.ts';

const RATE_LIMITED = 'Too many booking requests. Please wait a minute and try again.';
const NOT_FOUND = 'Appointment not found';

const writeErrors = {
  409: jsonResponse(ErrorSchema, 'The time is no longer available (slot_taken), or a request with this Idempotency-Key is still running'),
  412: jsonResponse(ErrorSchema.extend({ current: AppointmentSchema }), 'If-Match names an older version (version_mismatch); `current` is the appointment now'),
  422: jsonResponse(ErrorSchema, 'The Idempotency-Key was used with another body (idempotency_mismatch)'),
};

const writeHeaders = z.object({
  'idempotency-key': z.string().optional().openapi({ description: 'Replays of the same key and body return the first response' }),
  'if-match': z.string().optional().openapi({ description: 'Entity tag from ETag, such as "3"; a stale one answers 412' }),
});

const createRoute = defineRoute({
  method: 'post', path: '/appointments', access: 'public', tags: ['appointments'],
  summary: 'Book an appointment: anonymously or as a customer (one service, at an offered slot), or as staff (any time without conflicts)',
  request: { body: jsonBody(CreateAppointmentBody), headers: writeHeaders.pick({ 'idempotency-key': true }) },
  responses: { 201: jsonResponse(AppointmentSchema, 'Booked; ETag carries the version'), ...writeErrors },
});

const listRoute = defineRoute({
  method: 'get', path: '/appointments', access: 'authenticated', tags: ['appointments'],
  summary: "The company's appointments overlapping the range (customers: their own)",
  request: { query: ListAppointmentsQuery },
  responses: { 200: jsonResponse(z.array(AppointmentSchema), 'Appointments in start order') },
});

const getRoute = defineRoute({
  method: 'get', path: '/appointments/{id}', access: 'authenticated', tags: ['appointments'],
  summary: 'One appointment', request: { params: IdParam },
  responses: { 200: jsonResponse(AppointmentSchema, 'The appointment; ETag carries the version') },
});

function updateRouteFor<M extends 'put' | 'patch'>(method: M) {
  return defineRoute({
    method, path: '/appointments/{id}', access: 'authenticated', tags: ['appointments'],
    summary: method === 'put'
      ? "Change an appointment (fields left out keep their value); status 'cancelled' cancels it (staff, or the customer for their own)"
      : 'Same as PUT (partial update)',
    request: { params: IdParam, body: jsonBody(UpdateAppointmentBody), headers: writeHeaders },
    responses: { 200: jsonResponse(AppointmentSchema, 'The updated appointment; ETag carries the new version'), ...writeErrors },
  });
}
const updateRoute = updateRouteFor('put');
const patchRoute = updateRouteFor('patch');

const deleteRoute = defineRoute({
  method: 'delete', path: '/appointments/{id}', access: STAFF_OR_GLOBAL, tags: ['appointments'],
  summary: 'Remove an appointment (staff); the customer is told', request: { params: IdParam, headers: writeHeaders },
  responses: { 204: { description: 'Deleted' }, ...writeErrors },
});

// ---------------------------------------------------------------------------

function isInsider(actor: Actor | null, companyId: number): boolean {
  return actor !== null && (actor.role === 'global_admin' || (isStaff(actor.role) && actor.company_id === companyId));
}

function serviceIdsFrom(body: Pick<CreateAppointmentInput, 'service_type_ids' | 'service_types'>): number[] | undefined {
  const ids = body.service_type_ids ?? body.service_types?.map((s) => s.id);
  return ids ? [...new Set(ids)] : undefined;
}

function localDateOf(timezone: string, iso: string): string {
  return DateTime.fromISO(iso, { zone: 'utc' }).setZone(timezone).toISODate()!;
}

function field(path: string, message: string) {
  return badRequest(message, [{ path, message }]);
}

async function activeServices(c: Context<AppEnv>, companyId: number, ids: number[], alsoAllowed: number[] = []): Promise<BookableService[]> {
  const { db } = c.get('deps');
  const found = await findActiveServiceTypes(db, companyId, ids);
  const missing = ids.filter((id) => !found.some((s) => s.id === id) && !alsoAllowed.includes(id));
  if (missing.length) throw field('service_type_ids', `Unknown service type${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  const kept = alsoAllowed.filter((id) => ids.includes(id) && !found.some((s) => s.id === id));
  const archived = kept.length
    ? await db.selectFrom('service_types').select(['id', 'name', 'duration_minutes', 'available_slots']).where('id', 'in', kept).execute()
    : [];
  return [...found, ...archived].map((s) => ({ id: s.id, name: s.name, duration_minutes: s.duration_minutes, available_slots: s.available_slots }));
}

function writeContext(c: Context<AppEnv>, trx: WriteContext['trx'], now: Date): WriteContext {
  const { database, config } = c.get('deps');
  return { trx, dialect: database.dialect, now, appUrl: config.APP_URL, mailFrom: config.MAIL_FROM };
}

/** Runs a write transaction; a row it refers to that vanished meanwhile (a deleted service) is a conflict, not a crash. */
async function inTransaction<T>(c: Context<AppEnv>, work: (trx: WriteContext['trx']) => Promise<T>): Promise<T> {
  try {
    return await c.get('deps').db.transaction().execute(work);
  } catch (err) {
    if (isForeignKeyViolation(err)) throw new AppError('conflict', 'Something this appointment refers to was removed meanwhile. Please try again.', { status: 409 });
    throw err;
  }
}

function ifMatchOf(c: Context<AppEnv>): number[] | null | undefined {
  const header = c.req.header('if-match');
  if (header === undefined) return undefined;
  const parsed = parseIfMatch(header);
  if (parsed === undefined) throw field('If-Match', 'If-Match must be an entity tag from ETag, such as "3"');
  return parsed;
}

/** Anonymous visitors, customers, and staff of other companies book like the public booking page. */
async function preparePublicBooking(c: Context<AppEnv>, company: BookingCompany, body: CreateAppointmentInput, now: Date): Promise<NewBooking> {
  const { db } = c.get('deps');
  const actor = c.get('actor');
  if (!subscriptionActive(company, now)) throw notAcceptingBookings();

  const ids = serviceIdsFrom(body) ?? [];
  if (ids.length !== 1) throw field('service_type_ids', 'Choose exactly one service');
  const [service] = await activeServices(c, company.id, ids);

  let employee: NewBooking['employee'] = null;
  if (body.employee_id != null) {
    if (!company.enable_employee_booking) throw field('employee_id', 'This business does not take bookings with a specific employee');
    employee = (await findCompanyStaffMember(db, company.id, body.employee_id)) ?? null;
    if (!employee) throw field('employee_id', 'Unknown employee');
  }

  let customer: NewBooking['customer'];
  let typed: NewBooking['typed'] = null;
  if (actor?.role === 'customer' && actor.company_id === company.id) {
    const person = await findCompanyPerson(db, company.id, actor.id);
    if (!person) throw notFound('Customer not found');
    customer = { kind: 'user', person };
    if (body.customer) typed = { name: body.customer.name, email: body.customer.email, phone: body.customer.phone?.trim() || null };
  } else {
    if (!body.customer) throw field('customer', 'customer is required: name, email and phone of the person booking');
    const phone = body.customer.phone?.trim();
    if (!phone) throw field('customer.phone', 'Phone number is required');
    typed = { name: body.customer.name, email: body.customer.email, phone };
    customer = { kind: 'contact', contact: typed };
  }

  const start = canonicalInstant(body.start_time);
  const end = new Date(Date.parse(start) + service.duration_minutes * 60_000).toISOString();
  const date = localDateOf(company.timezone, start);
  const hours = await hoursForDay(db, company.id, isoWeekday(company.timezone, date), employee?.id ?? null);
  // Is this start on the day's grid, inside hours, ahead, within 30 days? (Other bookings are the transaction's business.)
  const offered = bookableSlots({
    timezone: company.timezone, date, now, incrementMinutes: company.time_increment_minutes,
    durationMinutes: service.duration_minutes, companyHours: hours.company, employeeHours: hours.employee,
    serviceTypeId: service.id, capacity: service.available_slots, employeeId: employee?.id ?? null, appointments: [],
  });
  if (!offered.some((s) => s.start === start)) throw field('start_time', 'This time cannot be booked. Please choose one of the available times.');

  return {
    company, start, end, services: [service], employee, customer, typed,
    description: body.description?.trim() || null,
    durationOptionId: null,
    smsConsent: body.sms_consent ?? false,
    createdBy: actor?.id ?? null,
    offeredSlot: { date, hours },
    staffView: isInsider(actor, company.id),
  };
}

/** Staff (and global_admin) book for anyone, at any time that breaks no capacity and no employee's day. */
async function prepareStaffBooking(c: Context<AppEnv>, company: BookingCompany, body: CreateAppointmentInput): Promise<NewBooking> {
  const { db } = c.get('deps');
  const actor = currentActor(c);
  const services = await activeServices(c, company.id, serviceIdsFrom(body) ?? []);

  let employee: NewBooking['employee'] = null;
  if (body.employee_id != null) {
    employee = (await findCompanyStaffMember(db, company.id, body.employee_id)) ?? null;
    if (!employee) throw field('employee_id', 'Unknown employee');
  }

  let customer: NewBooking['customer'] = null;
  let typed: NewBooking['typed'] = null;
  if (body.user_id != null) {
    const person = await findCompanyPerson(db, company.id, body.user_id);
    if (!person) throw field('user_id', 'Unknown customer');
    customer = { kind: 'user', person };
  } else if (body.customer) {
    typed = { name: body.customer.name, email: body.customer.email, phone: body.customer.phone?.trim() || null };
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
  if (body.appointment_duration_option_id != null && body.end_time && (await durationOptionMinutes(db, body.appointment_duration_option_id)) === undefined) {
    throw field('appointment_duration_option_id', 'Unknown duration option');
  }
  if (Date.parse(end) <= Date.parse(start)) throw field('end_time', 'end_time must be after start_time');
  if (Date.parse(end) - Date.parse(start) > MAX_APPOINTMENT_MINUTES * 60_000) throw field('end_time', 'An appointment cannot last longer than 24 hours');

  return {
    company, start, end, services, employee, customer, typed,
    description: body.description?.trim() || null,
    durationOptionId: body.appointment_duration_option_id ?? null,
    smsConsent: body.sms_consent ?? false,
    createdBy: actor.id,
    offeredSlot: null,
    staffView: true,
  };
}

async function prepareStaffEdit(c: Context<AppEnv>, company: BookingCompany, current: { id: number; employee_id: number | null; user_id: number | null }, body: UpdateAppointmentInput): Promise<AppointmentEdit> {
  const { db } = c.get('deps');
  if (body.company_id !== undefined && body.company_id !== company.id) throw field('company_id', 'An appointment cannot move to another company');
  const edit: AppointmentEdit = {};
  if (body.start_time !== undefined) edit.start = canonicalInstant(body.start_time);
  if (body.end_time) edit.end = canonicalInstant(body.end_time);
  const ids = serviceIdsFrom(body);
  // Services it already has stay acceptable even if archived since (clients send the whole object back).
  if (ids) edit.services = await activeServices(c, company.id, ids, await serviceIdsOf(db, current.id));
  if (body.employee_id !== undefined) {
    if (body.employee_id !== null && body.employee_id !== current.employee_id && !(await findCompanyStaffMember(db, company.id, body.employee_id))) {
      throw field('employee_id', 'Unknown employee');
    }
    edit.employeeId = body.employee_id;
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
async function visibleAppointment(c: Context<AppEnv>, id: number) {
  const actor = currentActor(c);
  const row = await findAppointmentRow(c.get('deps').db, id);
  if (!row) throw notFound(NOT_FOUND);
  const insider = isInsider(actor, row.company_id);
  const owner = actor.role === 'customer' && actor.company_id === row.company_id && row.user_id === actor.id;
  if (!insider && !owner) throw notFound(NOT_FOUND);
  return { row, insider };
}

async function companyOf(c: Context<AppEnv>, companyId: number): Promise<BookingCompany> {
  const company = await findBookingCompany(c.get('deps').db, companyId);
  if (!company) throw notFound('Company not found');
  return company;
}

async function update(c: Context<AppEnv>, id: number, body: UpdateAppointmentInput) {
  const { now, nudgeOutbox } = c.get('deps');
  const { row, insider } = await visibleAppointment(c, id);
  const ifMatch = ifMatchOf(c);
  const company = await companyOf(c, row.company_id);
  const edit = insider ? await prepareStaffEdit(c, company, row, body) : customerEdit(body);
  const at = now();
  const dto = await inTransaction(c, async (trx) => {
    const result = await updateAppointmentChecked(writeContext(c, trx, at), company, id, edit, ifMatch, insider);
    await recordIdempotentResponse(trx, c, { status: 200, body: result, headers: { ETag: etagOf(result.version) } }, at);
    return result;
  });
  nudgeOutbox();
  return c.json(dto, 200, { ETag: etagOf(dto.version) });
}

const router = createRouter();
// Idempotency-Key covers every appointment write (POST, PUT, PATCH, DELETE); reads pass through.
// ('/appointments/*' also matches '/appointments' itself.)
router.use('/appointments/*', idempotency());

export const appointmentRoutes = router
  // Before /appointments/{id}, which would otherwise claim 'available-slots' as an id.
  .route('/', availabilityRoutes)
  .openapi(createRoute, async (c) => {
    const { db, config, now, nudgeOutbox } = c.get('deps');
    const body = c.req.valid('json');
    const actor = c.get('actor');
    const at = now();
    if (!actor && !(await consume(db, 'public', c.get('clientIp'), config.RATE_LIMIT_PUBLIC, 60_000, at))) {
      throw new AppError('rate_limited', RATE_LIMITED, { headers: { 'Retry-After': '60' } });
    }
    const companyId = body.company_id ?? actor?.company_id ?? null;
    if (companyId === null) throw field('company_id', 'company_id is required');
    const company = await companyOf(c, companyId);
    const booking = isInsider(actor, company.id)
      ? await prepareStaffBooking(c, company, body)
      : await preparePublicBooking(c, company, body, at);
    const dto = await inTransaction(c, async (trx) => {
      const result = await createAppointment(writeContext(c, trx, at), booking);
      await recordIdempotentResponse(trx, c, { status: 201, body: result, headers: { ETag: etagOf(result.version) } }, at);
      return result;
    });
    nudgeOutbox();
    return c.json(dto, 201, { ETag: etagOf(dto.version) });
  })
  .openapi(listRoute, async (c) => {
    const { db } = c.get('deps');
    const actor = currentActor(c);
    const q = c.req.valid('query');
    let companyId: number;
    let userId = q.user_id;
    if (actor.role === 'customer') {
      if (actor.company_id === null || (q.company_id !== undefined && q.company_id !== actor.company_id)) throw notFound('Company not found');
      if (userId !== undefined && userId !== actor.id) return c.json([], 200);
      companyId = actor.company_id;
      userId = actor.id;
    } else {
      companyId = actingCompanyId(actor, q.company_id);
    }
    const company = await companyOf(c, companyId);
    const bound = (v: string | undefined, edge: 'start' | 'end') => {
      if (v === undefined) return undefined;
      if (v.length === 10) return localDayBounds(company.timezone, v)[edge];
      return canonicalInstant(v);
    };
    const from = bound(q.start_date, 'start');
    const to = bound(q.end_date, 'end');
    if (from !== undefined && to !== undefined && to <= from) throw field('end_date', 'end_date must not be before start_date');
    const views = await listAppointmentViews(db, {
      companyId, userId, employeeId: q.employee_id, from, to, longestMinutes: company.longest_appointment_minutes,
    });
    const staff = actor.role !== 'customer';
    return c.json(views.map((v) => toAppointmentDto(v, { staff })), 200);
  })
  .openapi(getRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { insider } = await visibleAppointment(c, id);
    const view = await findAppointmentView(c.get('deps').db, id);
    if (!view) throw notFound(NOT_FOUND);
    return c.json(toAppointmentDto(view, { staff: insider }), 200, { ETag: etagOf(view.version) });
  })
  .openapi(updateRoute, async (c) => update(c, c.req.valid('param').id, c.req.valid('json')))
  .openapi(patchRoute, async (c) => update(c, c.req.valid('param').id, c.req.valid('json')))
  .openapi(deleteRoute, async (c) => {
    const { now, nudgeOutbox } = c.get('deps');
    const { id } = c.req.valid('param');
    const { row, insider } = await visibleAppointment(c, id);
    if (!insider) throw notFound(NOT_FOUND);
    const ifMatch = ifMatchOf(c);
    const company = await companyOf(c, row.company_id);
    const at = now();
    await inTransaction(c, async (trx) => {
      await deleteAppointmentChecked(writeContext(c, trx, at), company, id, ifMatch);
      await recordIdempotentResponse(trx, c, { status: 204 }, at);
    });
    nudgeOutbox();
    return c.body(null, 204);
  });
