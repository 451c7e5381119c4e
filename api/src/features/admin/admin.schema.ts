// Request and response shapes of the global_admin calls: figures, companies, subscriptions, people and the email export.
import { z } from '@hono/zod-openapi';
import { ROLES } from '@bookwell/db';
import { Id } from '../../lib/validation.ts';
import { CompanySchema } from '../companies/company.mapper.ts';
import { UserSchema } from '../users/user.mapper.ts';

/** Query filters arrive as strings; an empty one (a form's "all") means no filter. */
const blankToUndefined = (v: unknown) => (v === '' || v === 'all' ? undefined : v);
const RoleFilter = z.preprocess(blankToUndefined, z.enum(ROLES, { message: `role must be one of ${ROLES.join(', ')}` }).optional());
const Search = z.string().trim().max(200, 'Search is too long').optional();

export const AdminStatsSchema = z
  .object({
    total_companies: z.number().int(),
    total_users: z.number().int(),
    active_companies: z.number().int(),
    expired_companies: z.number().int(),
  })
  .openapi('AdminStats');

export const AdminCompanySchema = CompanySchema.extend({
  user_count: z.number().int(),
  appointment_count: z.number().int(),
}).openapi('AdminCompany');

export const AdminUserSchema = UserSchema.extend({
  company_name: z.string().nullable(),
  appointment_count: z.number().int(),
}).openapi('AdminUser');

export const EmailExportSchema = z
  .object({
    count: z.number().int(),
    emails: z.array(z.object({ email: z.string(), name: z.string(), role: z.enum(ROLES), company_name: z.string().nullable() })),
  })
  .openapi('EmailExport');

export const AdminCompaniesQuery = z.object({ search: Search });

export const AdminUsersQuery = z.object({
  company_id: z.preprocess(blankToUndefined, Id.optional()),
  role: RoleFilter,
  search: Search,
});

export const ExportQuery = z.object({
  format: z.preprocess(blankToUndefined, z.enum(['json', 'csv'], { message: 'format must be json or csv' }).default('json')),
  role: RoleFilter,
  active_only: z.preprocess(blankToUndefined, z.enum(['true', 'false'], { message: 'active_only must be true or false' }).optional()),
});

export const SubscriptionBody = z
  .object({
    // A date-time with or without an offset (without one it is UTC, as the server's clock), or a
    // date alone: the subscription then runs to the end of that day, UTC.
    subscription_expires_at: z.preprocess(
      (v) => (v === '' ? null : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T23:59:59.999Z` : v),
      z.iso
        .datetime({
          offset: true,
          local: true,
          message: 'subscription_expires_at must be an ISO 8601 date-time (for example 2027-01-31T23:59:59Z), a date, or null',
        })
        .transform((v) => new Date(/(Z|[+-]\d{2}:?\d{2})$/i.test(v) ? v : `${v}Z`).toISOString())
        .nullable(),
    ),
  })
  .openapi('SubscriptionUpdate');
