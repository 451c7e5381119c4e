// The service type endpoints: public catalogue reads, and writes by the company's admins and managers.
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import type { AppEnv } from '../../lib/context.ts';
import {
  COMPANY_ADMINS_OR_GLOBAL, actingCompanyId, assertCompanyAccess, currentActor, readCompanyId, seesCompanyInternals,
} from '../../lib/authorize.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { IdParam } from '../../lib/validation.ts';
import { findCompanyById } from '../companies/company.repository.ts';
import { toServiceTypeDto } from './service-type.mapper.ts';
import {
  findServiceType, insertServiceType, listActiveServiceTypes, lockServiceType, removeServiceType, updateServiceType,
} from './service-type.repository.ts';
import {
  CreateServiceTypeBody, ServiceTypeListQuery, ServiceTypeSchema, ServiceTypeWriteResult, UpdateServiceTypeBody,
  type UpdateServiceTypeInput,
} from './service-type.schema.ts';

const NOT_FOUND = 'Service type not found';
const tags = ['service-types'];

const list = defineRoute({
  method: 'get', path: '/service-types', access: 'public', tags,
  summary: 'A company\'s active service types (hidden prices are null for anyone outside the company)',
  request: { query: ServiceTypeListQuery },
  responses: { 200: jsonResponse(z.array(ServiceTypeSchema), 'Service types, by name') },
});

const getOne = defineRoute({
  method: 'get', path: '/service-types/{id}', access: 'public', tags,
  summary: 'One service type (archived ones only for the company\'s staff)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(ServiceTypeSchema, 'The service type') },
});

const create = defineRoute({
  method: 'post', path: '/service-types', access: COMPANY_ADMINS_OR_GLOBAL, tags, summary: 'Add a service type',
  request: { body: jsonBody(CreateServiceTypeBody) },
  responses: { 201: jsonResponse(ServiceTypeWriteResult, 'Created') },
});

const updateRoute = <M extends 'put' | 'patch'>(method: M) => defineRoute({
  method, path: '/service-types/{id}', access: COMPANY_ADMINS_OR_GLOBAL, tags,
  summary: method === 'put' ? 'Change a service type (partial: fields left out keep their value)' : 'Alias of PUT',
  request: { params: IdParam, body: jsonBody(UpdateServiceTypeBody) },
  responses: { 200: jsonResponse(ServiceTypeWriteResult, 'Updated') },
});
const put = updateRoute('put');
const patch = updateRoute('patch');

const remove = defineRoute({
  method: 'delete', path: '/service-types/{id}', access: COMPANY_ADMINS_OR_GLOBAL, tags,
  summary: 'Delete a service type; archived instead when appointments refer to it',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted or archived' } },
});

async function updateOne(c: Context<AppEnv>, id: number, body: UpdateServiceTypeInput) {
  const { db, now } = c.get('deps');
  const actor = currentActor(c);
  const row = await findServiceType(db, id);
  if (!row || row.archived_at) throw notFound(NOT_FOUND);
  assertCompanyAccess(actor, row.company_id);
  const { company_id, ...changes } = body;
  if (company_id !== undefined && company_id !== row.company_id) throw badRequest('A service type cannot move to another company');
  const updated = Object.keys(changes).length ? await updateServiceType(db, id, changes, now()) : row;
  // Archived between our read and the update: it is gone as far as the caller is concerned.
  if (!updated) throw notFound(NOT_FOUND);
  return { message: 'Service type updated successfully', service_type: toServiceTypeDto(updated, true) };
}

export const serviceTypeRoutes = createRouter()
  .openapi(list, async (c) => {
    const { db } = c.get('deps');
    const actor = c.get('actor');
    const companyId = readCompanyId(actor, c.req.valid('query').company_id);
    if (!(await findCompanyById(db, companyId))) throw notFound('Company not found');
    const internal = seesCompanyInternals(actor, companyId);
    const rows = await listActiveServiceTypes(db, companyId);
    return c.json(rows.map((r) => toServiceTypeDto(r, internal)), 200);
  })
  .openapi(getOne, async (c) => {
    const { db } = c.get('deps');
    const actor = c.get('actor');
    const row = await findServiceType(db, c.req.valid('param').id);
    if (!row) throw notFound(NOT_FOUND);
    const internal = seesCompanyInternals(actor, row.company_id);
    if (row.archived_at && !internal) throw notFound(NOT_FOUND);
    return c.json(toServiceTypeDto(row, internal), 200);
  })
  .openapi(create, async (c) => {
    const { db, now } = c.get('deps');
    const actor = currentActor(c);
    const body = c.req.valid('json');
    const companyId = actingCompanyId(actor, body.company_id);
    if (!(await findCompanyById(db, companyId))) throw notFound('Company not found');
    const row = await insertServiceType(db, {
      company_id: companyId,
      name: body.name,
      duration_minutes: body.duration_minutes,
      price: body.price ?? null,
      hide_price: body.hide_price ?? false,
      available_slots: body.available_slots ?? 1,
    }, now());
    return c.json({ message: 'Service type created successfully', service_type: toServiceTypeDto(row, true) }, 201);
  })
  .openapi(put, async (c) => c.json(await updateOne(c, c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(patch, async (c) => c.json(await updateOne(c, c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(remove, async (c) => {
    const { db, now } = c.get('deps');
    const actor = currentActor(c);
    const id = c.req.valid('param').id;
    await db.transaction().execute(async (trx) => {
      const row = await lockServiceType(trx, id);
      if (!row || row.archived_at) throw notFound(NOT_FOUND);
      assertCompanyAccess(actor, row.company_id);
      await removeServiceType(trx, id, now());
    });
    return c.body(null, 204);
  });
