// The operating hours endpoints: public reads of company and work hours; writes by the company's
// admins and managers (company hours) or by the person themselves (their own work hours).
import { auditContext } from '../../lib/audit-context.ts';
import { z } from '@hono/zod-openapi';
import { STAFF_OR_GLOBAL, currentActor } from '../../lib/authorize.ts';
import { createRouter, defineRoute, definePutAndPatch, errorResponse, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { IdParam } from '../../lib/validation.ts';
import { CreateHoursBody, HoursListQuery, OperatingHoursSchema, UpdateHoursBody } from './operating-hours.schema.ts';
import { changeHours, getHours, listHoursOf, removeHours, setDayHours } from './operating-hours.service.ts';

const tags = ['operating-hours'];

const list = defineRoute({
  method: 'get',
  path: '/operating-hours',
  access: 'public',
  tags,
  summary: "A company's hours, or one person's work hours (user_id)",
  request: { query: HoursListQuery },
  responses: { 200: jsonResponse(z.array(OperatingHoursSchema), 'Rows by weekday') },
});

const getOne = defineRoute({
  method: 'get',
  path: '/operating-hours/{id}',
  access: 'public',
  tags,
  summary: "One day's hours",
  request: { params: IdParam },
  responses: { 200: jsonResponse(OperatingHoursSchema, 'The row') },
});

const create = defineRoute({
  method: 'post',
  path: '/operating-hours',
  access: STAFF_OR_GLOBAL,
  tags,
  summary:
    "Set one weekday's hours: a day's first interval creates a row, an interval overlapping the day's only row replaces it, a non-overlapping one adds another interval (a break between them)",
  request: { body: jsonBody(CreateHoursBody) },
  responses: {
    201: jsonResponse(OperatingHoursSchema, 'Created'),
    200: jsonResponse(OperatingHoursSchema, 'That day already had a row: updated'),
    409: errorResponse('Overlaps one of the several intervals that day already has'),
  },
});

const update = definePutAndPatch({
  path: '/operating-hours/{id}',
  access: STAFF_OR_GLOBAL,
  owner: 'operating_hours',
  tags,
  summary: "Change one day's hours (partial: fields left out keep their value)",
  request: { params: IdParam, body: jsonBody(UpdateHoursBody) },
  responses: {
    200: jsonResponse(OperatingHoursSchema, 'Updated'),
    409: errorResponse('Overlaps another interval of that weekday (or moved onto a closed day)'),
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/operating-hours/{id}',
  access: STAFF_OR_GLOBAL,
  owner: 'operating_hours',
  tags,
  summary: "Remove one day's hours",
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' } },
});

export const operatingHoursRoutes = createRouter()
  .openapi(list, async (c) => c.json(await listHoursOf(c.get('deps').db, c.get('actor'), c.req.valid('query')), 200))
  .openapi(getOne, async (c) => c.json(await getHours(c.get('deps').db, c.req.valid('param').id), 200))
  .openapi(create, async (c) => {
    const { hours, created } = await setDayHours(c.get('deps').db, currentActor(c), c.req.valid('json'), auditContext(c));
    return created ? c.json(hours, 201) : c.json(hours, 200);
  })
  .openapi(update.put, async (c) =>
    c.json(await changeHours(c.get('deps').db, currentActor(c), c.req.valid('param').id, c.req.valid('json'), auditContext(c)), 200),
  )
  .openapi(update.patch, async (c) =>
    c.json(await changeHours(c.get('deps').db, currentActor(c), c.req.valid('param').id, c.req.valid('json'), auditContext(c)), 200),
  )
  .openapi(remove, async (c) => {
    await removeHours(c.get('deps').db, currentActor(c), c.req.valid('param').id, auditContext(c));
    return c.body(null, 204);
  });
