// The audit log's writes and reads (docs/decisions/31-audit-log.md). recordAudit joins the caller's
// transaction, so an entry exists exactly when its write committed; nothing here opens one.
import { arg, preparedWrite, type DbOrTx } from '@bookwell/db';
import type { AuditContext } from '../../lib/audit-context.ts';

/** What an entry is about; one name per audited table or concept. */
export type AuditEntity =
  | 'appointment'
  | 'user'
  | 'company'
  | 'operating_hours'
  | 'date_override'
  | 'service_type'
  | 'duration_option'
  | 'duration_default'
  | 'subscription';

/** Changed fields: {field: {old, new}}; a created row has only `new`, a deleted one only `old`. */
export type AuditChanges = Record<string, { old?: unknown; new?: unknown }>;

export interface AuditEntry {
  company_id: number | null;
  /** 'create' | 'update' | 'delete' | 'cancel' | 'login_failed' | 'erase' | ... (a verb, snake_case). */
  action: string;
  entity: AuditEntity;
  entity_id: number | null;
  changes?: AuditChanges | null;
}

/** Never stored, whatever a caller passes: secrets and anything derived from them. */
const SECRET_FIELD = /password|token|hash|nonce|secret/i;

/** Columns stored as 0/1 (db/src/schema.ts, `Flag`): an entry shows them as the booleans the API speaks. */
const FLAG_FIELDS = new Set([
  'enable_employee_booking',
  'listed_publicly',
  'hide_customer_names_in_feeds',
  'hide_price',
  'is_closed',
  'sms_consent',
  'booking_notices',
]);
const readable = (field: string, v: unknown) => (FLAG_FIELDS.has(field) && (v === 0 || v === 1) ? v === 1 : v);

/**
 * The changes as an entry shows them: never a secret field, flags as booleans. Entries are written
 * so, and read so too, for those written before they were (session 35).
 */
function readableChanges(changes: AuditChanges): AuditChanges {
  const kept: AuditChanges = {};
  for (const [field, change] of Object.entries(changes)) {
    if (SECRET_FIELD.test(field)) continue;
    const shown: { old?: unknown; new?: unknown } = {};
    if ('old' in change) shown.old = readable(field, change.old);
    if ('new' in change) shown.new = readable(field, change.new);
    kept[field] = shown;
  }
  return kept;
}

/** What an entry stores: its readable changes, or null when none is left. */
function entryChanges(changes: AuditChanges | null | undefined): AuditChanges | null {
  if (!changes) return null;
  const kept = readableChanges(changes);
  return Object.keys(kept).length ? kept : null;
}

// Every audited write runs it (two per booking): compiled once, the values are arguments in column
// order. A deferred write: on PostgreSQL it goes out with the transaction's next statement
// (db/src/deferred-writes.ts).
const auditInsert = preparedWrite<
  [
    actorUserId: number | null,
    actorRole: string | null,
    companyId: number | null,
    action: string,
    entity: AuditEntity,
    entityId: number | null,
    changes: string | null,
    ip: string | null,
    requestId: string | null,
  ]
>((db) =>
  db.insertInto('audit_log').values({
    actor_user_id: arg(0),
    actor_role: arg(1),
    company_id: arg(2),
    action: arg(3),
    entity: arg(4),
    entity_id: arg(5),
    changes: arg(6),
    ip: arg(7),
    request_id: arg(8),
  }),
);

/** Records one entry inside the caller's transaction (pass the `tx` the audited write used). */
export async function recordAudit(tx: DbOrTx, who: AuditContext, entry: AuditEntry): Promise<void> {
  const changes = entryChanges(entry.changes);
  // A missing value is stored as null, as the column list Kysely built from the object did.
  await auditInsert(tx, [
    who.actor_user_id ?? null,
    who.actor_role ?? null,
    entry.company_id ?? null,
    entry.action,
    entry.entity,
    entry.entity_id ?? null,
    changes ? JSON.stringify(changes) : null,
    who.ip ?? null,
    who.request_id ?? null,
  ]);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields of `after` whose value differs from `before` (only the keys present in `after`). */
export function diffChanges(before: Record<string, unknown>, after: Record<string, unknown>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    if (!same(before[field], value)) changes[field] = { old: before[field] ?? null, new: value };
  }
  return changes;
}

/** A created row's fields (undefined ones left out). */
export function createdChanges(row: Record<string, unknown>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, value] of Object.entries(row)) if (value !== undefined) changes[field] = { new: value };
  return changes;
}

/** The named fields of a row (for createdChanges/deletedChanges of a wide row). */
export function pickFields<T extends object, K extends keyof T>(row: T, fields: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const f of fields) picked[f] = row[f];
  return picked;
}

/** The user fields an entry shows: never a password hash, token version or feed token. */
export const USER_AUDIT_FIELDS = ['name', 'email', 'phone', 'role', 'company_id'] as const;

/** A deleted row's fields. */
export function deletedChanges(row: Record<string, unknown>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, value] of Object.entries(row)) if (value !== undefined) changes[field] = { old: value };
  return changes;
}

export interface AuditRow {
  id: number;
  at: string;
  actor_user_id: number | null;
  actor_role: string | null;
  actor_name: string | null;
  company_id: number | null;
  action: string;
  entity: string;
  entity_id: number | null;
  changes: AuditChanges | null;
  ip: string | null;
  request_id: string | null;
}

