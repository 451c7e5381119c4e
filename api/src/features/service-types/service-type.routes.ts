// The service type endpoints: public catalogue reads, and writes by the company's admins and managers.
import { auditContext, type AuditContext } from '../../lib/audit-context.ts';
import { z } from '@hono/zod-openapi';
import { COMPANY_ADMINS_OR_GLOBAL, currentActor } from '../../lib/authorize.ts';
import { createRouter, defineRoute, definePutAndPatch, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import type { Actor, AppDeps } from '../../lib/context.ts';
import { IdParam } from '../../lib/validation.ts';
import {
  CreateServiceTypeBody,
  ServiceTypeListQuery,
  ServiceTypeSchema,
  ServiceTypeWriteResult,
  UpdateServiceTypeBody,
  type UpdateServiceTypeInput,
} from './service-type.schema.ts';
import { addServiceType, changeServiceType, deleteServiceType, getServiceType, listServiceTypes } from './service-type.service.ts';

const tags = ['service-types'];

const list = defineRoute({
  method: 'get',
  path: '/service-types',
  access: 'public',
  tags,
  summary: "A company's active service types (hidden prices are null for anyone outside the company)",
  request: { query: ServiceTypeListQuery },
  responses: { 200: jsonResponse(z.array(ServiceTypeSchema), 'Service types, by name') },
});

const getOne = defineRoute({
  method: 'get',
  path: '/service-types/{id}',
  access: 'public',
  tags,
  summary: "One service type (archived ones only for the company's staff)",
  request: { params: IdParam },
  responses: { 200: jsonResponse(ServiceTypeSchema, 'The service type') },
});

const create = defineRoute({
  method: 'post',
  path: '/service-types',
  access: COMPANY_ADMINS_OR_GLOBAL,
  tags,
  summary: 'Add a service type',
  request: { body: jsonBody(CreateServiceTypeBody) },
  responses: { 201: jsonResponse(ServiceTypeWriteResult, 'Created') },
});

const update = definePutAndPatch({
  path: '/service-types/{id}',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'service_types',
  tags,
  summary: 'Change a service type (partial: fields left out keep their value)',
  request: { params: IdParam, body: jsonBody(UpdateServiceTypeBody) },
  responses: { 200: jsonResponse(ServiceTypeWriteResult, 'Updated') },
});

const remove = defineRoute({
  method: 'delete',
  path: '/service-types/{id}',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'service_types',
  tags,
  summary: 'Delete a service type; archived instead when appointments refer to it',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted or archived' } },
});

async function updated(deps: AppDeps, actor: Actor, id: number, body: UpdateServiceTypeInput, who: AuditContext) {
  return {
    message: 'Service type updated successfully',
    service_type: await changeServiceType(deps.db, deps.database.dialect, actor, id, body, deps.now(), who),
  };
}

export const serviceTypeRoutes = createRouter()
  .openapi(list, async (c) => c.json(await listServiceTypes(c.get('deps').db, c.get('actor'), c.req.valid('query').company_id), 200))
  .openapi(getOne, async (c) => c.json(await getServiceType(c.get('deps').db, c.get('actor'), c.req.valid('param').id), 200))
  .openapi(create, async (c) => {
    const { db, now } = c.get('deps');
    const service_type = await addServiceType(db, currentActor(c), c.req.valid('json'), now(), auditContext(c));
    return c.json({ message: 'Service type created successfully', service_type }, 201);
  })
  .openapi(update.put, async (c) =>
    c.json(await updated(c.get('deps'), currentActor(c), c.req.valid('param').id, c.req.valid('json'), auditContext(c)), 200),
  )
  .openapi(update.patch, async (c) =>
    c.json(await updated(c.get('deps'), currentActor(c), c.req.valid('param').id, c.req.valid('json'), auditContext(c)), 200),
  )
  .openapi(remove, async (c) => {
    const { db, now } = c.get('deps');
    await deleteServiceType(db, currentActor(c), c.req.valid('param').id, now(), auditContext(c));
    return c.body(null, 204);
  });
