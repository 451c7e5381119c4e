// The company calls: public profiles and listing, members' settings, and global_admin's create and delete.
import { z, type RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../lib/context.ts';
import { COMPANY_ADMINS_OR_GLOBAL, GLOBAL_ADMIN, assertCompanyAccess, currentActor } from '../../lib/authorize.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { anyContains } from '../../lib/text-search.ts';
import { IdParam } from '../../lib/validation.ts';
import { CompanySchema, CompanyViewSchema, toCompanyDto, toCompanyViewFor, toPublicCompanyDto } from './company.mapper.ts';
import { createCompany, findCompanyById, findCompanyBySlug, updateCompanySettings } from './company.repository.ts';
import { CompanyListQuery, CreateCompanyBody, SlugParam, UpdateCompanyBody } from './company.schema.ts';

const COMPANY_NOT_FOUND = 'Company not found';

const listCompanies = defineRoute({
  method: 'get', path: '/companies', access: 'public', tags: ['companies'],
  summary: 'Anonymous: listed companies taking bookings (public fields). Members: their own company. global_admin: all, searchable',
  request: { query: CompanyListQuery },
  responses: { 200: jsonResponse(z.array(CompanyViewSchema), 'Companies') },
});

const getCompany = defineRoute({
  method: 'get', path: '/companies/{id}', access: 'public', tags: ['companies'],
  summary: 'A company: public fields, or the full view for its members and global_admin',
  request: { params: IdParam },
  responses: { 200: jsonResponse(CompanyViewSchema, 'The company') },
});

const getCompanyBySlug = defineRoute({
  method: 'get', path: '/companies/slug/{slug}', access: 'public', tags: ['companies'],
  summary: 'A company by its booking-link slug: public fields, or the full view for its members and global_admin',
  request: { params: SlugParam },
  responses: { 200: jsonResponse(CompanyViewSchema, 'The company') },
});

const createCompanyRoute = defineRoute({
  method: 'post', path: '/companies', access: GLOBAL_ADMIN, tags: ['companies'],
  summary: 'Create a company (14-day trial, default duration options); add its admin with POST /users',
  request: { body: jsonBody(CreateCompanyBody) },
  responses: { 201: jsonResponse(CompanySchema, 'Created'), 409: jsonResponse(z.object({ error: z.string(), code: z.string() }), 'Slug already taken') },
});

const updateCompany = defineRoute({
  method: 'put', path: '/companies/{id}', access: COMPANY_ADMINS_OR_GLOBAL, tags: ['companies'],
  summary: 'Change company settings (partial: fields left out keep their value)',
  request: { params: IdParam, body: jsonBody(UpdateCompanyBody) },
  responses: { 200: jsonResponse(CompanySchema, 'The updated company') },
});
const patchCompany = defineRoute({
  method: 'patch', path: '/companies/{id}', access: COMPANY_ADMINS_OR_GLOBAL, tags: ['companies'],
  summary: 'Alias of PUT /companies/{id}',
  request: { params: IdParam, body: jsonBody(UpdateCompanyBody) },
  responses: { 200: jsonResponse(CompanySchema, 'The updated company') },
});

const deleteCompany = defineRoute({
  method: 'delete', path: '/companies/{id}', access: GLOBAL_ADMIN, tags: ['companies'],
  summary: 'Remove a company and all of its data (people, appointments, services, hours, messages)',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' } },
});

export const companyRoutes = createRouter()
  .openapi(listCompanies, async (c) => {
    const { db, now } = c.get('deps');
    const actor = c.get('actor');
    const { search } = c.req.valid('query');
    const at = now();
    let query = db.selectFrom('companies').selectAll().orderBy('name').orderBy('id');
    if (!actor) {
      // Only businesses that chose to be listed and can take a booking right now.
      query = query.where('listed_publicly', '=', 1)
        .where((eb) => eb.or([eb('subscription_expires_at', 'is', null), eb('subscription_expires_at', '>', at.toISOString())]));
      if (search) query = query.where(anyContains(['name', 'slug'], search));
      return c.json((await query.execute()).map((row) => toPublicCompanyDto(row, at)), 200);
    }
    if (actor.role !== 'global_admin') {
      if (actor.company_id == null) return c.json([], 200);
      query = query.where('id', '=', actor.company_id);
    }
    if (search) query = query.where(anyContains(['name', 'email', 'slug'], search));
    return c.json((await query.execute()).map((row) => toCompanyDto(row, at)), 200);
  })
  .openapi(getCompany, async (c) => {
    const { db, now } = c.get('deps');
    const company = await findCompanyById(db, c.req.valid('param').id);
    if (!company) throw notFound(COMPANY_NOT_FOUND);
    return c.json(toCompanyViewFor(c.get('actor'), company, now()), 200);
  })
  .openapi(getCompanyBySlug, async (c) => {
    const { db, now } = c.get('deps');
    const company = await findCompanyBySlug(db, c.req.valid('param').slug);
    if (!company) throw notFound(COMPANY_NOT_FOUND);
    return c.json(toCompanyViewFor(c.get('actor'), company, now()), 200);
  })
  .openapi(createCompanyRoute, async (c) => {
    const { db, now } = c.get('deps');
    const { name, email, slug, timezone, ...settings } = c.req.valid('json');
    const at = now();
    if (slug && (await findCompanyBySlug(db, slug))) throw slugTaken();
    try {
      const company = await db.transaction().execute(async (trx) => {
        const created = await createCompany(trx, { name, email, slug, timezone }, at);
        return (await updateCompanySettings(trx, created.id, settings, at))!;
      });
      return c.json(toCompanyDto(company, at), 201);
    } catch (err) {
      if (isUniqueViolation(err)) throw slugTaken();
      throw err;
    }
  })
  .openapi(updateCompany, (c) => updateSettingsImpl(c))
  .openapi(patchCompany, (c) => updateSettingsImpl(c))
  .openapi(deleteCompany, async (c) => {
    const { db } = c.get('deps');
    const { id } = c.req.valid('param');
    // Foreign keys cascade from the company to everything it owns.
    const res = await db.deleteFrom('companies').where('id', '=', id).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw notFound(COMPANY_NOT_FOUND);
    return c.body(null, 204);
  });

function slugTaken() {
  return new AppError('conflict', 'This slug is already taken', { status: 409 });
}

async function updateSettingsImpl(c: Parameters<RouteHandler<typeof updateCompany, AppEnv>>[0]) {
  const { db, now } = c.get('deps');
  const actor = currentActor(c);
  const { id } = c.req.valid('param');
  assertCompanyAccess(actor, id);
  const at = now();
  const updated = await updateCompanySettings(db, id, c.req.valid('json'), at);
  if (!updated) throw notFound(COMPANY_NOT_FOUND);
  return c.json(toCompanyDto(updated, at), 200);
}
