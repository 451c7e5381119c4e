// The durations each company offers and its default: public reads (the booking page needs them),
// writes by the company's admins and managers. The default is always one of the offered durations.
import { auditContext } from '../../lib/audit-context.ts';
import { z } from '@hono/zod-openapi';
import { COMPANY_ADMINS_OR_GLOBAL, currentActor } from '../../lib/authorize.ts';
import { createRouter, defineRoute, definePutAndPatch, errorResponse, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { IdParam } from '../../lib/validation.ts';
import {
  changeDefault,
  changeOffered,
  getDefault,
  getDefaultOfCompany,
  getOffered,
  listDefaults,
  listOffered,
  offerDuration,
  removeDefault,
  setDefault,
  stopOffering,
} from './duration.service.ts';
import {
  CompanyDurationDefaultSchema,
  CompanyDurationOptionSchema,
  CompanyIdParam,
  CompanyIdQuery,
  CreateCompanyDurationDefaultBody,
  CreateCompanyDurationOptionBody,
  UpdateCompanyDurationDefaultBody,
  UpdateCompanyDurationOptionBody,
} from './duration.schema.ts';

const tags = ['durations'];

const listOptions = defineRoute({
  method: 'get',
  path: '/company-duration-options',
  access: 'public',
  tags,
  summary: 'The durations a company offers',
  request: { query: CompanyIdQuery },
  responses: { 200: jsonResponse(z.array(CompanyDurationOptionSchema), 'Shortest first') },
});
const getOption = defineRoute({
  method: 'get',
  path: '/company-duration-options/{id}',
  access: 'public',
  tags,
  summary: 'One offered duration',
  request: { params: IdParam },
  responses: { 200: jsonResponse(CompanyDurationOptionSchema, 'The offered duration') },
});
const createOption = defineRoute({
  method: 'post',
  path: '/company-duration-options',
  access: COMPANY_ADMINS_OR_GLOBAL,
  tags,
  summary: 'Offer a catalogue duration (by appointment_duration_option_id or duration_minutes)',
  request: { body: jsonBody(CreateCompanyDurationOptionBody) },
  responses: { 201: jsonResponse(CompanyDurationOptionSchema, 'Offered'), 409: errorResponse('Already offered') },
});
const updateOption = definePutAndPatch({
  path: '/company-duration-options/{id}',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'company_duration_options',
  tags,
  summary: 'Offer another catalogue duration instead',
  request: { params: IdParam, body: jsonBody(UpdateCompanyDurationOptionBody) },
  responses: { 200: jsonResponse(CompanyDurationOptionSchema, 'Updated'), 409: errorResponse('Already offered, or the company default') },
});
const removeOption = defineRoute({
  method: 'delete',
  path: '/company-duration-options/{id}',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'company_duration_options',
  tags,
  summary: 'Stop offering a duration (refused while it is the company default)',
  request: { params: IdParam },
  responses: { 204: { description: 'Removed' }, 409: errorResponse('The company default') },
});

const listDefaultRows = defineRoute({
  method: 'get',
  path: '/company-duration-defaults',
  access: 'public',
  tags,
  summary: "A company's default duration (zero or one row)",
  request: { query: CompanyIdQuery },
  responses: { 200: jsonResponse(z.array(CompanyDurationDefaultSchema), 'Rows') },
});
const getDefaultRow = defineRoute({
  method: 'get',
  path: '/company-duration-defaults/{id}',
  access: 'public',
  tags,
  summary: 'One default row',
  request: { params: IdParam },
  responses: { 200: jsonResponse(CompanyDurationDefaultSchema, 'The default') },
});
const getCompanyDefault = defineRoute({
  method: 'get',
  path: '/company-duration-defaults/company/{companyId}',
  access: 'public',
  tags,
  summary: "A company's default duration",
  request: { params: CompanyIdParam },
  responses: { 200: jsonResponse(CompanyDurationDefaultSchema, 'The default') },
});
const createDefault = defineRoute({
  method: 'post',
  path: '/company-duration-defaults',
  access: COMPANY_ADMINS_OR_GLOBAL,
  tags,
  summary: 'Set the company default (one per company: updates the existing row)',
  request: { body: jsonBody(CreateCompanyDurationDefaultBody) },
  responses: {
    201: jsonResponse(CompanyDurationDefaultSchema, 'Created'),
    200: jsonResponse(CompanyDurationDefaultSchema, 'Updated the existing default'),
  },
});
const updateDefault = definePutAndPatch({
  path: '/company-duration-defaults/{id}',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'company_duration_defaults',
  tags,
  summary: 'Change the company default',
  request: { params: IdParam, body: jsonBody(UpdateCompanyDurationDefaultBody) },
  responses: { 200: jsonResponse(CompanyDurationDefaultSchema, 'Updated') },
});
const removeDefaultRow = defineRoute({
  method: 'delete',
  path: '/company-duration-defaults/{id}',
  access: COMPANY_ADMINS_OR_GLOBAL,
  owner: 'company_duration_defaults',
  tags,
  summary: 'Remove the company default',
  request: { params: IdParam },
  responses: { 204: { description: 'Removed' } },
});

export const companyDurationRoutes = createRouter()
  .openapi(listOptions, async (c) => c.json(await listOffered(c.get('deps').db, c.get('actor'), c.req.valid('query').company_id), 200))
  .openapi(getOption, async (c) => c.json(await getOffered(c.get('deps').db, c.req.valid('param').id), 200))
  .openapi(createOption, async (c) =>
    c.json(await offerDuration(c.get('deps').db, currentActor(c), c.req.valid('json'), auditContext(c)), 201),
  )
  .openapi(updateOption.put, async (c) =>
    c.json(await changeOffered(c.get('deps').db, currentActor(c), c.req.valid('param').id, c.req.valid('json'), auditContext(c)), 200),
  )
  .openapi(updateOption.patch, async (c) =>
    c.json(await changeOffered(c.get('deps').db, currentActor(c), c.req.valid('param').id, c.req.valid('json'), auditContext(c)), 200),
  )
  .openapi(removeOption, async (c) => {
    await stopOffering(c.get('deps').db, currentActor(c), c.req.valid('param').id, auditContext(c));
    return c.body(null, 204);
  })
  .openapi(listDefaultRows, async (c) => c.json(await listDefaults(c.get('deps').db, c.get('actor'), c.req.valid('query').company_id), 200))
  .openapi(getDefaultRow, async (c) => c.json(await getDefault(c.get('deps').db, c.req.valid('param').id), 200))
  .openapi(getCompanyDefault, async (c) => c.json(await getDefaultOfCompany(c.get('deps').db, c.req.valid('param').companyId), 200))
  .openapi(createDefault, async (c) => {
    const { row, created } = await setDefault(c.get('deps').db, currentActor(c), c.req.valid('json'), auditContext(c));
    return created ? c.json(row, 201) : c.json(row, 200);
  })
  .openapi(updateDefault.put, async (c) =>
    c.json(await changeDefault(c.get('deps').db, currentActor(c), c.req.valid('param').id, c.req.valid('json'), auditContext(c)), 200),
  )
  .openapi(updateDefault.patch, async (c) =>
    c.json(await changeDefault(c.get('deps').db, currentActor(c), c.req.valid('param').id, c.req.valid('json'), auditContext(c)), 200),
  )
  .openapi(removeDefaultRow, async (c) => {
    await removeDefault(c.get('deps').db, currentActor(c), c.req.valid('param').id, auditContext(c));
    return c.body(null, 204);
  });
