// Who made a write, as the audit log records it (docs/decisions/31-audit-log.md). Routes build it
// from the request and pass it to services as a plain object, so services never see Hono.
import type { Context } from 'hono';
import type { AppEnv } from './context.ts';

export interface AuditContext {
  actor_user_id: number | null;
  /** The caller's role; 'customer' for a signed-in customer, null for an anonymous caller. */
  actor_role: string | null;
  ip: string | null;
  request_id: string | null;
}

/** Writes no request made (seeds, the outbox, tests): recorded with no actor. */
export const SYSTEM_AUDIT: AuditContext = { actor_user_id: null, actor_role: null, ip: null, request_id: null };

export function auditContext(c: Context<AppEnv>): AuditContext {
  const actor = c.get('actor');
  // The request id middleware (docs/decisions/29-input-rate-limits-request-ids.md) sets it; read
  // tolerantly so an app built without it still records the rest.
  const requestId = (c.var as { requestId?: string }).requestId ?? null;
  return {
    actor_user_id: actor?.id ?? null,
    actor_role: actor?.role ?? null,
    ip: c.get('clientIp') ?? null,
    request_id: requestId,
  };
}
