// Sends due outbox messages exactly once across processes (docs/decisions/22-messaging.md): messages
// are claimed in small batches by one conditional update with a short lease, sent a few at a time,
// and recorded as sent or failed only while the claim is still ours. Failures are retried with
// backoff; a permanent refusal or exhausted attempts make a message dead, with the reason.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database, OutboxMessageRow } from '@bookwell/db';
import type { Config } from '../../config.ts';
import type { Logger } from '../../lib/logger.ts';
import {
  claimDueMessages,
  countPending,
  giveUpExpiredSmsClaims,
  lastMessageId,
  markFailed,
  markSent,
  nextWakeup,
  recordSmsOptOut,
  waitingMessagesAfter,
  type Attachment,
  type Claim,
  type RenderedColumns,
} from './outbox.repository.ts';
import { renderQueuedEmail } from './appointment-emails.ts';
import { DeliveryError } from './delivery-error.ts';

/** Each SMTP wait (connecting, the greeting, any silence on the socket) gives up after this. */
export const SMTP_TIMEOUT_MS = 20_000;
/**
 * A claim's lease: longer than one send can take (the SMTP timeout, plus the database writes), and
 * short enough that a message claimed by a process that died goes out within a minute of any
 * process's next tick (docs/decisions/10-reminders-and-sms.md).
 */
export const CLAIM_MS = 30_000;
/** A send that has not finished by then is counted as failed (and retried) before the lease runs out. */
const SEND_DEADLINE_MS = 25_000;
export const MAX_ATTEMPTS = 8;
/** Messages claimed and sent at once: a backlog drains in batches of this size until none is due. */
const CONCURRENCY = 8;
/** The dispatcher wakes itself for retries and expired leases due within this time (the minute tick covers later ones). */
const WAKE_AHEAD_MS = 60_000;

export interface SmsSender {
  send(to: string, text: string): Promise<void>;
}

export interface Dispatcher {
  /** Sends everything due now, batch after batch until none is due; resolves when this pass is done. */
  runOnce(): Promise<number>;
  /** Ask for a pass soon (after a commit that queued a message). Coalesces calls. */
  nudge(): void;
  stop(): Promise<void>;
}

/** The wait before attempt `attempts + 1`: 30 s, 1, 2, 4 ... minutes, at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

export function createTransport(config: Config, connections = CONCURRENCY): Transporter | null {
  if (!config.SMTP_URL) return null;
  // Explicit timeouts bound how long a claim can be busy (nodemailer's own defaults are minutes);
  // settings in the URL itself still win.
  return nodemailer.createTransport({
    url: config.SMTP_URL,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    // Pooled: a batch goes over connections kept open instead of a connection (TCP, greeting, EHLO,
    // QUIT) per message, which held one busy process to about 10 emails/s (docs/decisions/22-messaging.md,
    // "Pooled SMTP connections"). As many connections as messages claimed at once, so a claimed
    // message never waits in the pool's queue behind another.
    pool: true,
    maxConnections: connections,
    maxMessages: 100,
    // A connection that closes in the middle of a message fails that send here, as without a pool:
    // the dispatcher records it and retries it with backoff under a fresh claim (same Message-ID),
    // rather than the pool sending it again on its own, outside the claim's accounting.
    maxRequeues: 0,
  });
}

/**
 * Whether a failed send can never succeed as it is: an SMTP 5xx answer to the envelope or the message
 * (RFC 5321: permanent, such as an unknown mailbox), or a channel's DeliveryError saying so. A 5xx
 * to the login is a configuration problem of ours, retried like a network error.
 */
export function isPermanent(err: unknown): boolean {
  if (err instanceof DeliveryError) return err.permanent;
  const e = err as { responseCode?: number; code?: string } | null;
  return !!e && typeof e.responseCode === 'number' && e.responseCode >= 500 && (e.code === 'EENVELOPE' || e.code === 'EMESSAGE');
}

function errorText(err: unknown): string {
  return String((err as Error)?.message ?? err).slice(0, 500);
}

/**
 * Runs `send` with a signal that aborts at the deadline: a message still waiting in the SMTP pool is
 * dropped from it and one in the middle of its delivery has its connection closed, so nothing we
 * have recorded as failed goes out later behind the claim's back.
 */
