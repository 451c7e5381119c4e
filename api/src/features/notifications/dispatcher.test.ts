// The dispatcher against real parts: SQLite and PostgreSQL, a real SMTP server (smtp-server), a real
// server process killed mid-send. Clocks are injected so leases and backoff are checked exactly.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connect, migrateToLatest, type DatabaseHandle, type Dialect } from '@bookwell/db';
import { createTestDatabase, testDialects, type TestDatabase } from '@bookwell/db/testing';
import { loadConfig } from '../../config.ts';
import type { Logger } from '../../lib/logger.ts';
import { startTestSmtp, messageIdOf, type HeldSmtp } from '../../testing/smtp.ts';
import { spawnServer } from '../../testing/process.ts';
import { companyRow } from '../../testing/rows.ts';
import { CLAIM_MS, MAX_ATTEMPTS, backoffMs, createDispatcher, type SmsSender } from './dispatcher.service.ts';
import { DeliveryError } from './delivery-error.ts';
import { claimDueMessages, enqueueEmail, enqueueSms, requeueMessage } from './outbox.repository.ts';

const T0 = new Date('2026-11-25T10:00:00.000Z');

function recordingLog(): Logger & { lines: { msg: string; fields?: Record<string, unknown> }[] } {
  const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
  const rec = (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, fields });
  const log = { lines, debug: rec, info: rec, warn: rec, error: rec, child: () => log };
  return log;
}

