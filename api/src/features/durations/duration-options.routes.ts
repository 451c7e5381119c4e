// The global catalogue of appointment durations: anyone reads it, only global_admin changes it.
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import type { AppEnv } from '../../lib/context.ts';
import { GLOBAL_ADMIN } from '../../lib/authorize.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { IdParam } from '../../lib/validation.ts';
import {
  changeDurationOption, companiesDefaultingTo, deleteDurationOption, findDurationOption, findDurationOptionByMinutes,
  insertDurationOption, listDurationOptions,
} from './duration.repository.ts';
import { DurationOptionBody, DurationOptionSchema } from './duration.schema.ts';

const NOT_FOUND = 'Duration option not found';
const tags = ['durations'];
const duplicate = (minutes: number) => new AppError('conflict', `A duration option of ${minutes} minutes already exists`);

const list = defineRoute({
  method: 'get', path: '/appointment-duration-options', access: 'public', tags, summary: 'The catalogue of appointment durations',
  responses: { 200: jsonResponse(z.array(DurationOptionSchema), 'Shortest first') },
});

const getOne = defineRoute({
  method: 'get', path: '/appointment-duration-options/{id}', access: 'public', tags, summary: 'One catalogue duration',
  request: { params: IdParam },
  responses: { 200: jsonResponse(DurationOptionSchema, 'The duration option') },
});

const create = defineRoute({
  method: 'post', path: '/appointment-duration-options', access: GLOBAL_ADMIN, tags, summary: 'Add a duration to the catalogue',
  request: { body: jsonBody(DurationOptionBody) },
  responses: { 201: jsonResponse(DurationOptionSchema, 'Created'), 409: jsonResponse(z.object({ error: z.string(), code: z.string() }), 'Already in the catalogue') },
});

const updateRoute = <M extends 'put' | 'patch'>(method: M) => defineRoute({
  method, path: '/appointment-duration-options/{id}', access: GLOBAL_ADMIN, tags,
  summary: method === 'put' ? 'Change a catalogue duration (company defaults of that value move along)' : 'Alias of PUT',
  request: { params: IdParam, body: jsonBody(DurationOptionBody) },
  responses: { 200: jsonResponse(DurationOptionSchema, 'Updated'), 409: jsonResponse(z.object({ error: z.string(), code: z.string() }), 'Already in the catalogue') },
});
const put = updateRoute('put');
const patch = updateRoute('patch');

const remove = defineRoute({
  method: 'delete', path: '/appointment-duration-options/{id}', access: GLOBAL_ADMIN, tags,
  summary: 'Remove a catalogue duration (and from every company offering it); refused while it is a company\'s default',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' }, 409: jsonResponse(z.object({ error: z.string(), code: z.string() }), 'Some company\'s default') },
});

async function updateOne(c: Context<AppEnv>, id: number, minutes: number) {
  const { db } = c.get('deps');
  try {
    return await db.transaction().execute(async (trx) => {
      const option = await findDurationOption(trx, id);
      if (!option) throw notFound(NOT_FOUND);
      if (option.duration_minutes === minutes) return option;
      if (await findDurationOptionByMinutes(trx, minutes)) throw duplicate(minutes);
      return changeDurationOption(trx, option, minutes);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate(minutes);
    throw err;
  }
}

export const durationOptionRoutes = createRouter()
  .openapi(list, async (c) => c.json(await listDurationOptions(c.get('deps').db), 200))
  .openapi(getOne, async (c) => {
    const option = await findDurationOption(c.get('deps').db, c.req.valid('param').id);
    if (!option) throw notFound(NOT_FOUND);
    return c.json(option, 200);
  })
  .openapi(create, async (c) => {
    const { duration_minutes } = c.req.valid('json');
    try {
      return c.json(await insertDurationOption(c.get('deps').db, duration_minutes), 201);
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate(duration_minutes);
      throw err;
    }
  })
  .openapi(put, async (c) => c.json(await updateOne(c, c.req.valid('param').id, c.req.valid('json').duration_minutes), 200))
  .openapi(patch, async (c) => c.json(await updateOne(c, c.req.valid('param').id, c.req.valid('json').duration_minutes), 200))
  .openapi(remove, async (c) => {
    const { db } = c.get('deps');
    await db.transaction().execute(async (trx) => {
      const option = await findDurationOption(trx, c.req.valid('param').id);
      if (!option) throw notFound(NOT_FOUND);
      const defaults = await companiesDefaultingTo(trx, option);
      if (defaults > 0) {
        throw new AppError('conflict', `${option.duration_minutes} minutes is the default duration of ${defaults} ${defaults === 1 ? 'company' : 'companies'}; change their default first`);
      }
      await deleteDurationOption(trx, option.id);
    });
    return c.body(null, 204);
  });