function withDeadline<T>(send: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout;
  return Promise.race([
    send(abort.signal),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new Error(`send did not finish within ${ms / 1000} s`);
        abort.abort(err);
        reject(err);
      }, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export function createDispatcher(opts: {
  db: Kysely<Database>;
  config: Config;
  log: Logger;
  now: () => Date;
  transport?: Transporter | null;
  sms?: SmsSender | null;
  /** Wake up by itself for retries and expired leases due soon (the server's scheduler; off in tests). */
  schedule?: boolean;
  /** Messages claimed and sent at once (tests and benchmarks). */
  concurrency?: number;
  /** How long one send may take before it counts as failed (tests; SEND_DEADLINE_MS otherwise). */
  sendDeadlineMs?: number;
  /** The self-service link key (lib/manage-token.ts): emails get the customer's manage link when sent. */
  manageKey?: Uint8Array | null;
}): Dispatcher {
  const { db, config, log, now } = opts;
  const concurrency = Math.max(1, opts.concurrency ?? CONCURRENCY);
  const transport = opts.transport === undefined ? createTransport(config, concurrency) : opts.transport;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let wakeTimer: NodeJS.Timeout | null = null;
  let loggedUnconfigured = false;
  /** SMTP unset: the id up to which waiting emails have been logged, by this process. */
  let loggedEmailsUpTo: number | null = null;

  /** Sends the message; answers the body columns to record when it was rendered only now. */
  async function deliver(row: OutboxMessageRow, signal: AbortSignal): Promise<RenderedColumns> {
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
        const r = renderQueuedEmail(row.render, { manageKey: opts.manageKey, sendingAt: now() });
        body = { subject: r.subject, text: r.text, html: r.html, attachments: r.attachments };
        // The row keeps the body without the manage link (r.record): a stored link is a stored token.
        const kept = r.record ?? r;
        rendered = {
          subject: r.subject,
          body_text: kept.text,
          body_html: kept.html,
          attachments: JSON.stringify(r.attachments),
          render: null,
        };
      }
      // The stored Message-ID goes with every attempt: a receiver that got an attempt whose outcome
      // we never learned (the process died) drops the copy.
      await transport.sendMail({
        from: config.MAIL_FROM,
        to: row.to_address,
        subject: body.subject,
        text: body.text,
        html: body.html,
        messageId: row.message_id,
        attachments: body.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
        signal,
      });
      return rendered;
    }
    if (!opts.sms) throw new Error('SMS is not configured');
    await opts.sms.send(row.to_address, row.body_text);
    return {};
  }

  /** Sends one claimed message and records the outcome; true when it was sent and recorded. */
  async function sendClaimed(row: OutboxMessageRow): Promise<boolean> {
    const claim: Claim = { id: row.id, attempts: row.attempts, locked_until: row.locked_until! };
    try {
      const rendered = await withDeadline((signal) => deliver(row, signal), opts.sendDeadlineMs ?? SEND_DEADLINE_MS);
      if (await markSent(db, claim, rendered, now())) return true;
      // Our lease ran out and another process took the message over: it records the outcome.
      log.warn('outbox claim lost before marking sent', { id: row.id, channel: row.channel, kind: row.kind });
      return false;
    } catch (err) {
      const permanent = isPermanent(err);
      const exhausted = !permanent && row.attempts >= MAX_ATTEMPTS;
      const dead = permanent || exhausted;
      // A dead message says why no attempt follows: the provider's refusal names itself, running out does not.
      const error = exhausted ? `${errorText(err)} (gave up after ${MAX_ATTEMPTS} attempts)` : errorText(err);
      const at = now();
      if (err instanceof DeliveryError && err.optOut && row.company_id != null) {
        const companyId = row.company_id;
        await db.transaction().execute(async (trx) => {
          await markFailed(trx, claim, { dead: true, retryAt: at, error });
          await recordSmsOptOut(trx, companyId, row.to_address, at);
        });
      } else {
        // A dead message is due at the moment it died: nothing is scheduled for it.
        await markFailed(db, claim, { dead, retryAt: dead ? at : new Date(at.getTime() + backoffMs(row.attempts)), error });
      }
      log.warn('outbox send failed', { id: row.id, channel: row.channel, kind: row.kind, attempts: row.attempts, dead, permanent });
      return false;
    }
  }

  /**
   * What waits because its channel is not configured, never an address, a body or a link: once per
   * process how many wait, then each email queued after that once, by id and kind ("pending
   * messages are logged once, without secrets", docs/decisions/10-reminders-and-sms.md), so an
   * email queued while SMTP is unset shows in the log whenever it was queued
   * (docs/decisions/22-messaging.md).
   */
  async function logUnconfigured(): Promise<void> {
    if (!loggedUnconfigured) {
      loggedUnconfigured = true;
      if (!transport) {
        loggedEmailsUpTo = await lastMessageId(db);
        const n = await countPending(db, 'email');
        log.warn('SMTP is not configured (SMTP_URL is unset): emails wait in the outbox until it is', { pendingEmails: n });
      }
      if (!opts.sms) {
        const n = await countPending(db, 'sms');
        if (n) log.warn('SMS is not configured: texts wait in the outbox until it is', { pendingSms: n });
      }
      return;
    }
    if (transport || loggedEmailsUpTo === null) return;
    for (const m of await waitingMessagesAfter(db, 'email', loggedEmailsUpTo, 100)) {
      log.warn('email waiting in the outbox: SMTP is not configured', {
        id: m.id,
        kind: m.kind,
        companyId: m.company_id,
        appointmentId: m.appointment_id,
      });
      loggedEmailsUpTo = m.id;
    }
  }

  async function pass(): Promise<number> {
    const channels: ('email' | 'sms')[] = [];
    if (transport) channels.push('email');
    if (opts.sms) channels.push('sms');
    if (!transport || !opts.sms) await logUnconfigured();
    // An SMS claimed by a process that died may have gone out: it is not sent again (docs/decisions/07-notifications-and-calendar-sync.md).
    await giveUpExpiredSmsClaims(db, now());
    let sent = 0;
    while (channels.length && !stopped) {
      const at = now();
      const batch = await claimDueMessages(db, channels, at, new Date(at.getTime() + CLAIM_MS), concurrency);
      if (!batch.length) break;
      const results = await Promise.all(batch.map(sendClaimed));
      sent += results.filter(Boolean).length;
    }
    if (opts.schedule && channels.length && !stopped) await scheduleWakeup(channels);
    return sent;
  }

  /** Runs a pass when the next retry or expired lease comes due, if that is before the minute tick would. */
  async function scheduleWakeup(channels: ('email' | 'sms')[]): Promise<void> {
    const at = now();
    const next = await nextWakeup(db, channels, at);
    if (!next) return;
    const wait = Math.max(0, new Date(next).getTime() - at.getTime()) + 100;
    if (wait > WAKE_AHEAD_MS) return;
    if (wakeTimer) clearTimeout(wakeTimer);
    wakeTimer = setTimeout(() => {
      wakeTimer = null;
      void runOnce();
    }, wait);
    wakeTimer.unref?.();
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
        log.error('outbox pass failed', { error: errorText(err) });
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
      if (wakeTimer) clearTimeout(wakeTimer);
      await running;
      transport?.close();
    },
  };
}
