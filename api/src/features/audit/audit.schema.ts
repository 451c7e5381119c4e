// Request and response shapes of the audit log (docs/decisions/12-operations-security-privacy.md, docs/decisions/31-audit-log.md).
import { z } from '@hono/zod-openapi';
import { queryId } from '../../lib/validation.ts';

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

export const AuditLogQuery = z.object({
  company_id: queryId('company_id').optional().openapi({
    description: "Company admins: their own (the default). global_admin: any; left out, every company's and the company-less entries",
  }),
  entity: z
    .string()
    .regex(/^[a-z_]{1,40}$/, 'entity must be an entity name such as appointment')
    .optional()
    .openapi({ example: 'appointment' }),
  entity_id: queryId('entity_id').optional(),
  before: queryId('before').optional().openapi({ description: 'Only entries older than this entry id (the last id of the previous page)' }),
  limit: z.coerce
    .number({ message: 'limit must be an integer' })
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(AUDIT_PAGE_MAX, `limit must be at most ${AUDIT_PAGE_MAX}`)
    .optional()
    .openapi({ description: `Entries per page (default ${AUDIT_PAGE_DEFAULT})` }),
});

const Change = z.object({ old: z.unknown().optional(), new: z.unknown().optional() });

export const AuditEntrySchema = z
  .object({
    id: z.number().int(),
    at: z.string().openapi({ example: '2026-11-25T09:30:00.000Z' }),
    actor_user_id: z.number().int().nullable(),
    actor_role: z.string().nullable(),
    actor_name: z
      .string()
      .nullable()
      .openapi({ description: "The actor's current name (null: anonymous, the system, or a person since removed)" }),
    company_id: z.number().int().nullable(),
    action: z.string().openapi({ example: 'update' }),
    entity: z.string().openapi({ example: 'appointment' }),
    entity_id: z.number().int().nullable(),
    changes: z.record(z.string(), Change).nullable().openapi({
      description: 'Changed fields: {old, new}; a created row only new, a deleted one only old. Never a password, token, hash or nonce',
    }),
    ip: z.string().nullable(),
    request_id: z.string().nullable(),
  })
  .openapi('AuditEntry');

export type AuditEntryDto = z.infer<typeof AuditEntrySchema>;
export type AuditLogQueryInput = z.infer<typeof AuditLogQuery>;
