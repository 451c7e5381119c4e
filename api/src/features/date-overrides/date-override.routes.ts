// The date override endpoints (docs/decisions/11-scheduling-rules-beyond-spec.md, docs/decisions/27-scheduling-rules.md): public reads
// (without notes), writes by the company's admins and managers or, for their own time off, staff.
import { auditContext } from '../../lib/audit-context.ts';
import { z } from '@hono/zod-openapi';
import { STAFF_OR_GLOBAL, currentActor } from '../../lib/authorize.ts';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { IdParam } from '../../lib/validation.ts';
import { CreateDateOverrideBody, DateOverrideListQuery, DateOverrideSchema } from './date-override.schema.ts';
import { createDateOverride, listDateOverrides, removeDateOverride } from './date-override.service.ts';

const tags = ['date-overrides'];

const list = defineRoute({
  method: 'get',
  path: '/date-overrides',
  access: 'public',
  tags,
  summary: "A company's closures and special hours and its people's time off (user_id: one person's), from..to; notes for staff only",
  request: { query: DateOverrideListQuery },
  responses: { 200: jsonResponse(z.array(DateOverrideSchema), 'Overrides by date') },
});

const create = defineRoute({
  method: 'post',
  path: '/date-overrides',
  access: STAFF_OR_GLOBAL,
  tags,
  summary: 'Close a date or give it special hours, for the company (admins, managers) or a person (themselves, admins, managers)',
  request: { body: jsonBody(CreateDateOverrideBody) },
  responses: {
    201: jsonResponse(DateOverrideSchema, 'Created'),
    409: errorResponse('That company or person already has an override on that date'),
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/date-overrides/{id}',
  access: STAFF_OR_GLOBAL,
  owner: 'date_overrides',
  tags,
  summary: 'Remove a date override: the weekday hours apply again',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' } },
});

export const dateOverrideRoutes = createRouter()
  .openapi(list, async (c) => c.json(await listDateOverrides(c.get('deps').db, c.get('actor'), c.req.valid('query')), 200))
  .openapi(create, async (c) =>
    c.json(await createDateOverride(c.get('deps').db, currentActor(c), c.req.valid('json'), auditContext(c)), 201),
  )
  .openapi(remove, async (c) => {
    await removeDateOverride(c.get('deps').db, currentActor(c), c.req.valid('param').id, auditContext(c));
    return c.body(null, 204);
  });
