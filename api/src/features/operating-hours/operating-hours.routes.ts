// The operating hours endpoints: public reads of company and work hours; writes by the company's
// admins and managers (company hours) or by the person themselves (their own work hours).
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import type { Kysely } from 'kysely';
import type { Database } from '@bookwell/db';
import type { Actor, AppEnv } from '../../lib/context.ts';
import {
  COMPANY_ADMINS, STAFF_OR_GLOBAL, actingCompanyId, assertCompanyAccess, assertSelfOrCompanyAdmin, currentActor,
} from '../../lib/authorize.ts';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { IdParam } from '../../lib/validation.ts';
import { findCompanyById } from '../companies/company.repository.ts';
import { dayHoursProblem, dayName, normaliseTime } from './hours-rules.ts';
import { toHoursDto } from './operating-hours.mapper.ts';
import {
  deleteHours, findHours, findStaffMember, listHours, updateHours, upsertDayHours, type HoursValues,
} from './operating-hours.repository.ts';
import { CreateHoursBody, HoursListQuery, OperatingHoursSchema, UpdateHoursBody, type UpdateHoursInput } from './operating-hours.schema.ts';
import { timeSlotIndex, type TimeSlotIndex } from './time-slot.repository.ts';

const NOT_FOUND = 'Operating hours not found';
const tags = ['operating-hours'];

const list = defineRoute({
  method: 'get', path: '/operating-hours', access: 'public', tags,
  summary: 'A company\'s hours, or one person\'s work hours (user_id)',
  request: { query: HoursListQuery },
  responses: { 200: jsonResponse(z.array(OperatingHoursSchema), 'Rows by weekday') },
});

const getOne = defineRoute({
  method: 'get', path: '/operating-hours/{id}', access: 'public', tags, summary: 'One day\'s hours',
  request: { params: IdParam },
  responses: { 200: jsonResponse(OperatingHoursSchema, 'The row') },
});

const create = defineRoute({
  method: 'post', path: '/operating-hours', access: STAFF_OR_GLOBAL, tags,
  summary: 'Set one weekday\'s hours: creates the row, or updates the existing row of that company/person and day',
  request: { body: jsonBody(CreateHoursBody) },
  responses: {
    201: jsonResponse(OperatingHoursSchema, 'Created'),
    200: jsonResponse(OperatingHoursSchema, 'That day already had a row: updated'),
  },
});

const updateRoute = <M extends 'put' | 'patch'>(method: M) => defineRoute({
  method, path: '/operating-hours/{id}', access: STAFF_OR_GLOBAL, tags,
  summary: method === 'put' ? 'Change one day\'s hours (partial: fields left out keep their value)' : 'Alias of PUT',
  request: { params: IdParam, body: jsonBody(UpdateHoursBody) },
  responses: {
    200: jsonResponse(OperatingHoursSchema, 'Updated'),
    409: jsonResponse(z.object({ error: z.string(), code: z.string() }), 'Moved onto a weekday that already has a row'),
  },
});
const put = updateRoute('put');
const patch = updateRoute('patch');

const remove = defineRoute({
  method: 'delete', path: '/operating-hours/{id}', access: STAFF_OR_GLOBAL, tags, summary: 'Remove one day\'s hours',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' } },
});

type Db = Kysely<Database>;

/** Company hours: the company's admins and managers. A person's work hours: themselves or those admins and managers. */
async function authorizeHoursWrite(db: Db, actor: Actor, companyId: number, userId: number | null): Promise<void> {
  assertCompanyAccess(actor, companyId);
  if (userId === null) {
    if (actor.role !== 'global_admin' && !COMPANY_ADMINS.includes(actor.role)) throw forbidden();
    return;
  }
  if (!(await findStaffMember(db, companyId, userId))) throw notFound('User not found');
  assertSelfOrCompanyAdmin(actor, companyId, userId);
}

interface TimeFields {
  open_time?: string | null;
  close_time?: string | null;
  open_time_slot_id?: number | null;
  close_time_slot_id?: number | null;
}

/** One side's time from a time or a slot id; undefined when the body says nothing about it. */
function resolveTime(slots: TimeSlotIndex, side: 'open' | 'close', time: string | null | undefined, slotId: number | null | undefined): string | null | undefined {
  const fromTime = time == null ? time : normaliseTime(time);
  if (slotId == null) return fromTime !== undefined ? fromTime : slotId;
  const value = slots.valueOf(slotId);
  if (value === undefined) throw badRequest(`Unknown ${side}_time_slot_id`, [{ path: `${side}_time_slot_id`, message: 'No such time slot' }]);
  const fromSlot = `${value}:00`;
  if (fromTime != null && fromTime !== fromSlot) {
    throw badRequest(`${side}_time and ${side}_time_slot_id disagree`, [{ path: `${side}_time_slot_id`, message: `${side}_time and ${side}_time_slot_id disagree` }]);
  }
  return fromSlot;
}