async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(testDialects())('outbox dispatcher (%s)', (dialect: Dialect) => {
  let tdb: TestDatabase;
  let a: DatabaseHandle;
  let b: DatabaseHandle;
  let smtp: HeldSmtp;
  let clock: Date;
  const now = () => clock;

  beforeAll(async () => {
    tdb = await createTestDatabase(dialect);
    a = connect(tdb.url);
    await migrateToLatest(a);
    // A second, separate connection: another process's view of the same database.
    b = connect(tdb.url);
    smtp = await startTestSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
    await a?.close();
    await b?.close();
    await tdb?.drop();
  });
  beforeEach(async () => {
    clock = T0;
    smtp.messages.length = 0;
    await a.db.deleteFrom('outbox_messages').execute();
  });

  const config = (smtpUrl?: string) => loadConfig({ DATABASE_URL: tdb.url, SMTP_URL: smtpUrl, LOG_LEVEL: 'silent' });
  const dispatcher = (
    db: DatabaseHandle,
    o: { smtpUrl?: string | null; sms?: SmsSender; log?: Logger; clock?: () => Date; sendDeadlineMs?: number } = {},
  ) =>
    createDispatcher({
      db: db.db,
      config: config(o.smtpUrl === null ? undefined : (o.smtpUrl ?? smtp.url)),
      log: o.log ?? recordingLog(),
      now: o.clock ?? now,
      sms: o.sms ?? null,
      sendDeadlineMs: o.sendDeadlineMs,
    });
  const email = (to: string, at = clock) =>
    enqueueEmail(a.db, { to, subject: `Hello ${to}`, text: 'Hello', kind: 'confirmation' }, at) as Promise<number>;
  const row = (id: number) => a.db.selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  const company = (name: string) =>
    a.db
      .insertInto('companies')
      .values(
        companyRow({
          name,
          slug: `${name.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}`,
          enable_employee_booking: 1,
          updated_at: T0.toISOString(),
        }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
  const customer = (companyId: number, phone: string) =>
    a.db
      .insertInto('users')
      .values({
        company_id: companyId,
        name: 'Customer',
        email: `c${Math.random().toString(36).slice(2, 10)}@example.test`,
        phone,
        role: 'customer',
        password_hash: null,
        token_version: 0,
        archived_at: null,
        updated_at: T0.toISOString(),
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
  it('two dispatchers on separate connections send 200 due messages, each exactly once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 200; i++) ids.push(await email(`c${i}@example.test`));
    const connectionsBefore = smtp.connections;
    const d1 = dispatcher(a);
    const d2 = dispatcher(b);
    const [n1, n2] = await Promise.all([d1.runOnce(), d2.runOnce()]);
    await Promise.all([d1.stop(), d2.stop()]);

    expect(n1 + n2).toBe(200);
    expect(smtp.messages).toHaveLength(200);
    const received = smtp.messages.map((m) => messageIdOf(m.raw));
    expect(new Set(received).size).toBe(200);
    const rows = await a.db.selectFrom('outbox_messages').select(['state', 'attempts', 'message_id', 'to_address']).execute();
    expect(rows.every((r) => r.state === 'sent' && r.attempts === 1)).toBe(true);
    expect(new Set(received)).toEqual(new Set(rows.map((r) => r.message_id)));
    // Every recipient got its own message, once.
    expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual(rows.map((r) => r.to_address).sort());
    // Over pooled connections (at most 8 per dispatcher, each reused), not one connection per message.
    expect(smtp.connections - connectionsBefore).toBeLessThanOrEqual(2 * 8);
  });

  it('a send past its deadline is failed and dropped from the pool: retried later with the same Message-ID, never sent behind the claim', async () => {
    const id = await email('stalled@example.test');
    const stalling = await startTestSmtp({ hold: true });
    try {
      const d = dispatcher(a, { smtpUrl: stalling.url, sendDeadlineMs: 300 });
      expect(await d.runOnce()).toBe(0);
      const failed = await row(id);
      expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
      expect(failed.last_error).toMatch(/did not finish/);
      // The aborted delivery's connection was closed: answering now records nothing, and the pool
      // still sends the next message.
      stalling.release();
      await new Promise((r) => setTimeout(r, 200));
      expect(await row(id)).toEqual(failed);
      const next = await email('next@example.test');
      expect(await d.runOnce()).toBe(1);
      await d.stop();
      expect((await row(next)).state).toBe('sent');

      // Its retry after the backoff goes out once, with the Message-ID of the first attempt.
      clock = new Date(T0.getTime() + backoffMs(1) + 1000);
      const retry = dispatcher(b);
      expect(await retry.runOnce()).toBe(1);
      await retry.stop();
      expect(await row(id)).toMatchObject({ state: 'sent', attempts: 2 });
      expect(smtp.messages.map((m) => messageIdOf(m.raw))).toEqual([failed.message_id]);
    } finally {
      stalling.release();
      await stalling.close();
    }
  });

  it('a claim taken over after its lease ran out is not marked sent by the old holder', async () => {
    const id = await email('slow@example.test');
    const first = await startTestSmtp({ hold: true });
    const second = await startTestSmtp({ hold: true });
    try {
      const old = dispatcher(a, { smtpUrl: first.url, clock: () => T0 });
      const oldPass = old.runOnce();
      await waitUntil(() => first.held.length === 1, 'the first attempt to reach the SMTP server');
      expect((await row(id)).state).toBe('sending');

      // Before the lease ends nobody else may take it.
      clock = new Date(T0.getTime() + CLAIM_MS - 1000);
      const other = dispatcher(b, { smtpUrl: second.url });
      expect(await other.runOnce()).toBe(0);
      // After it, another process does, and sends it with the same Message-ID.
      clock = new Date(T0.getTime() + CLAIM_MS + 1000);
      const otherPass = other.runOnce();
      await waitUntil(() => second.held.length === 1, 'the second attempt to reach the SMTP server');
      const retaken = await row(id);
      expect(retaken).toMatchObject({ state: 'sending', attempts: 2 });

      // The old holder's send completes first: it must not record anything (the claim is no longer its).
      first.release();
      expect(await oldPass).toBe(0);
      expect(await row(id)).toEqual(retaken);
      second.release();
      expect(await otherPass).toBe(1);
      await Promise.all([old.stop(), other.stop()]);
      const sent = await row(id);
      expect(sent).toMatchObject({ state: 'sent', attempts: 2 });
      expect(messageIdOf(first.messages[0]!.raw)).toBe(sent.message_id);
      expect(messageIdOf(second.messages[0]!.raw)).toBe(sent.message_id);
    } finally {
      first.release();
      second.release();
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('a process killed mid-send: the email is sent after the lease, with the same Message-ID', async () => {
    const id = await email('crash@example.test', new Date());
    const holding = await startTestSmtp({ hold: true });
    const server = await spawnServer({ DATABASE_URL: tdb.url, SMTP_URL: holding.url }, 60_000);
    try {
      // The server's pass at start claims the message and is stuck in the middle of sending it.
      await waitUntil(() => holding.held.length === 1, 'the server to start sending', 60_000);
      server.child.kill('SIGKILL');
      await server.stop();
      const claimed = await row(id);
      expect(claimed).toMatchObject({ state: 'sending', attempts: 1 });

      const lease = new Date(claimed.locked_until!).getTime();
      expect(lease).toBeGreaterThan(Date.now());
      expect(lease - new Date(claimed.created_at).getTime()).toBeLessThanOrEqual(CLAIM_MS + 30_000);
      clock = new Date(lease - 1);
      const next = dispatcher(b);
      expect(await next.runOnce()).toBe(0);
      clock = new Date(lease + 1);
      expect(await next.runOnce()).toBe(1);
      await next.stop();

      expect(await row(id)).toMatchObject({ state: 'sent', attempts: 2 });
      expect(smtp.messages).toHaveLength(1);
      expect(messageIdOf(smtp.messages[0]!.raw)).toBe(claimed.message_id);
      expect(messageIdOf(holding.held[0]!.raw)).toBe(claimed.message_id);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      holding.release();
      await holding.close();
    }
  }, 90_000);

  it('retries with backoff and gives up after the last attempt, keeping the reason', async () => {
    const id = await email('tempfail@example.test');
    const d = dispatcher(a);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await d.runOnce()).toBe(0);
      const r = await row(id);
      expect(r.attempts).toBe(attempt);
      expect(r.last_error).toMatch(/451/);
      if (attempt < MAX_ATTEMPTS) {
        expect(r.state).toBe('failed');
        expect(new Date(r.due_at).getTime()).toBe(clock.getTime() + backoffMs(attempt));
        // Not tried again before its time.
        clock = new Date(new Date(r.due_at).getTime() - 1);
        expect(await d.runOnce()).toBe(0);
        expect((await row(id)).attempts).toBe(attempt);
        clock = new Date(r.due_at);
      } else {
        expect(r.state).toBe('dead');
        expect(r.last_error).toMatch(/gave up after 8 attempts\)$/);
        expect(new Date(r.due_at).getTime()).toBe(clock.getTime());
      }
    }
    clock = new Date(clock.getTime() + 24 * 3600_000);
    expect(await d.runOnce()).toBe(0);
    expect((await row(id)).attempts).toBe(MAX_ATTEMPTS);
    await d.stop();
    expect([backoffMs(1), backoffMs(2), backoffMs(3), backoffMs(8)]).toEqual([30_000, 60_000, 120_000, 3_600_000]);
  });

  it('a permanent refusal is dead at once with the reason; put back to pending, it is sent', async () => {
    const companyId = (await company('Retry')).id;
    const always = await email('reject-always@example.test');
    const once = (await enqueueEmail(
      a.db,
      { to: 'reject-once.retry@example.test', subject: 'Hi', text: 'Hi', kind: 'confirmation', companyId },
      clock,
    ))!;
    const d = dispatcher(a);
    await d.runOnce();
    expect(await row(always)).toMatchObject({ state: 'dead', attempts: 1 });
    expect((await row(always)).last_error).toMatch(/550/);
    expect(await row(once)).toMatchObject({ state: 'dead', attempts: 1 });

    // An admin's retry (POST .../messages/{id}/retry) puts it back; the server now takes it.
    expect(await requeueMessage(a.db, companyId + 1, once, clock)).toBeUndefined(); // not that company's message
    expect(await requeueMessage(a.db, companyId, once, clock)).toMatchObject({ id: once, state: 'pending', attempts: 0 });
    expect(await requeueMessage(a.db, companyId, once, clock)).toBeUndefined(); // pending now, not failed or dead
    expect(await d.runOnce()).toBe(1);
    const sent = await row(once);
    expect(sent).toMatchObject({ state: 'sent', last_error: null });
    expect(messageIdOf(smtp.messages[0]!.raw)).toBe(sent.message_id);
    await d.stop();
  });

  it('an SMS whose sender died mid-send is not sent again', async () => {
    const texts: string[] = [];
    const id = (await enqueueSms(a.db, { to: '+15550001111', text: 'Reminder', kind: 'reminder' }, clock)) as number;
    const [claimed] = await claimDueMessages(a.db, ['sms'], clock, new Date(clock.getTime() + CLAIM_MS), 10);
    expect(claimed!.id).toBe(id);
    clock = new Date(clock.getTime() + CLAIM_MS + 1);
    const d = dispatcher(b, { sms: { send: async (to) => void texts.push(to) } });
    expect(await d.runOnce()).toBe(0);
    await d.stop();
    expect(texts).toEqual([]);
    expect(await row(id)).toMatchObject({ state: 'dead' });
    expect((await row(id)).last_error).toMatch(/outcome unknown/);
  });

  it('SMTP unset: an email queued after the process started is logged once, by id and kind, with no address or secret', async () => {
    const before = await email('before@example.test');
    const log = recordingLog();
    const d = dispatcher(a, { smtpUrl: null, log });
    expect(await d.runOnce()).toBe(0);
    const queued = await email('queued-later@example.test');
    expect(await d.runOnce()).toBe(0);
    expect(await d.runOnce()).toBe(0);
    await d.stop();
    const waiting = log.lines.filter((l) => l.msg.startsWith('email waiting in the outbox'));
    expect(waiting).toEqual([
      { msg: expect.any(String), fields: { id: queued, kind: 'confirmation', companyId: null, appointmentId: null } },
    ]);
    expect(log.lines.filter((l) => l.msg.startsWith('SMTP is not configured'))).toHaveLength(1);
    expect(JSON.stringify(log.lines)).not.toMatch(/example\.test|Hello/);
    expect(await row(before)).toMatchObject({ state: 'pending' });
    expect(await row(queued)).toMatchObject({ state: 'pending' });
  });

  it('STOP from a customer: the SMS is dead, the customer opted out and their other queued texts cancelled', async () => {
    const one = (await company('One')).id;
    const two = (await company('Two')).id;
    const stopper = (await customer(one, '+15550000001')).id;
    const elsewhere = (await customer(two, '+15550000001')).id;
    const sms = (to: string, companyId: number, dueAt = clock) =>
      enqueueSms(a.db, { to, text: 'Reminder', kind: 'reminder', companyId, dueAt }, clock) as Promise<number>;
    const stopped = await sms('+15550000001', one);
    const later = await sms('+15550000001', one, new Date(clock.getTime() + 3600_000));
    const otherCompany = await sms('+15550000001', two, new Date(clock.getTime() + 3600_000));
    const bad = await sms('+15550000002', one);
    const fine = await sms('+15550000003', one);
    await email('waiting@example.test');

    const delivered: string[] = [];
    const sender: SmsSender = {
      async send(to) {
        if (to === '+15550000001')
          throw new DeliveryError('Twilio 21610: recipient unsubscribed', { permanent: true, optOut: true, providerCode: 21610 });
        if (to === '+15550000002') throw new DeliveryError('Twilio 400: invalid number', { permanent: true, providerCode: 21211 });
        delivered.push(to);
      },
    };
    const log = recordingLog();
    const d = dispatcher(a, { smtpUrl: null, sms: sender, log });
    expect(await d.runOnce()).toBe(1);
    expect(await d.runOnce()).toBe(0);
    await d.stop();

    expect(delivered).toEqual(['+15550000003']);
    expect(await row(stopped)).toMatchObject({ state: 'dead', attempts: 1 });
    expect((await row(stopped)).last_error).toMatch(/21610/);
    expect(await row(later)).toMatchObject({ state: 'cancelled' });
    expect(await row(otherCompany)).toMatchObject({ state: 'pending' });
    expect(await row(bad)).toMatchObject({ state: 'dead', attempts: 1 });
    expect(await row(fine)).toMatchObject({ state: 'sent' });
    const optedOut = async (id: number) =>
      (await a.db.selectFrom('users').select('sms_opted_out_at').where('id', '=', id).executeTakeFirstOrThrow()).sms_opted_out_at;
    expect(await optedOut(stopper)).not.toBeNull();
    expect(await optedOut(elsewhere)).toBeNull();

    // SMTP unset: the waiting email is counted in the log once, with no address or secret in it.
    const notices = log.lines.filter((l) => l.msg.startsWith('SMTP is not configured'));
    expect(notices).toEqual([{ msg: expect.any(String), fields: { pendingEmails: 1 } }]);
    expect(JSON.stringify(log.lines)).not.toContain('waiting@example.test');
  });
});

describe('outbox dispatcher lease', () => {
  it('the claim lease outlasts the SMTP timeout and a claim by a dead process expires within a minute', async () => {
    const { SMTP_TIMEOUT_MS } = await import('./dispatcher.service.ts');
    expect(CLAIM_MS).toBeGreaterThan(SMTP_TIMEOUT_MS);
    expect(CLAIM_MS).toBeLessThanOrEqual(60_000);
  });
});
