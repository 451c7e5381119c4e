// The company calls: public profiles and listing, members' settings, and global_admin's create and delete.
import { auditContext } from '../../lib/audit-context.ts';
import { z, type RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../lib/context.ts';
import { COMPANY_ADMINS_OR_GLOBAL, GLOBAL_ADMIN, currentActor } from '../../lib/authorize.ts';
import { createRouter, defineRoute, definePutAndPatch, errorResponse, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { IdParam } from '../../lib/validation.ts';
import { CompanySchema, CompanyViewSchema } from './company.mapper.ts';
import { CompanyListQuery, CreateCompanyBody, SlugParam, UpdateCompanyBody } from './company.schema.ts';
import { changeCompanySettings, companiesFor, companyViewFor, createCompanyWithSettings, removeCompany } from './company.service.ts';

const listCompanies = defineRoute({
  method: 'get',
  path: '/companies',
  access: 'public',
  tags: ['companies'],
  summary: 'Anonymous: listed companies taking bookings (public fields). Members: their own company. global_admin: all, searchable',
  request: { query: CompanyListQuery },
  responses: { 200: jsonResponse(z.array(CompanyViewSchema), 'Companies') },
});

const getCompany = defineRoute({
  method: 'get',
  path: '/companies/{id}',
  access: 'public',
  tags: ['companies'],
  summary: 'A company: public fields, or the full view for its members and global_admin',
  request: { params: IdParam },
  responses: { 200: jsonResponse(CompanyViewSchema, 'The company') },
});

const getCompanyBySlug = defineRoute({
  method: 'get',
  path: '/companies/slug/{slug}',
  access: 'public',
  tags: ['companies'],
  summary: 'A company by its booking-link slug: public fields, or the full view for its members and global_admin',
  request: { params: SlugParam },
  responses: { 200: jsonResponse(CompanyViewSchema, 'The company') },
});

const createCompanyRoute = defineRoute({
  method: 'post',
  path: '/companies',
  access: GLOBAL_ADMIN,
  tags: ['companies'],
  summary: 'Create a company (14-day trial, default duration options); add its admin with POST /users',
  request: { body: jsonBody(CreateCompanyBody) },
  responses: { 201: jsonResponse(CompanySchema, 'Created'), 409: errorResponse('Slug already taken') },
});

const updateCompany = definePutAndPatch({
  path: '/companies/{id}',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'companies',
  tags: ['companies'],
  summary: 'Change company settings (partial: fields left out keep their value)',
  request: { params: IdParam, body: jsonBody(UpdateCompanyBody) },
  responses: { 200: jsonResponse(CompanySchema, 'The updated company') },
});

const deleteCompany = defineRoute({
  method: 'delete',
  path: '/companies/{id}',
  access: GLOBAL_ADMIN,
  owner: 'companies',
  tags: ['companies'],
  summary: 'Remove a company and all of its data (people, appointments, services, hours, messages)',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' } },
});

export const companyRoutes = createRouter()
  .openapi(listCompanies, async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await companiesFor(db, c.get('actor'), c.req.valid('query').search, now()), 200);
  })
  .openapi(getCompany, async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await companyViewFor(db, c.get('actor'), { id: c.req.valid('param').id }, now()), 200);
  })
  .openapi(getCompanyBySlug, async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await companyViewFor(db, c.get('actor'), { slug: c.req.valid('param').slug }, now()), 200);
  })
  .openapi(createCompanyRoute, async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await createCompanyWithSettings(db, c.req.valid('json'), now(), auditContext(c)), 201);
  })
  .openapi(updateCompany.put, (c) => updateSettingsImpl(c))
  .openapi(updateCompany.patch, (c) => updateSettingsImpl(c))
  .openapi(deleteCompany, async (c) => {
    await removeCompany(c.get('deps').db, c.req.valid('param').id, auditContext(c));
    return c.body(null, 204);
  });

async function updateSettingsImpl(c: Parameters<RouteHandler<typeof updateCompany.put, AppEnv>>[0]) {
  const deps = c.get('deps');
  return c.json(
    await changeCompanySettings(deps, currentActor(c), c.req.valid('param').id, c.req.valid('json'), deps.now(), auditContext(c)),
    200,
  );
}