function resolveTimes(slots: TimeSlotIndex, body: TimeFields) {
  return {
    open: resolveTime(slots, 'open', body.open_time, body.open_time_slot_id),
    close: resolveTime(slots, 'close', body.close_time, body.close_time_slot_id),
  };
}

function assertValidDay(values: HoursValues & { day_of_week: number }): void {
  const problem = dayHoursProblem(values);
  if (problem) throw badRequest(problem.message, [problem]);
}

async function updateOne(c: Context<AppEnv>, id: number, body: UpdateHoursInput) {
  const { db } = c.get('deps');
  const actor = currentActor(c);
  const row = await findHours(db, id);
  if (!row) throw notFound(NOT_FOUND);
  await authorizeHoursWrite(db, actor, row.company_id, row.user_id);
  if (body.company_id !== undefined && body.company_id !== row.company_id) throw badRequest('Hours cannot move to another company');
  if (body.user_id !== undefined && body.user_id !== row.user_id) throw badRequest('Hours cannot move to another person');
  const slots = await timeSlotIndex(db);
  const times = resolveTimes(slots, body);
  const values = {
    day_of_week: body.day_of_week ?? row.day_of_week,
    open_time: times.open !== undefined ? times.open : row.open_time,
    close_time: times.close !== undefined ? times.close : row.close_time,
    is_closed: body.is_closed ?? row.is_closed === 1,
  };
  assertValidDay(values);
  try {
    const updated = await updateHours(db, id, values);
    if (!updated) throw notFound(NOT_FOUND);
    return toHoursDto(updated, slots);
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AppError('conflict', `${dayName(values.day_of_week)} already has hours; change that row instead`);
    }
    throw err;
  }
}

export const operatingHoursRoutes = createRouter()
  .openapi(list, async (c) => {
    const { db } = c.get('deps');
    const actor = c.get('actor');
    const q = c.req.valid('query');
    let companyId = q.company_id ?? actor?.company_id ?? null;
    if (companyId === null && q.user_id !== undefined) {
      const person = await findStaffMember(db, null, q.user_id);
      if (!person) throw notFound('User not found');
      companyId = person.company_id;
    }
    if (companyId === null) throw badRequest('company_id is required');
    if (!(await findCompanyById(db, companyId))) throw notFound('Company not found');
    const rows = await listHours(db, { companyId, userId: q.user_id ?? null, dayOfWeek: q.day_of_week });
    const slots = await timeSlotIndex(db);
    return c.json(rows.map((r) => toHoursDto(r, slots)), 200);
  })
  .openapi(getOne, async (c) => {
    const { db } = c.get('deps');
    const row = await findHours(db, c.req.valid('param').id);
    if (!row) throw notFound(NOT_FOUND);
    return c.json(toHoursDto(row, await timeSlotIndex(db)), 200);
  })
  .openapi(create, async (c) => {
    const { db } = c.get('deps');
    const actor = currentActor(c);
    const body = c.req.valid('json');
    const userId = body.user_id ?? null;
    let companyId: number;
    if (actor.role === 'global_admin' && body.company_id === undefined && userId !== null) {
      // global_admin has no company of their own: the person's company is the one meant.
      const person = await findStaffMember(db, null, userId);
      if (!person?.company_id) throw notFound('User not found');
      companyId = person.company_id;
    } else {
      companyId = actingCompanyId(actor, body.company_id);
      if (actor.role === 'global_admin' && !(await findCompanyById(db, companyId))) throw notFound('Company not found');
    }
    await authorizeHoursWrite(db, actor, companyId, userId);
    const slots = await timeSlotIndex(db);
    const times = resolveTimes(slots, body);
    const values = { open_time: times.open ?? null, close_time: times.close ?? null, is_closed: body.is_closed ?? false };
    assertValidDay({ day_of_week: body.day_of_week, ...values });
    const { row, created } = await db.transaction().execute((trx) =>
      upsertDayHours(trx, { companyId, userId, dayOfWeek: body.day_of_week }, values));
    return created ? c.json(toHoursDto(row, slots), 201) : c.json(toHoursDto(row, slots), 200);
  })
  .openapi(put, async (c) => c.json(await updateOne(c, c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(patch, async (c) => c.json(await updateOne(c, c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(remove, async (c) => {
    const { db } = c.get('deps');
    const actor = currentActor(c);
    const row = await findHours(db, c.req.valid('param').id);
    if (!row) throw notFound(NOT_FOUND);
    await authorizeHoursWrite(db, actor, row.company_id, row.user_id);
    await deleteHours(db, row.id);
    return c.body(null, 204);
  });
