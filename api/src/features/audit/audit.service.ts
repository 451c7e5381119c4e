// Who may read which audit entries (docs/decisions/12-operations-security-privacy.md): a company's admins their company's, global_admin
// any company's and the company-less ones (failed logins for unknown emails). Nothing here writes.
import type { DbOrTx } from '@bookwell/db';
import type { Actor } from '../../lib/context.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { listAuditEntries } from './audit.repository.ts';
import { AUDIT_PAGE_DEFAULT, type AuditEntryDto, type AuditLogQueryInput } from './audit.schema.ts';

export async function readAuditLog(db: DbOrTx, actor: Actor, q: AuditLogQueryInput): Promise<AuditEntryDto[]> {
  let companyId = q.company_id;
  if (actor.role !== 'global_admin') {
    if (actor.role !== 'admin' || actor.company_id == null) throw forbidden();
    // Another company's log does not exist for this caller.
    if (companyId !== undefined && companyId !== actor.company_id) throw notFound('Company not found');
    companyId = actor.company_id;
  }
  return listAuditEntries(db, {
    company_id: companyId,
    entity: q.entity,
    entity_id: q.entity_id,
    before: q.before,
    limit: q.limit ?? AUDIT_PAGE_DEFAULT,
  });
}
