// Request ids (docs/decisions/29-input-rate-limits-request-ids.md): every answer carries X-Request-Id,
// a safe incoming one is kept, and every log line written during the request carries it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '@bookwell/db/testing';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../bootstrap.ts';
import { call } from '../testing/harness.ts';
import { createLogger, withLogContext } from './logger.ts';
import { requestIdFrom } from './request-id.ts';

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

describe('log context', () => {
  it('adds the request id to lines written after awaits, in code that never saw the request', async () => {
    const lines: string[] = [];
    const log = createLogger('info', (l) => lines.push(l));
    const service = async () => {
      await sleep(5);
      log.warn('deep inside', { n: 1 });
    };
    await Promise.all([withLogContext({ requestId: 'one' }, service), withLogContext({ requestId: 'two' }, service)]);
    log.info('outside');
    const parsed = lines.map((l) => JSON.parse(l));
    expect(
      parsed
        .filter((p) => p.msg === 'deep inside')
        .map((p) => p.requestId)
        .sort(),
    ).toEqual(['one', 'two']);
    expect(parsed.find((p) => p.msg === 'outside').requestId).toBeUndefined();
  });
});

describe.each(testDialects())('X-Request-Id on %s', (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let dist: string;
  const lines: any[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
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
    });
    server = await startServer(config, { log: createLogger('info', (l) => lines.push(JSON.parse(l))) });
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
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
});
