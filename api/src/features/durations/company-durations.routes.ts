// The durations each company offers and its default: public reads (the booking page needs them),
// writes by the company's admins and managers. The default is always one of the offered durations.
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@bookwell/db';
import type { AppEnv } from '../../lib/context.ts';
import { COMPANY_ADMINS_OR_GLOBAL, actingCompanyId, assertCompanyAccess, currentActor, readCompanyId } from '../../lib/authorize.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { IdParam } from '../../lib/validation.ts';
import { findCompanyById } from '../companies/company.repository.ts';
import {
  changeCompanyDurationOption, companyOffersDuration, deleteCompanyDurationDefault, deleteCompanyDurationOption,
  findCompanyDurationDefault, findCompanyDurationOption, findDefaultOfCompany, findDurationOption, findDurationOptionByMinutes,
  insertCompanyDurationOption, listCompanyDurationDefaults, listCompanyDurationOptions, lockCompanyDurations, setCompanyDefault,
  type CompanyDurationOption, type DurationOption,
} from './duration.repository.ts';
import {
  CompanyDurationDefaultSchema, CompanyDurationOptionSchema, CompanyIdParam, CompanyIdQuery, CreateCompanyDurationDefaultBody,
  CreateCompanyDurationOptionBody, UpdateCompanyDurationDefaultBody, UpdateCompanyDurationOptionBody,
  type CompanyDurationOptionInput, type UpdateCompanyDurationDefaultInput,
} from './duration.schema.ts';

const OPTION_NOT_FOUND = 'Company duration option not found';
const DEFAULT_NOT_FOUND = 'Company duration default not found';
const COMPANY_NOT_FOUND = 'Company not found';
const NOT_OFFERED = 'The default duration must be one of the durations the company offers';
const tags = ['durations'];
const Conflict = z.object({ error: z.string(), code: z.string() });

// ---------------------------------------------------------------------------
// Route declarations

const listOptions = defineRoute({
  method: 'get', path: '/company-duration-options', access: 'public', tags, summary: 'The durations a company offers',
  request: { query: CompanyIdQuery },
  responses: { 200: jsonResponse(z.array(CompanyDurationOptionSchema), 'Shortest first') },
});
const getOption = defineRoute({
  method: 'get', path: '/company-duration-options/{id}', access: 'public', tags, summary: 'One offered duration',
  request: { params: IdParam },
  responses: { 200: jsonResponse(CompanyDurationOptionSchema, 'The offered duration') },
});
const createOption = defineRoute({
  method: 'post', path: '/company-duration-options', access: COMPANY_ADMINS_OR_GLOBAL, tags,
  summary: 'Offer a catalogue duration (by appointment_duration_option_id or duration_minutes)',
  request: { body: jsonBody(CreateCompanyDurationOptionBody) },
  responses: { 201: jsonResponse(CompanyDurationOptionSchema, 'Offered'), 409: jsonResponse(Conflict, 'Already offered') },
});
const updateOptionRoute = <M extends 'put' | 'patch'>(method: M) => defineRoute({
  method, path: '/company-duration-options/{id}', access: COMPANY_ADMINS_OR_GLOBAL, tags,
  summary: method === 'put' ? 'Offer another catalogue duration instead' : 'Alias of PUT',
  request: { params: IdParam, body: jsonBody(UpdateCompanyDurationOptionBody) },
  responses: { 200: jsonResponse(CompanyDurationOptionSchema, 'Updated'), 409: jsonResponse(Conflict, 'Already offered, or the company default') },
});
const putOption = updateOptionRoute('put');
const patchOption = updateOptionRoute('patch');
const removeOption = defineRoute({
  method: 'delete', path: '/company-duration-options/{id}', access: COMPANY_ADMINS_OR_GLOBAL, tags,
  summary: 'Stop offering a duration (refused while it is the company default)',
  request: { params: IdParam },
  responses: { 204: { description: 'Removed' }, 409: jsonResponse(Conflict, 'The company default') },
});

