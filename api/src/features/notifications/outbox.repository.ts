// The persistent outbox: every email or SMS is first a row here, written in the same transaction as
// the change that caused it, so no message is lost when a process dies or SMTP is down.
import crypto from 'node:crypto';
import { arg, prepared, type DbOrTx, type OutboxMessageRow } from '@bookwell/db';

export interface Attachment {
  filename: string;
  contentType: string;
  content: string;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  kind: string;
  companyId?: number | null;
  appointmentId?: number | null;
  attachments?: Attachment[];
  /** When to send; default now. */
  dueAt?: Date;
  /** Never queue two messages with the same key (for example one reminder per appointment start). */
  dedupeKey?: string | null;
  /** Render at send time from this JSON (see outbox_messages.render); text/html are then placeholders. */
  render?: string | null;
}

export function newMessageId(domain = 'bookwell.local'): string {
  return `<${crypto.randomUUID()}@${domain}>`;
}

const OUTBOX_COLUMNS = [
  'company_id',
  'appointment_id',
  'channel',
  'kind',
  'to_address',
  'subject',
  'body_text',
  'body_html',
  'attachments',
  'message_id',
  'dedupe_key',
  'due_at',
  'created_at',
  'render',
] as const;
type OutboxValues = Record<(typeof OUTBOX_COLUMNS)[number], string | number | null>;

// Queued inside every booking's transaction: compiled once (values are arguments in column order).
const outboxInsert = prepared<(string | number | null)[], { id: number }>((db) =>
  db
    .insertInto('outbox_messages')
    .values({ ...Object.fromEntries(OUTBOX_COLUMNS.map((c, i) => [c, arg(i)])), state: 'pending', attempts: 0 } as never)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id'),
);

async function insertOutboxMessage(db: DbOrTx, values: OutboxValues): Promise<number | null> {
  const [row] = await outboxInsert(
    db,
    OUTBOX_COLUMNS.map((c) => values[c]),
  );
  return row?.id ?? null;
}

export interface SmsMessage {
  to: string;
  text: string;
  kind: string;
  companyId?: number | null;
  appointmentId?: number | null;
  dueAt?: Date;
  dedupeKey?: string | null;
}

/** The row of a message on either channel (an SMS has no subject, HTML, attachments or render data). */
function outboxValues(channel: 'email' | 'sms', m: SmsMessage & Partial<EmailMessage>, now: Date): OutboxValues {
  return {
    company_id: m.companyId ?? null,
    appointment_id: m.appointmentId ?? null,
    channel,
    kind: m.kind,
    to_address: m.to,
    subject: m.subject ?? null,
    body_text: m.text,
    body_html: m.html ?? null,
    attachments: m.attachments?.length ? JSON.stringify(m.attachments) : null,
    message_id: newMessageId(),
    dedupe_key: m.dedupeKey ?? null,
    due_at: (m.dueAt ?? now).toISOString(),
    created_at: now.toISOString(),
    render: m.render ?? null,
  };
}

export async function enqueueEmail(db: DbOrTx, m: EmailMessage, now: Date): Promise<number | null> {
  return insertOutboxMessage(db, outboxValues('email', m, now));
}

export async function enqueueSms(db: DbOrTx, m: SmsMessage, now: Date): Promise<number | null> {
  return insertOutboxMessage(db, outboxValues('sms', m, now));
}

// --- sending (the dispatcher's side)

/** Due messages of these channels: pending or failed ones whose time has come, and claims that expired. */
export async function dueMessages(
  db: DbOrTx,
  channels: OutboxMessageRow['channel'][],
  now: Date,
  limit: number,
): Promise<OutboxMessageRow[]> {
  const iso = now.toISOString();
  return db
    .selectFrom('outbox_messages')
    .selectAll()
    .where('channel', 'in', channels)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', 'in', ['pending', 'failed']), eb('due_at', '<=', iso)]),
        // A claim that expired: the process died mid-send, so the outcome is unknown.
        eb.and([eb('state', '=', 'sending'), eb('locked_until', '<', iso)]),
      ]),
    )
    .orderBy('due_at')
    .limit(limit)
    .execute();
}

/** Claims a message for sending until `lockedUntil`; false when another process changed it first. */
export async function claimMessage(db: DbOrTx, row: OutboxMessageRow, lockedUntil: Date): Promise<boolean> {
  const res = await db
    .updateTable('outbox_messages')
    .set({ state: 'sending', attempts: row.attempts + 1, locked_until: lockedUntil.toISOString() })
    .where('id', '=', row.id)
    .where('state', '=', row.state)
    .where('attempts', '=', row.attempts)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The body columns of a message rendered at send time, recorded with its 'sent' state. */
export type RenderedColumns = Partial<Pick<OutboxMessageRow, 'subject' | 'body_text' | 'body_html' | 'attachments' | 'render'>>;

export async function markSent(db: DbOrTx, id: number, rendered: RenderedColumns, now: Date): Promise<void> {
  await db
    .updateTable('outbox_messages')
    .set({ ...rendered, state: 'sent', sent_at: now.toISOString(), locked_until: null, last_error: null })
    .where('id', '=', id)
    .execute();
}

/** A failed attempt: retried at `retryAt`, or given up (`dead`). */
export async function markFailed(db: DbOrTx, id: number, f: { dead: boolean; retryAt: Date; error: string }): Promise<void> {
  await db
    .updateTable('outbox_messages')
    .set({
      state: f.dead ? 'dead' : 'failed',
      due_at: f.retryAt.toISOString(),
      locked_until: null,
      last_error: f.error,
    })
    .where('id', '=', id)
    .execute();
}

/** Gives up a message still marked as being sent (its outcome is unknown). */
export async function markUnknownOutcomeDead(db: DbOrTx, id: number, reason: string): Promise<void> {
  await db
    .updateTable('outbox_messages')
    .set({ state: 'dead', last_error: reason, locked_until: null })
    .where('id', '=', id)
    .where('state', '=', 'sending')
    .execute();
}
