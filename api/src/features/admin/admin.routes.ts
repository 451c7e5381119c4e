// The global_admin calls: platform figures, every company with its counts and subscription, every
// person with their company, and the email export (JSON or spreadsheet-safe CSV).
import { auditContext } from '../../lib/audit-context.ts';
import { z } from '@hono/zod-openapi';
import { GLOBAL_ADMIN } from '../../lib/authorize.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { IdParam } from '../../lib/validation.ts';
import {
  AdminCompaniesQuery,
  AdminCompanySchema,
  AdminStatsSchema,
  AdminUserSchema,
  AdminUsersQuery,
  EmailExportSchema,
  ExportQuery,
  SubscriptionBody,
} from './admin.schema.ts';
import { changeSubscriptionExpiry, exportEmails as exportEmailList, listCompanies, listUsers, platformFigures } from './admin.service.ts';
import { emailListCsv, exportFileName } from './user-export.mapper.ts';

const stats = defineRoute({
  method: 'get',
  path: '/admin/stats',
  access: GLOBAL_ADMIN,
  tags: ['admin'],
  summary: 'Platform figures: companies (active = no expiry or expiry ahead; expired) and users',
  responses: { 200: jsonResponse(AdminStatsSchema, 'Figures') },
});

const companies = defineRoute({
  method: 'get',
  path: '/admin/companies',
  access: GLOBAL_ADMIN,
  tags: ['admin'],
  summary: 'Every company with its user count (staff and customers), appointment count and subscription',
  request: { query: AdminCompaniesQuery },
  responses: { 200: jsonResponse(z.array(AdminCompanySchema), 'Companies, by name') },
});

const subscription = defineRoute({
  method: 'put',
  path: '/admin/companies/{id}/subscription',
  access: GLOBAL_ADMIN,
  owner: 'companies',
  tags: ['admin'],
  summary: "Set a company's subscription expiry (null: never expires); holds until the next Stripe event for that company",
  request: { params: IdParam, body: jsonBody(SubscriptionBody) },
  responses: { 200: jsonResponse(AdminCompanySchema, 'The company') },
});

const users = defineRoute({
  method: 'get',
  path: '/admin/users',
  access: GLOBAL_ADMIN,
  tags: ['admin'],
  summary: 'Every person with their company name and appointment count (as customer or employee); search matches name, email or company',
  request: { query: AdminUsersQuery },
  responses: { 200: jsonResponse(z.array(AdminUserSchema), 'People') },
});

const exportEmails = defineRoute({
  method: 'get',
  path: '/admin/users/export',
  access: GLOBAL_ADMIN,
  tags: ['admin'],
  summary: 'Email list as JSON {count, emails} or as a CSV file (email,name,role,company_name; formula-like cells neutralised)',
  request: { query: ExportQuery },
  responses: {
    200: {
      description: 'The list',
      content: {
        'application/json': { schema: EmailExportSchema },
        'text/csv': {
          schema: z.string().openapi({ example: "email,name,role,company_name\r\nann@example.com,Ann,admin,Ann's Salon\r\n" }),
        },
      },
    },
  },
});

export const adminRoutes = createRouter()
  .openapi(stats, async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await platformFigures(db, now()), 200);
  })
  .openapi(companies, async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await listCompanies(db, c.req.valid('query').search, now()), 200);
  })
  .openapi(subscription, async (c) => {
    const { db, now } = c.get('deps');
    return c.json(
      await changeSubscriptionExpiry(db, c.req.valid('param').id, c.req.valid('json').subscription_expires_at, now(), auditContext(c)),
      200,
    );
  })
  .openapi(users, async (c) => c.json(await listUsers(c.get('deps').db, c.req.valid('query')), 200))
  .openapi(exportEmails, async (c) => {
    const { db, now } = c.get('deps');
    const q = c.req.valid('query');
    const at = now();
    const rows = await exportEmailList(db, { role: q.role, activeOnly: q.active_only === 'true' }, at);
    if (q.format === 'csv') {
      return c.body(emailListCsv(rows), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${exportFileName(at)}"`,
        'Cache-Control': 'no-store',
      });
    }
    return c.json({ count: rows.length, emails: rows }, 200);
  });