const listDefaults = defineRoute({
  method: 'get', path: '/company-duration-defaults', access: 'public', tags, summary: 'A company\'s default duration (zero or one row)',
  request: { query: CompanyIdQuery },
  responses: { 200: jsonResponse(z.array(CompanyDurationDefaultSchema), 'Rows') },
});
const getDefault = defineRoute({
  method: 'get', path: '/company-duration-defaults/{id}', access: 'public', tags, summary: 'One default row',
  request: { params: IdParam },
  responses: { 200: jsonResponse(CompanyDurationDefaultSchema, 'The default') },
});
const getDefaultOfCompany = defineRoute({
  method: 'get', path: '/company-duration-defaults/company/{companyId}', access: 'public', tags, summary: 'A company\'s default duration',
  request: { params: CompanyIdParam },
  responses: { 200: jsonResponse(CompanyDurationDefaultSchema, 'The default') },
});
const createDefault = defineRoute({
  method: 'post', path: '/company-duration-defaults', access: COMPANY_ADMINS_OR_GLOBAL, tags,
  summary: 'Set the company default (one per company: updates the existing row)',
  request: { body: jsonBody(CreateCompanyDurationDefaultBody) },
  responses: { 201: jsonResponse(CompanyDurationDefaultSchema, 'Created'), 200: jsonResponse(CompanyDurationDefaultSchema, 'Updated the existing default') },
});
const updateDefaultRoute = <M extends 'put' | 'patch'>(method: M) => defineRoute({
  method, path: '/company-duration-defaults/{id}', access: COMPANY_ADMINS_OR_GLOBAL, tags,
  summary: method === 'put' ? 'Change the company default' : 'Alias of PUT',
  request: { params: IdParam, body: jsonBody(UpdateCompanyDurationDefaultBody) },
  responses: { 200: jsonResponse(CompanyDurationDefaultSchema, 'Updated') },
});
const putDefault = updateDefaultRoute('put');
const patchDefault = updateDefaultRoute('patch');
const removeDefault = defineRoute({
  method: 'delete', path: '/company-duration-defaults/{id}', access: COMPANY_ADMINS_OR_GLOBAL, tags, summary: 'Remove the company default',
  request: { params: IdParam },
  responses: { 204: { description: 'Removed' } },
});

// ---------------------------------------------------------------------------
// Rules

type Db = Kysely<Database> | Transaction<Database>;

/** The company a public read is about, which must exist. */
async function readableCompany(c: Context<AppEnv>, requested: number | undefined): Promise<number> {
  const companyId = readCompanyId(c.get('actor'), requested);
  if (!(await findCompanyById(c.get('deps').db, companyId))) throw notFound(COMPANY_NOT_FOUND);
  return companyId;
}

/** The catalogue entry a body names, by id or by minutes (both may be given if they agree). */
async function catalogueEntry(db: Db, body: CompanyDurationOptionInput): Promise<DurationOption> {
  const { appointment_duration_option_id: id, duration_minutes: minutes } = body;
  if (id === undefined && minutes === undefined) throw badRequest('appointment_duration_option_id is required');
  const option = id !== undefined ? await findDurationOption(db, id) : await findDurationOptionByMinutes(db, minutes!);
  if (!option) {
    throw id !== undefined
      ? badRequest('Unknown appointment_duration_option_id')
      : badRequest(`No duration option of ${minutes} minutes exists; a global administrator can add it`);
  }
  if (minutes !== undefined && option.duration_minutes !== minutes) throw badRequest('appointment_duration_option_id and duration_minutes disagree');
  return option;
}

const alreadyOffered = (minutes: number) => new AppError('conflict', `The company already offers ${minutes} minutes`);

/** An offered duration that is the company default cannot go: the default must stay one of the offered durations. */
async function assertNotTheDefault(db: Db, row: CompanyDurationOption): Promise<void> {
  const current = await findDefaultOfCompany(db, row.company_id);
  if (current && current.default_appointment_duration === row.duration_minutes) {
    throw new AppError('conflict', `${row.duration_minutes} minutes is the company's default duration; choose another default first`);
  }
}