export interface AuditFilter {
  /** A company's entries; undefined: every company's and the company-less ones (global_admin). */
  company_id?: number;
  entity?: string;
  entity_id?: number;
  /** Entries older than this id (the previous page's last id). */
  before?: number;
  limit: number;
}

/** Newest first. */
export async function listAuditEntries(db: DbOrTx, f: AuditFilter): Promise<AuditRow[]> {
  let q = db
    .selectFrom('audit_log')
    .leftJoin('users', 'users.id', 'audit_log.actor_user_id')
    .select([
      'audit_log.id',
      'audit_log.at',
      'audit_log.actor_user_id',
      'audit_log.actor_role',
      'users.name as actor_name',
      'audit_log.company_id',
      'audit_log.action',
      'audit_log.entity',
      'audit_log.entity_id',
      'audit_log.changes',
      'audit_log.ip',
      'audit_log.request_id',
    ]);
  if (f.company_id !== undefined) q = q.where('audit_log.company_id', '=', f.company_id);
  if (f.entity !== undefined) q = q.where('audit_log.entity', '=', f.entity);
  if (f.entity_id !== undefined) q = q.where('audit_log.entity_id', '=', f.entity_id);
  if (f.before !== undefined) q = q.where('audit_log.id', '<', f.before);
  const rows = await q.orderBy('audit_log.id', 'desc').limit(f.limit).execute();
  return rows.map((r) => ({ ...r, changes: r.changes ? readableChanges(JSON.parse(r.changes) as AuditChanges) : null }));
}

/**
 * A deleted company's entries (they name its customers and staff): the company's data goes with it,
 * and the caller records the deletion itself afterwards (docs/decisions/31-audit-log.md).
 */
export async function deleteCompanyAudit(tx: DbOrTx, companyId: number): Promise<void> {
  await tx.deleteFrom('audit_log').where('company_id', '=', companyId).execute();
}

/** The fields of an entry that hold a person's contact: only these are rewritten by an erasure. */
const CONTACT_FIELD = /^(customer_)?(name|email|phone)$/;

/** Whose values an erasure takes out of the log (docs/decisions/32-privacy-and-operations.md). */
export interface ErasedPerson {
  companyId: number;
  userId: number;
  /** Their bookings: every contact these entries name was theirs, whatever its spelling then. */
  appointmentIds: number[];
  /** Their current name, email and phone, and the contact typed on their bookings. */
  values: string[];
  /** Their email, to find failed sign-ins with it that no company saw (an unknown email then). */
  email: string | null;
}

/**
 * Privacy erasure (docs/decisions/32-privacy-and-operations.md), inside the erasure's transaction.
 * Only the person's own company's entries are looked at (and the company-less failed sign-ins with
 * their email), and only contact fields (name, email, phone and their `customer_` forms) change:
 * - in entries about the person or their bookings, every such value becomes `replacement`, earlier
 *   spellings too;
 * - in the company's other entries, a value equal to one of theirs (trimmed, case aside) does.
 * So an account made to be erased cannot blank another company's log, or a status that happens to
 * equal its name. Candidates are found with the company's index and LIKE, then rewritten in JS.
 */
export async function replaceAuditValues(tx: DbOrTx, person: ErasedPerson, replacement = '[erased]'): Promise<number> {
  const wanted = new Set(person.values.map((v) => v.trim().toLowerCase()).filter((v) => v.length > 0));
  // % and _ in a value only widen the match (filtered below); a backslash (LIKE's escape on
  // PostgreSQL) becomes _, which matches it.
  const pattern = (v: string) => `%${JSON.stringify(v.trim().toLowerCase()).slice(1, -1).replace(/\\/g, '_')}%`;
  const email = person.email?.trim() ? person.email : null;
  const rows = await tx
    .selectFrom('audit_log')
    .select(['id', 'entity', 'entity_id', 'changes'])
    .where('changes', 'is not', null)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('company_id', '=', person.companyId),
          eb.or([
            eb.and([eb('entity', '=', 'user'), eb('entity_id', '=', person.userId)]),
            ...(person.appointmentIds.length
              ? [eb.and([eb('entity', '=', 'appointment'), eb('entity_id', 'in', person.appointmentIds)])]
              : []),
            ...[...wanted].map((v) => eb(eb.fn('lower', ['changes']), 'like', pattern(v))),
          ]),
        ]),
        ...(email
          ? [
              eb.and([
                eb('company_id', 'is', null),
                eb('action', '=', 'login_failed'),
                eb(eb.fn('lower', ['changes']), 'like', pattern(email)),
              ]),
            ]
          : []),
      ]),
    )
    .execute();
  const theirs = (entity: string, id: number | null) =>
    id !== null && ((entity === 'user' && id === person.userId) || (entity === 'appointment' && person.appointmentIds.includes(id)));
  let changed = 0;
  for (const row of rows) {
    const all = theirs(row.entity, row.entity_id);
    const scrub = (v: unknown) => (typeof v === 'string' && (all || wanted.has(v.trim().toLowerCase())) ? replacement : v);
    const changes = JSON.parse(row.changes!) as AuditChanges;
    for (const [field, change] of Object.entries(changes)) {
      if (!CONTACT_FIELD.test(field) || !change || typeof change !== 'object') continue;
      if ('old' in change) change.old = scrub(change.old);
      if ('new' in change) change.new = scrub(change.new);
    }
    const next = JSON.stringify(changes);
    if (next === row.changes) continue;
    await tx.updateTable('audit_log').set({ changes: next }).where('id', '=', row.id).execute();
    changed++;
  }
  return changed;
}
