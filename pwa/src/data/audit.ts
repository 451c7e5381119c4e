// The audit log (docs/decisions/31-audit-log.md): GET /audit-log, newest first, paged with
// before=<the last entry's id>. Read only; company admins get their company's, global_admin any.
import { useInfiniteQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';
import { dateTimeFormat } from '../lib/zoned-time.ts';

export type AuditEntry = InferResponseType<(typeof client)['audit-log']['$get'], 200>[number];

export const AUDIT_PAGE_SIZE = 25;

export const auditKeys = {
  all: ['audit-log'] as const,
  list: (companyId: number | null) => [...auditKeys.all, companyId] as const,
};

export function getAuditLog(q: { companyId: number | null; before?: number; limit?: number }, signal?: AbortSignal): Promise<AuditEntry[]> {
  const query: Record<string, string> = { limit: String(q.limit ?? AUDIT_PAGE_SIZE) };
  if (q.companyId !== null) query.company_id = String(q.companyId);
  if (q.before !== undefined) query.before = String(q.before);
  return rpc(client['audit-log'].$get({ query }, { init: { signal } }));
}

/** Pages of entries; companyId null: every company (global_admin). A short page is the last one. */
export function useAuditLog(companyId: number | null) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(companyId),
    queryFn: ({ pageParam, signal }) => getAuditLog({ companyId, before: pageParam }, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: AuditEntry[]) => (last.length < AUDIT_PAGE_SIZE ? undefined : last[last.length - 1]!.id),
    // Always fetched fresh: the log is what just happened.
    staleTime: 0,
    meta: { errorBanner: false },
  });
}

const ACTION_WORDS: Record<string, string> = {
  create: 'created',
  update: 'changed',
  delete: 'deleted',
  archive: 'archived',
  cancel: 'cancelled',
  change_role: 'changed the role of',
  register: 'registered',
  login_failed: 'failed sign-in for',
  change_password: 'changed the password of',
  set_password: 'set the password of',
  erase: 'erased',
  export: 'exported the data of',
  end: 'ended',
};

const ENTITY_WORDS: Record<string, string> = {
  appointment: 'appointment',
  user: 'person',
  company: 'company settings',
  operating_hours: 'opening hours',
  date_override: 'date override',
  service_type: 'service',
  duration_option: 'offered duration',
  duration_default: 'default duration',
  subscription: 'subscription',
};

/** "changed appointment #12": the entry's action on its entity in words. */
export function describeAudit(e: Pick<AuditEntry, 'action' | 'entity' | 'entity_id'>): string {
  const verb = ACTION_WORDS[e.action] ?? e.action.replace(/_/g, ' ');
  const noun = ENTITY_WORDS[e.entity] ?? e.entity.replace(/_/g, ' ');
  return `${verb} ${noun}${e.entity_id !== null ? ` #${e.entity_id}` : ''}`;
}

/** Who did it, in words. */
export function auditActor(e: Pick<AuditEntry, 'actor_user_id' | 'actor_name' | 'actor_role'>): string {
  if (e.actor_name) return e.actor_name;
  if (e.actor_user_id !== null) return `User #${e.actor_user_id}`;
  if (e.actor_role === 'customer') return 'A customer';
  return 'Someone not signed in';
}

/** An instant as the API writes it (UTC, ISO 8601). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;

/**
 * When something happened, for the log's readers: in the company's zone when one is given (as the
 * Messages card shows its times), else the browser's, then with the zone's name, since a global
 * admin's log mixes companies.
 */
export function auditTime(iso: string, zone?: string): string {
  return dateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(zone ? {} : { timeZoneName: 'short' }),
  }).format(new Date(iso));
}

const show = (v: unknown, zone?: string): string => {
  if (v === null || v === undefined || v === '') return '—';
  if (Array.isArray(v)) return v.length ? v.join(', ') : '—';
  if (typeof v === 'object') return JSON.stringify(v);
  // A flag reads as people say it.
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string' && INSTANT.test(v)) return auditTime(v, zone);
  return String(v);
};

/**
 * One line per changed field: "name: Ann → Anna", "status: cancelled" (new only), "was 45" (old
 * only). Instants read in `zone` (the company's), flags as yes or no.
 */
export function auditChangeLines(changes: AuditEntry['changes'], zone?: string): { field: string; text: string }[] {
  if (!changes) return [];
  return Object.entries(changes).map(([field, c]) => {
    const hasOld = 'old' in c;
    const hasNew = 'new' in c;
    // Flags arrive as booleans (the server reads them so from their 0/1 columns).
    const value = (v: unknown) => show(v, zone);
    const text = hasOld && hasNew ? `${value(c.old)} → ${value(c.new)}` : hasNew ? value(c.new) : `was ${value(c.old)}`;
    return { field: field.replace(/_/g, ' '), text };
  });
}
