// The audit log (docs/decisions/31-audit-log.md): GET /audit-log, newest first, paged with
// before=<the last entry's id>. Read only; company admins get their company's, global_admin any.
import { useInfiniteQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';
import { dateTimeFormat, formatWallTime } from '../lib/zoned-time.ts';

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

/**
 * Names for the ids an entry holds, where the reader's screen knows them (the company's people and
 * services; someone removed since keeps their number), and the weekday of a `day_of_week`.
 */
export interface AuditNames {
  person?: (id: number) => string | undefined;
  service?: (id: number) => string | undefined;
  day?: (day: number) => string | undefined;
}

/** "changed appointment #12", "changed the role of Liam Newhire": the entry's action on its entity in words. */
export function describeAudit(e: Pick<AuditEntry, 'action' | 'entity' | 'entity_id'>, names: AuditNames = {}): string {
  const verb = ACTION_WORDS[e.action] ?? e.action.replace(/_/g, ' ');
  const noun = ENTITY_WORDS[e.entity] ?? e.entity.replace(/_/g, ' ');
  if (e.entity_id === null) return `${verb} ${noun}`;
  const name = e.entity === 'user' ? names.person?.(e.entity_id) : e.entity === 'service_type' ? names.service?.(e.entity_id) : undefined;
  if (name) return e.entity === 'user' ? `${verb} ${name}` : `${verb} ${noun} ${name}`;
  return `${verb} ${noun} #${e.entity_id}`;
}

/** Who did it, in words. */
export function auditActor(e: Pick<AuditEntry, 'actor_user_id' | 'actor_name' | 'actor_role'>): string {
  if (e.actor_name) return e.actor_name;
  if (e.actor_user_id !== null) return `User #${e.actor_user_id}`;
  if (e.actor_role === 'customer') return 'A customer';
  return 'Someone not signed in';
}

/** Fields read by their meaning rather than their column name. */
const FIELD_WORDS: Record<string, string> = {
  employee_id: 'employee',
  employee_ids: 'employees',
  user_id: 'person',
  service_type_id: 'service',
  service_type_ids: 'services',
  appointment_duration_option_id: 'duration option',
  day_of_week: 'day',
  intervals: 'hours',
};
const PERSON_FIELDS = new Set(['employee_id', 'employee_ids', 'user_id']);
const SERVICE_FIELDS = new Set(['service_type_id', 'service_type_ids']);

/** A wall time as the API writes it ('13:30:00'). */
const WALL_TIME = /^\d{2}:\d{2}(:\d{2})?$/;

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

const isInterval = (v: unknown): v is { open_time: string; close_time: string } =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as { open_time?: unknown }).open_time === 'string' &&
  typeof (v as { close_time?: unknown }).close_time === 'string';

const show = (v: unknown, zone?: string): string => {
  if (v === null || v === undefined || v === '') return '—';
  if (Array.isArray(v)) return v.length ? v.map((x) => show(x, zone)).join(', ') : '—';
  // Hours of a date override: "12:00 PM – 5:00 PM".
  if (isInterval(v)) return `${formatWallTime(v.open_time)} – ${formatWallTime(v.close_time)}`;
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'string' && WALL_TIME.test(v)) return formatWallTime(v);
  // A flag reads as people say it.
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string' && INSTANT.test(v)) return auditTime(v, zone);
  return String(v);
};

/**
 * One line per changed field: "name: Ann → Anna", "status: cancelled" (new only), "was 45" (old
 * only). Instants read in `zone` (the company's), wall times and hours as the screens show them,
 * flags as yes or no, people, services and weekdays by name where `names` knows them.
 */
export function auditChangeLines(changes: AuditEntry['changes'], zone?: string, names: AuditNames = {}): { field: string; text: string }[] {
  if (!changes) return [];
  return Object.entries(changes).map(([field, c]) => {
    const hasOld = 'old' in c;
    const hasNew = 'new' in c;
    const lookup = PERSON_FIELDS.has(field)
      ? names.person
      : SERVICE_FIELDS.has(field)
        ? names.service
        : field === 'day_of_week'
          ? names.day
          : undefined;
    const named = (v: unknown): unknown => {
      if (!lookup) return v;
      if (typeof v === 'number') return lookup(v) ?? `#${v}`;
      return Array.isArray(v) ? v.map(named) : v;
    };
    // Flags arrive as booleans (the server reads them so from their 0/1 columns).
    const value = (v: unknown) => show(named(v), zone);
    const text = hasOld && hasNew ? `${value(c.old)} → ${value(c.new)}` : hasNew ? value(c.new) : `was ${value(c.old)}`;
    return { field: FIELD_WORDS[field] ?? field.replace(/_/g, ' '), text };
  });
}
