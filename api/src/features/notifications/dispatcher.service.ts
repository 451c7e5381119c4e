// Sends due outbox messages exactly once across processes: each message is claimed by a conditional
// update before sending, recorded as sent after, and retried with backoff when sending fails.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database, OutboxMessageRow } from '@bookwell/db';
import type { Config } from '../../config.ts';
import type { Logger } from '../../lib/logger.ts';
import {
  claimMessage,
  dueMessages,
  markFailed,
  markSent,
  markUnknownOutcomeDead,
  type Attachment,
  type RenderedColumns,
} from './outbox.repository.ts';
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

  /** Sends the message; answers the body columns to record when it was rendered only now. */
  async function deliver(row: OutboxMessageRow): Promise<RenderedColumns> {
    if (row.channel === 'email') {
      if (!transport) throw new Error('SMTP is not configured');
      let body = {
        subject: row.subject ?? '',
        text: row.body_text,
        html: row.body_html ?? undefined,
        attachments: row.attachments ? (JSON.parse(row.attachments) as Attachment[]) : [],
      };
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
    // Messages whose channel cannot send here stay pending (kept and logged, never lost).
    const channels: ('email' | 'sms')[] = [];
    if (transport) channels.push('email');
    if (opts.sms) channels.push('sms');
    if (!channels.length) return 0;
    const due = await dueMessages(db, channels, at, BATCH);
    let sent = 0;
    for (const row of due) {
      if (stopped) break;
      if (row.state === 'sending' && row.channel === 'sms') {
        // An SMS whose outcome is unknown is not retried: a duplicate text is worse than a missing one.
        await markUnknownOutcomeDead(db, row.id, 'outcome unknown after a crash; SMS not retried');
        continue;
      }
      if (!(await claimMessage(db, row, new Date(at.getTime() + CLAIM_MS)))) continue;
      try {
        const rendered = await deliver(row);
        await markSent(db, row.id, rendered, now());
        sent++;
      } catch (err) {
        const attempts = row.attempts + 1;
        const dead = attempts >= MAX_ATTEMPTS;
        await markFailed(db, row.id, {
          dead,
          retryAt: new Date(now().getTime() + backoffMs(attempts)),
          error: String((err as Error).message ?? err).slice(0, 500),
        });
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
    running = loop()
      .catch((err) => {
        log.error('outbox pass failed', { error: String(err?.message ?? err) });
        return 0;
      })
      .finally(() => {
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
