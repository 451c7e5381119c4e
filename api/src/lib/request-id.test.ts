// Request ids (docs/decisions/29-input-rate-limits-request-ids.md): every answer carries X-Request-Id,
// a safe incoming one is kept, and every log line written during the request carries it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '@bookwell/db/testing';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../bootstrap.ts';
import { call } from '../testing/harness.ts';
import { createLogger } from './logger.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { requestIdFrom } from './request-id.ts';

const WEBHOOK_SECRET = 'whsec_request_id';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('requestIdFrom', () => {
  it('keeps at most 128 characters of [A-Za-z0-9._-] and replaces anything else', () => {
    expect(requestIdFrom('abc-DEF_1.2')).toBe('abc-DEF_1.2');
    expect(requestIdFrom('x'.repeat(128))).toBe('x'.repeat(128));
    for (const bad of ['x'.repeat(129), '', 'a b', 'a\nb', 'id;drop', 'é', '<script>']) expect(requestIdFrom(bad)).toMatch(UUID);
    expect(requestIdFrom(undefined)).toMatch(UUID);
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });
});

describe('child loggers', () => {
  it('add their fields to every line, nested, without touching the parent', () => {
    const lines: string[] = [];
    const log = createLogger('info', (l) => lines.push(l));
    const one = log.child({ requestId: 'one' });
    one.child({ part: 'x' }).warn('deep inside', { n: 1 });
    log.child({ requestId: 'two' }).info('other request');
    log.info('outside');
    one.debug('below the level');
    const parsed = lines.map((l) => JSON.parse(l));
    expect(parsed.map((p) => [p.msg, p.requestId, p.part, p.n])).toEqual([
      ['deep inside', 'one', 'x', 1],
      ['other request', 'two', undefined, undefined],
      ['outside', undefined, undefined, undefined],
    ]);
  });
});

describe.each(testDialects())('X-Request-Id on %s', (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let dist: string;
  let stripeApi: http.Server;
  const lines: any[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // Stripe's API as far as this test needs it: no subscription exists.
    stripeApi = http.createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } }));
    });
    await new Promise<void>((resolve) => stripeApi.listen(0, '127.0.0.1', resolve));
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'request-id-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>t</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    const config = loadConfig({
      PORT: '0',
      DATABASE_URL: database.url,
      PWA_DIST: dist,
      RATE_LIMIT_PUBLIC: '1',
      DISABLE_SCHEDULER: 'true',
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_STANDARD: 'price_standard_test',
      STRIPE_API_BASE: `http://127.0.0.1:${(stripeApi.address() as AddressInfo).port}`,
    });
    server = await startServer(config, { log: createLogger('info', (l) => lines.push(JSON.parse(l))) });
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
    stripeApi?.closeAllConnections();
    await new Promise((resolve) => stripeApi?.close(resolve));
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (p: string, headers: Record<string, string> = {}) => fetch(`${server.url}${p}`, { headers });

  it('is on API answers, 404s, errors, static files and the app shell', async () => {
    const answers = [
      await get('/api/health'),
      await get('/api/nothing-here'),
      await fetch(`${server.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' }),
      await get('/assets/app.js'),
      await get('/some/client/route'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 400, 200, 200]);
    for (const r of answers) expect(r.headers.get('x-request-id')).toMatch(UUID);
    expect(new Set(answers.map((r) => r.headers.get('x-request-id'))).size).toBe(answers.length);
  });

  it('is on 429 answers', async () => {
    const body = { email_or_username: 'nobody@example.com' };
    await call(server.url, 'POST', '/api/password-reset/request', { body });
    const limited = await call(server.url, 'POST', '/api/password-reset/request', { body, headers: { 'X-Request-Id': 'limited-1' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-request-id')).toBe('limited-1');
  });

  it('keeps a safe incoming id and replaces an unsafe one', async () => {
    expect((await get('/api/health', { 'X-Request-Id': 'lb.abc_123-XYZ' })).headers.get('x-request-id')).toBe('lb.abc_123-XYZ');
    expect((await get('/api/health', { 'X-Request-Id': 'x'.repeat(129) })).headers.get('x-request-id')).toMatch(UUID);
    expect((await get('/api/health', { 'X-Request-Id': 'a/b' })).headers.get('x-request-id')).toMatch(UUID);
  });

  it('is on the request log line', async () => {
    const res = await get('/api/health', { 'X-Request-Id': 'log-line-check' });
    expect(res.status).toBe(200);
    const line = lines.find((l) => l.msg === 'request' && l.requestId === 'log-line-check');
    expect(line).toMatchObject({ path: '/api/health', status: 200 });
  });

  it('request lines never carry a self-service or calendar feed token', async () => {
    const secret = 'Zq3secretTOKENvalue_0123456789abcdefghijkl';
    for (const [path, logged] of [
      [`/api/manage/${secret}`, '/api/manage/***'],
      [`/api/manage/${secret}/cancel`, '/api/manage/***/cancel'],
      [`/api/calendar/${secret}.ics`, '/api/calendar/***.ics'],
      [`/api/calendar/${secret}`, '/api/calendar/***'],
    ]) {
      const id = `token-log-${lines.length}`;
      await get(path, { 'X-Request-Id': id });
      const line = lines.find((l) => l.msg === 'request' && l.requestId === id);
      expect(line?.path).toBe(logged);
    }
    expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it('is on lines a service writes deep inside the request, after awaits, and only on that request', async () => {
    // A Stripe event naming a subscription Stripe does not know: the billing service asks Stripe's API
    // (the stand-in above), then logs a warning, with nothing of the request in its hands but its deps.
    const send = (requestId: string, subscription: string) => {
      const event = {
        id: `evt_${requestId}`,
        object: 'event',
        type: 'customer.subscription.updated',
        api_version: '2026-10-28.endive',
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: subscription, object: 'subscription', customer: 'cus_nobody', metadata: {} } },
      };
      const payload = JSON.stringify(event);
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      return fetch(`${server.url}/api/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature, 'X-Request-Id': requestId },
        body: payload,
      });
    };
    const answers = await Promise.all([send('webhook-one', 'sub_missing_one'), send('webhook-two', 'sub_missing_two')]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const warned = lines.filter((l) => l.msg === 'stripe event names an unknown subscription');
    expect(warned.map((l) => [l.requestId, l.subscription]).sort()).toEqual([
      ['webhook-one', 'sub_missing_one'],
      ['webhook-two', 'sub_missing_two'],
    ]);
  });
});
