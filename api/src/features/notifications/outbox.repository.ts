// The persistent outbox: every email or SMS is first a row here, written in the same transaction as
// the change that caused it, so no message is lost when a process dies or SMTP is down.
import crypto from 'node:crypto';
import { PostgresAdapter, type Kysely } from 'kysely';
import { arg, prepared, preparedWrite, type Database, type DbOrTx, type OutboxMessageRow, type OutboxState } from '@bookwell/db';

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
const outboxRowInsert = (db: Kysely<Database>) =>
  db
    .insertInto('outbox_messages')
    .values({ ...Object.fromEntries(OUTBOX_COLUMNS.map((c, i) => [c, arg(i)])), state: 'pending', attempts: 0 } as never);
const outboxInsertQuery = (db: Kysely<Database>) => outboxRowInsert(db).onConflict((oc) => oc.column('dedupe_key').doNothing());
const outboxInsert = prepared<(string | number | null)[], { id: number }>((db) => outboxInsertQuery(db).returning('id'));
// The same insert for a caller that does not need the row's id (a booking's confirmation and
// reminders): a deferred write, so on PostgreSQL it goes out with the transaction's next statement
// (db/src/deferred-writes.ts).
const outboxQueue = preparedWrite<(string | number | null)[]>(outboxInsertQuery);

// A reminder queued or brought up to date in one statement (reminders.ts, syncReminders): the row
// with its key is refreshed (due time, recipient, content) when it is pending and not yet due, or
// cancelled (revived); any other (due and being sent, sent, failed, dead) is kept as it is, never sent
// twice. Nothing is read back, so it is a deferred write too: on PostgreSQL a moved appointment's
// reminders go out with its commit instead of a lookup and a write each while the company lock is held.
const reminderUpsert = preparedWrite<(string | number | null)[]>((db) =>
  outboxRowInsert(db).onConflict((oc) =>
    oc
      .column('dedupe_key')
      .doUpdateSet((eb) => ({
        due_at: eb.ref('excluded.due_at'),
        to_address: eb.ref('excluded.to_address'),
        subject: eb.ref('excluded.subject'),
        body_text: eb.ref('excluded.body_text'),
        render: eb.ref('excluded.render'),
        state: 'pending',
        locked_until: null,
        last_error: null,
      }))
      .where((eb) =>
        eb.or([
          eb('outbox_messages.state', '=', 'cancelled'),
          eb.and([eb('outbox_messages.state', '=', 'pending'), eb('outbox_messages.due_at', '>', arg(OUTBOX_COLUMNS.length))]),
        ]),
      ),
  ),
);

/** Queues a reminder, or refreshes (or revives) the one its dedupe key already names: see reminderUpsert. */
export async function queueOrRefreshReminder(
  db: DbOrTx,
  channel: 'email' | 'sms',
  m: SmsMessage & Partial<EmailMessage>,
  now: Date,
): Promise<void> {
  const values = outboxValues(channel, m, now);
  await reminderUpsert(db, [...OUTBOX_COLUMNS.map((c) => values[c]), now.toISOString()]);
}

async function queueOutboxMessage(db: DbOrTx, values: OutboxValues): Promise<void> {
  await outboxQueue(
    db,
    OUTBOX_COLUMNS.map((c) => values[c]),
  );
}

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

/** As enqueueEmail, without the row's id: the insert is a deferred write (see outboxQueue). */
export async function queueEmail(db: DbOrTx, m: EmailMessage, now: Date): Promise<void> {
  await queueOutboxMessage(db, outboxValues('email', m, now));
}

/** As enqueueSms, without the row's id: the insert is a deferred write (see outboxQueue). */
export async function queueSms(db: DbOrTx, m: SmsMessage, now: Date): Promise<void> {
  await queueOutboxMessage(db, outboxValues('sms', m, now));
}

// --- sending (the dispatcher's side, docs/decisions/22-messaging.md)

/** Which message a claim holds: it is still ours only while state, attempts and lease are what the claim set. */
export interface Claim {
  id: number;
  attempts: number;
  locked_until: string;
}

/**
 * An SMS claimed by a process that died has an unknown outcome: it is given up rather than sent twice
 * (docs/decisions/07-notifications-and-calendar-sync.md, docs/decisions/22-messaging.md). Answers how many were given up.
 */