async function updateOption(c: Context<AppEnv>, id: number, body: CompanyDurationOptionInput) {
  const { db } = c.get('deps');
  const actor = currentActor(c);
  const row = await findCompanyDurationOption(db, id);
  if (!row) throw notFound(OPTION_NOT_FOUND);
  assertCompanyAccess(actor, row.company_id);
  if (body.company_id !== undefined && body.company_id !== row.company_id) throw badRequest('An offered duration cannot move to another company');
  if (body.appointment_duration_option_id === undefined && body.duration_minutes === undefined) return row;
  const option = await catalogueEntry(db, body);
  if (option.id === row.appointment_duration_option_id) return row;
  try {
    return await db.transaction().execute(async (trx) => {
      await lockCompanyDurations(trx, row.company_id);
      const current = await findCompanyDurationOption(trx, id);
      if (!current) throw notFound(OPTION_NOT_FOUND);
      await assertNotTheDefault(trx, current);
      if (await companyOffersDuration(trx, row.company_id, option.duration_minutes)) throw alreadyOffered(option.duration_minutes);
      await changeCompanyDurationOption(trx, id, option.id);
      return (await findCompanyDurationOption(trx, id))!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyOffered(option.duration_minutes);
    throw err;
  }
}

async function updateDefault(c: Context<AppEnv>, id: number, body: UpdateCompanyDurationDefaultInput) {
  const { db } = c.get('deps');
  const actor = currentActor(c);
  const row = await findCompanyDurationDefault(db, id);
  if (!row) throw notFound(DEFAULT_NOT_FOUND);
  assertCompanyAccess(actor, row.company_id);
  if (body.company_id !== undefined && body.company_id !== row.company_id) throw badRequest('A default cannot move to another company');
  const minutes = body.default_appointment_duration;
  if (minutes === undefined || minutes === row.default_appointment_duration) return row;
  return db.transaction().execute(async (trx) => {
    await lockCompanyDurations(trx, row.company_id);
    if (!(await companyOffersDuration(trx, row.company_id, minutes))) throw badRequest(NOT_OFFERED);
    const { row: updated } = await setCompanyDefault(trx, row.company_id, minutes);
    return updated;
  });
}

// ---------------------------------------------------------------------------
// Handlers

export const companyDurationRoutes = createRouter()
  .openapi(listOptions, async (c) => {
    const companyId = await readableCompany(c, c.req.valid('query').company_id);
    return c.json(await listCompanyDurationOptions(c.get('deps').db, companyId), 200);
  })
  .openapi(getOption, async (c) => {
    const row = await findCompanyDurationOption(c.get('deps').db, c.req.valid('param').id);
    if (!row) throw notFound(OPTION_NOT_FOUND);
    return c.json(row, 200);
  })
  .openapi(createOption, async (c) => {
    const { db } = c.get('deps');
    const actor = currentActor(c);
    const body = c.req.valid('json');
    const companyId = actingCompanyId(actor, body.company_id);
    const option = await catalogueEntry(db, body);
    try {
      const row = await db.transaction().execute(async (trx) => {
        if (!(await lockCompanyDurations(trx, companyId))) throw notFound(COMPANY_NOT_FOUND);
        if (await companyOffersDuration(trx, companyId, option.duration_minutes)) throw alreadyOffered(option.duration_minutes);
        const id = await insertCompanyDurationOption(trx, companyId, option.id);
        return (await findCompanyDurationOption(trx, id))!;
      });
      return c.json(row, 201);
    } catch (err) {
      if (isUniqueViolation(err)) throw alreadyOffered(option.duration_minutes);
      throw err;
    }
  })
  .openapi(putOption, async (c) => c.json(await updateOption(c, c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(patchOption, async (c) => c.json(await updateOption(c, c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(removeOption, async (c) => {
    const { db } = c.get('deps');
    const actor = currentActor(c);
    const row = await findCompanyDurationOption(db, c.req.valid('param').id);
    if (!row) throw notFound(OPTION_NOT_FOUND);
    assertCompanyAccess(actor, row.company_id);
    await db.transaction().execute(async (trx) => {
      await lockCompanyDurations(trx, row.company_id);
      await assertNotTheDefault(trx, row);
      await deleteCompanyDurationOption(trx, row.id);
    });
    return c.body(null, 204);
  })
  .openapi(listDefaults, async (c) => {
    const companyId = await readableCompany(c, c.req.valid('query').company_id);
    return c.json(await listCompanyDurationDefaults(c.get('deps').db, companyId), 200);
  })
  .openapi(getDefault, async (c) => {
    const row = await findCompanyDurationDefault(c.get('deps').db, c.req.valid('param').id);
    if (!row) throw notFound(DEFAULT_NOT_FOUND);
    return c.json(row, 200);
  })
  .openapi(getDefaultOfCompany, async (c) => {
    const row = await findDefaultOfCompany(c.get('deps').db, c.req.valid('param').companyId);
    if (!row) throw notFound(DEFAULT_NOT_FOUND);
    return c.json(row, 200);
  })
  .openapi(createDefault, async (c) => {
    const { db } = c.get('deps');
    const actor = currentActor(c);
    const body = c.req.valid('json');
    const companyId = actingCompanyId(actor, body.company_id);
    const { row, created } = await db.transaction().execute(async (trx) => {
      if (!(await lockCompanyDurations(trx, companyId))) throw notFound(COMPANY_NOT_FOUND);
      if (!(await companyOffersDuration(trx, companyId, body.default_appointment_duration))) throw badRequest(NOT_OFFERED);
      return setCompanyDefault(trx, companyId, body.default_appointment_duration);
    });
    return created ? c.json(row, 201) : c.json(row, 200);
  })
  .openapi(putDefault, async (c) => c.json(await updateDefault(c, c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(patchDefault, async (c) => c.json(await updateDefault(c, c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(removeDefault, async (c) => {
    const { db } = c.get('deps');
    const actor = currentActor(c);
    const row = await findCompanyDurationDefault(db, c.req.valid('param').id);
    if (!row) throw notFound(DEFAULT_NOT_FOUND);
    assertCompanyAccess(actor, row.company_id);
    await deleteCompanyDurationDefault(db, row.id);
    return c.body(null, 204);
  });
