// The persistent outbox: every email or SMS is first a row here, written in the same transaction as
// the change that caused it, so no message is lost when a process dies or SMTP is down.
import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@bookwell/db';

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
}

export function newMessageId(domain = 'bookwell.local'): string {
  return `<${crypto.randomUUID()}@${domain}>`;
}

export async function enqueueEmail(db: Kysely<Database> | Transaction<Database>, m: EmailMessage, now: Date): Promise<number | null> {
  const row = await db.insertInto('outbox_messages').values({
    company_id: m.companyId ?? null,
    appointment_id: m.appointmentId ?? null,
    channel: 'email',
    kind: m.kind,
    to_address: m.to,
    subject: m.subject,
    body_text: m.text,
    body_html: m.html ?? null,
    attachments: m.attachments?.length ? JSON.stringify(m.attachments) : null,
    message_id: newMessageId(),
    dedupe_key: m.dedupeKey ?? null,
    state: 'pending',
    attempts: 0,
    due_at: (m.dueAt ?? now).toISOString(),
    created_at: now.toISOString(),
  })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
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

export async function enqueueSms(db: Kysely<Database> | Transaction<Database>, m: SmsMessage, now: Date): Promise<number | null> {
  const row = await db.insertInto('outbox_messages').values({
    company_id: m.companyId ?? null,
    appointment_id: m.appointmentId ?? null,
    channel: 'sms',
    kind: m.kind,
    to_address: m.to,
    subject: null,
    body_text: m.text,
    body_html: null,
    attachments: null,
    message_id: newMessageId(),
    dedupe_key: m.dedupeKey ?? null,
    state: 'pending',
    attempts: 0,
    due_at: (m.dueAt ?? now).toISOString(),
    created_at: now.toISOString(),
  })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}