export async function giveUpExpiredSmsClaims(db: DbOrTx, now: Date): Promise<number> {
  const res = await db
    .updateTable('outbox_messages')
    .set({ state: 'dead', last_error: 'outcome unknown after a crash; SMS not retried', locked_until: null })
    .where('channel', '=', 'sms')
    .where('state', '=', 'sending')
    .where('locked_until', '<', now.toISOString())
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/**
 * Claims up to `limit` due messages of these channels until `lockedUntil`, in one statement: pending
 * or failed ones whose time has come, and emails whose claim expired (the process died mid-send; the
 * email goes again with the same Message-ID). Each claim raises `attempts`, so a claim taken over
 * later never matches the older holder's. On PostgreSQL rows another process is claiming right now
 * are skipped instead of waited for, so two dispatchers share a backlog rather than queue on it.
 */
export async function claimDueMessages(
  db: DbOrTx,
  channels: OutboxMessageRow['channel'][],
  now: Date,
  lockedUntil: Date,
  limit: number,
): Promise<OutboxMessageRow[]> {
  if (!channels.length) return [];
  const iso = now.toISOString();
  let due = db
    .selectFrom('outbox_messages')
    .select('id')
    .where('channel', 'in', channels)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', 'in', ['pending', 'failed']), eb('due_at', '<=', iso)]),
        eb.and([eb('state', '=', 'sending'), eb('channel', '=', 'email'), eb('locked_until', '<', iso)]),
      ]),
    )
    .orderBy('due_at')
    .orderBy('id')
    .limit(limit);
  if (db.getExecutor().adapter instanceof PostgresAdapter) due = due.forUpdate().skipLocked();
  const rows = await db
    .updateTable('outbox_messages')
    .set((eb) => ({ state: 'sending', attempts: eb('attempts', '+', 1), locked_until: lockedUntil.toISOString() }))
    .where('id', 'in', due)
    // Re-checked here: on SQLite the subquery and the update are one statement under the write lock,
    // on PostgreSQL a row changed since the subquery read it must still be due.
    .where((eb) => eb.or([eb('state', 'in', ['pending', 'failed']), eb.and([eb('state', '=', 'sending'), eb('locked_until', '<', iso)])]))
    .returningAll()
    .execute();
  return rows.sort((a, b) => (a.due_at < b.due_at ? -1 : a.due_at > b.due_at ? 1 : a.id - b.id));
}

/** The earliest moment after `now` a message of these channels comes due again (a retry, or a lease that runs out). */
export async function nextWakeup(db: DbOrTx, channels: OutboxMessageRow['channel'][], now: Date): Promise<string | null> {
  const iso = now.toISOString();
  const [retry, lease] = await Promise.all([
    db
      .selectFrom('outbox_messages')
      .select((eb) => eb.fn.min('due_at').as('at'))
      .where('channel', 'in', channels)
      .where('state', 'in', ['pending', 'failed'])
      .where('due_at', '>', iso)
      .executeTakeFirst(),
    db
      .selectFrom('outbox_messages')
      .select((eb) => eb.fn.min('locked_until').as('at'))
      .where('channel', 'in', channels)
      .where('state', '=', 'sending')
      .where('locked_until', '>', iso)
      .executeTakeFirst(),
  ]);
  const times = [retry?.at, lease?.at].filter((t): t is string => !!t).map((t) => new Date(t).toISOString());
  return times.length ? times.sort()[0]! : null;
}

