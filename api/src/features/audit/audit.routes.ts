// GET /api/audit-log (docs/decisions/12-operations-security-privacy.md, docs/decisions/31-audit-log.md): read only; no route changes an entry.
import { z } from '@hono/zod-openapi';
import { currentActor } from '../../lib/authorize.ts';
import { createRouter, defineRoute, jsonResponse } from '../../lib/openapi.ts';
import { AuditEntrySchema, AuditLogQuery } from './audit.schema.ts';
import { readAuditLog } from './audit.service.ts';

const list = defineRoute({
  method: 'get',
  path: '/audit-log',
  access: ['admin', 'global_admin'],
  tags: ['audit'],
  summary: "Audited writes and failed logins, newest first: a company's admins see their company's, global_admin any",
  request: { query: AuditLogQuery },
  responses: { 200: jsonResponse(z.array(AuditEntrySchema), 'Entries, newest first; page on with before=<last id>') },
});

export const auditRoutes = createRouter().openapi(list, async (c) =>
  c.json(await readAuditLog(c.get('deps').db, currentActor(c), c.req.valid('query')), 200),
);
