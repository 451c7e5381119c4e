// Sends due outbox messages exactly once across processes: each message is claimed by a conditional
// update before sending, recorded as sent after, and retried with backoff when sending fails.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database, OutboxMessageRow } from '@bookwell/db';
import type { Config } from '../../config.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Attachment } from './outbox.ts';
import { renderQueuedEmail } from './appointment-emails.ts';

const CLAIM_MS = 2 * 60_000;
const MAX_ATTEMPTS = 8;
const BATCH = 20;

export interface SmsSender {
  send(to: string, text: string): Promise<void>;
}

export interface Dispatcher {
  /** Sends everything due now; resolves when this pass is done. */
  runOnce(): Promise<number>;
  /** Ask for a pass soon (after a commit that queued a message). Coalesces calls. */
  nudge(): void;
  stop(): Promise<void>;
}

/** The body columns of a message rendered at send time, recorded with its 'sent' state. */
type RenderedColumns = Partial<Pick<OutboxMessageRow, 'subject' | 'body_text' | 'body_html' | 'attachments' | 'render'>>;

export function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

export function createTransport(config: Config): Transporter | null {
  if (!config.SMTP_URL) return null;
  return nodemailer.createTransport(config.SMTP_URL);
}

export function createDispatcher(opts: {
  db: Kysely<Database>;
  config: Config;
  log: Logger;
  now: () => Date;
  transport?: Transporter | null;
  sms?: SmsSender | null;
}): Dispatcher {
  const { db, config, log, now } = opts;
  const transport = opts.transport === undefined ? createTransport(config) : opts.transport;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  async function claim(row: OutboxMessageRow, at: Date): Promise<boolean> {
    const res = await db.updateTable('outbox_messages')
      .set({ state: 'sending', attempts: row.attempts + 1, locked_until: new Date(at.getTime() + CLAIM_MS).toISOString() })
      .where('id', '=', row.id)
      .where('state', '=', row.state)
      .where('attempts', '=', row.attempts)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Sends the message; answers the body columns to record when it was rendered only now. */
  async function deliver(row: OutboxMessageRow): Promise<RenderedColumns> {
    if (row.channel === 'email') {
      if (!transport) throw new Error('SMTP is not configured');
      let body = { subject: row.subject ?? '', text: row.body_text, html: row.body_html ?? undefined, attachments: row.attachments ? (JSON.parse(row.attachments) as Attachment[]) : [] };
      let rendered: RenderedColumns = {};
      if (row.render) {
        const r = renderQueuedEmail(row.render);
        body = { subject: r.subject, text: r.text, html: r.html, attachments: r.attachments };
        rendered = { subject: r.subject, body_text: r.text, body_html: r.html, attachments: JSON.stringify(r.attachments), render: null };
      }
      await transport.sendMail({
        from: config.MAIL_FROM,
        to: row.to_address,
        subject: body.subject,
        text: body.text,
        html: body.html,
        messageId: row.message_id,
        attachments: body.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
      });
      return rendered;
    }
    if (!opts.sms) throw new Error('SMS is not configured');
    await opts.sms.send(row.to_address, row.body_text);
    return {};
  }

  async function pass(): Promise<number> {
    const at = now();
    const iso = at.toISOString();
    // Messages whose channel cannot send here stay pending (kept and logged, never lost).
    const channels: ('email' | 'sms')[] = [];
    if (transport) channels.push('email');
    if (opts.sms) channels.push('sms');
    if (!channels.length) return 0;
    const due = await db.selectFrom('outbox_messages').selectAll()
      .where('channel', 'in', channels)
      .where((eb) => eb.or([
        eb.and([eb('state', 'in', ['pending', 'failed']), eb('due_at', '<=', iso)]),
        // A claim that expired: the process died mid-send, so the outcome is unknown.
        eb.and([eb('state', '=', 'sending'), eb('locked_until', '<', iso)]),
      ]))
      .orderBy('due_at').limit(BATCH).execute();
    let sent = 0;
    for (const row of due) {
      if (stopped) break;
      if (row.state === 'sending' && row.channel === 'sms') {
        // An SMS whose outcome is unknown is not retried: a duplicate text is worse than a missing one.
        await db.updateTable('outbox_messages').set({ state: 'dead', last_error: 'outcome unknown after a crash; SMS not retried', locked_until: null })
          .where('id', '=', row.id).where('state', '=', 'sending').execute();
        continue;
      }
      if (!(await claim(row, at))) continue;
      try {
        const rendered = await deliver(row);
        await db.updateTable('outbox_messages').set({ ...rendered, state: 'sent', sent_at: now().toISOString(), locked_until: null, last_error: null })
          .where('id', '=', row.id).execute();
        sent++;
      } catch (err) {
        const attempts = row.attempts + 1;
        const dead = attempts >= MAX_ATTEMPTS;
        await db.updateTable('outbox_messages').set({
          state: dead ? 'dead' : 'failed',
          due_at: new Date(now().getTime() + backoffMs(attempts)).toISOString(),
          locked_until: null,
          last_error: String((err as Error).message ?? err).slice(0, 500),
        }).where('id', '=', row.id).execute();
        log.warn('outbox send failed', { id: row.id, channel: row.channel, kind: row.kind, attempts, dead });
      }
    }
    return sent;
  }

  async function loop(): Promise<number> {
    let total = 0;
    do {
      again = false;
      total += await pass();
    } while (again && !stopped);
    return total;
  }

  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = loop().catch((err) => {
      log.error('outbox pass failed', { error: String(err?.message ?? err) });
      return 0;
    }).finally(() => {
      running = null;
    });
    return running;
  }

  return {
    runOnce,
    nudge() {
      if (stopped || timer) return;
      timer = setTimeout(() => {
        timer = null;
        void runOnce();
      }, 50);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      transport?.close();
    },
  };
}