/** How many messages are waiting to be sent (for the log line when a channel is not configured). */
export async function countPending(db: DbOrTx, channel: OutboxMessageRow['channel']): Promise<number> {
  const row = await db
    .selectFrom('outbox_messages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('channel', '=', channel)
    .where('state', 'in', ['pending', 'failed', 'sending'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The highest message id of the outbox (0 when empty): where a log of newly queued messages starts. */
export async function lastMessageId(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom('outbox_messages')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Messages of a channel queued after `afterId` and still waiting, oldest first: what they are, never where to or what they say. */
export function waitingMessagesAfter(db: DbOrTx, channel: OutboxMessageRow['channel'], afterId: number, limit: number) {
  return db
    .selectFrom('outbox_messages')
    .select(['id', 'kind', 'company_id', 'appointment_id'])
    .where('channel', '=', channel)
    .where('id', '>', afterId)
    .where('state', 'in', ['pending', 'failed'])
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The body columns of a message rendered at send time, recorded with its 'sent' state. */
export type RenderedColumns = Partial<Pick<OutboxMessageRow, 'subject' | 'body_text' | 'body_html' | 'attachments' | 'render'>>;

/**
 * Records the message as sent, only while the claim is still ours (state, attempts and lease as the
 * claim set them): a holder whose lease was taken over changes nothing. False in that case.
 */
export function markSent(db: DbOrTx, claim: Claim, rendered: RenderedColumns, now: Date): Promise<boolean> {
  return updateClaimed(db, claim, { ...rendered, state: 'sent', sent_at: now.toISOString(), locked_until: null, last_error: null });
}

/** A failed attempt: retried at `retryAt`, or given up (`dead`). Only while the claim is still ours. */
export function markFailed(db: DbOrTx, claim: Claim, f: { dead: boolean; retryAt: Date; error: string }): Promise<boolean> {
  return updateClaimed(db, claim, {
    state: f.dead ? 'dead' : 'failed',
    due_at: f.retryAt.toISOString(),
    locked_until: null,
    last_error: f.error,
  });
}

/** Updates the claimed row only while the claim is still ours (state, attempts and lease as the claim set them). */
async function updateClaimed(db: DbOrTx, claim: Claim, changes: Partial<Omit<OutboxMessageRow, 'id' | 'created_at'>>): Promise<boolean> {
  const res = await db
    .updateTable('outbox_messages')
    .set(changes)
    .where('id', '=', claim.id)
    .where('state', '=', 'sending')
    .where('attempts', '=', claim.attempts)
    .where('locked_until', '=', claim.locked_until)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * A customer replied STOP to our texts (Twilio error 21610): every customer of the company with that
 * number is marked opted out, and their SMS still waiting is cancelled (docs/decisions/10-reminders-and-sms.md). Answers how
 * many queued SMS were cancelled.
 */
export async function recordSmsOptOut(db: DbOrTx, companyId: number, phone: string, now: Date): Promise<number> {
  await db
    .updateTable('users')
    .set({ sms_opted_out_at: now.toISOString() })
    .where('company_id', '=', companyId)
    .where('role', '=', 'customer')
    .where('phone', '=', phone)
    .where('sms_opted_out_at', 'is', null)
    .execute();
  const res = await db
    .updateTable('outbox_messages')
    .set({ state: 'cancelled', locked_until: null, last_error: 'recipient opted out of SMS' })
    .where('company_id', '=', companyId)
    .where('channel', '=', 'sms')
    .where('to_address', '=', phone)
    .where('state', 'in', ['pending', 'failed'])
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Whether the company's customer with this number (or this user) replied STOP to our texts: no SMS goes to them again. */
export async function smsOptedOut(db: DbOrTx, companyId: number, to: string, userId: number | null = null): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', companyId)
    .where('sms_opted_out_at', 'is not', null)
    .where((eb) => (userId === null ? eb('phone', '=', to) : eb.or([eb('id', '=', userId), eb('phone', '=', to)])))
    .executeTakeFirst();
  return !!row;
}

// --- the company's outbox, for its admins (docs/decisions/10-reminders-and-sms.md)

export interface MessageFilter {
  state?: OutboxState;
  kind?: string;
  appointmentId?: number;
  limit: number;
}

/** The columns the company's admins see of a message (never a body or link). */
const MESSAGE_COLUMNS = [
  'id',
  'kind',
  'channel',
  'to_address',
  'state',
  'due_at',
  'sent_at',
  'attempts',
  'last_error',
  'appointment_id',
  'created_at',
] as const;

/** The company's messages, newest first; only the columns the list shows. */
export async function listCompanyMessages(db: DbOrTx, companyId: number, f: MessageFilter) {
  let q = db.selectFrom('outbox_messages').select(MESSAGE_COLUMNS).where('company_id', '=', companyId);
  if (f.state) q = q.where('state', '=', f.state);
  if (f.kind) q = q.where('kind', '=', f.kind);
  if (f.appointmentId != null) q = q.where('appointment_id', '=', f.appointmentId);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
}

export async function companyExists(db: DbOrTx, companyId: number): Promise<boolean> {
  return !!(await db.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst());
}

export type CompanyMessageRow = Awaited<ReturnType<typeof listCompanyMessages>>[number];

export async function findCompanyMessage(db: DbOrTx, companyId: number, id: number): Promise<CompanyMessageRow | undefined> {
  return db
    .selectFrom('outbox_messages')
    .select(MESSAGE_COLUMNS)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Puts a failed or dead message back to pending, due now, with a fresh set of attempts, and returns it
 * as this statement left it; undefined when it is in another state (changed meanwhile). Its
 * Message-ID stays, so a receiver that did get an earlier attempt drops the copy. The row comes from
 * the update itself: read again afterwards, the dispatcher (another connection on PostgreSQL) may
 * already have claimed it, and the answer said "sending" where the retry had just made it pending.
 */
export async function requeueMessage(db: DbOrTx, companyId: number, id: number, now: Date): Promise<CompanyMessageRow | undefined> {
  return db
    .updateTable('outbox_messages')
    .set({ state: 'pending', attempts: 0, due_at: now.toISOString(), locked_until: null })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('state', 'in', ['failed', 'dead'])
    .returning(MESSAGE_COLUMNS)
    .executeTakeFirst();
}
