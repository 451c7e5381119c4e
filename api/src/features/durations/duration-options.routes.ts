// The global catalogue of appointment durations: anyone reads it, only global_admin changes it.
import { z } from '@hono/zod-openapi';
import { GLOBAL_ADMIN } from '../../lib/authorize.ts';
import { createRouter, defineRoute, definePutAndPatch, errorResponse, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { IdParam } from '../../lib/validation.ts';
import { addCatalogueEntry, changeCatalogueEntry, getCatalogueEntry, listCatalogue, removeCatalogueEntry } from './duration.service.ts';
import { DurationOptionBody, DurationOptionSchema } from './duration.schema.ts';

const tags = ['durations'];

const list = defineRoute({
  method: 'get',
  path: '/appointment-duration-options',
  access: 'public',
  tags,
  summary: 'The catalogue of appointment durations',
  responses: { 200: jsonResponse(z.array(DurationOptionSchema), 'Shortest first') },
});

const getOne = defineRoute({
  method: 'get',
  path: '/appointment-duration-options/{id}',
  access: 'public',
  tags,
  summary: 'One catalogue duration',
  request: { params: IdParam },
  responses: { 200: jsonResponse(DurationOptionSchema, 'The duration option') },
});

const create = defineRoute({
  method: 'post',
  path: '/appointment-duration-options',
  access: GLOBAL_ADMIN,
  tags,
  summary: 'Add a duration to the catalogue',
  request: { body: jsonBody(DurationOptionBody) },
  responses: { 201: jsonResponse(DurationOptionSchema, 'Created'), 409: errorResponse('Already in the catalogue') },
});

const update = definePutAndPatch({
  path: '/appointment-duration-options/{id}',
  access: GLOBAL_ADMIN,
  tags,
  summary: 'Change a catalogue duration (company defaults of that value move along)',
  request: { params: IdParam, body: jsonBody(DurationOptionBody) },
  responses: { 200: jsonResponse(DurationOptionSchema, 'Updated'), 409: errorResponse('Already in the catalogue') },
});

const remove = defineRoute({
  method: 'delete',
  path: '/appointment-duration-options/{id}',
  access: GLOBAL_ADMIN,
  tags,
  summary: "Remove a catalogue duration (and from every company offering it); refused while it is a company's default",
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' }, 409: errorResponse("Some company's default") },
});

export const durationOptionRoutes = createRouter()
  .openapi(list, async (c) => c.json(await listCatalogue(c.get('deps').db), 200))
  .openapi(getOne, async (c) => c.json(await getCatalogueEntry(c.get('deps').db, c.req.valid('param').id), 200))
  .openapi(create, async (c) => c.json(await addCatalogueEntry(c.get('deps').db, c.req.valid('json').duration_minutes), 201))
  .openapi(update.put, async (c) =>
    c.json(await changeCatalogueEntry(c.get('deps').db, c.req.valid('param').id, c.req.valid('json').duration_minutes), 200),
  )
  .openapi(update.patch, async (c) =>
    c.json(await changeCatalogueEntry(c.get('deps').db, c.req.valid('param').id, c.req.valid('json').duration_minutes), 200),
  )
  .openapi(remove, async (c) => {
    await removeCatalogueEntry(c.get('deps').db, c.req.valid('param').id);
    return c.body(null, 204);
  });
