// The security headers a browser gets from the real server (docs/decisions/12-operations-security-privacy.md,
// docs/decisions/30-csp-and-small-public-pages.md): nosniff on every answer, a CSP without inline
// scripts on the app shell (booking pages embeddable, everything else not), HSTS only on https.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { companyRow, serviceTypeRow } from '../testing/rows.ts';
import { contentSecurityPolicy } from './security-headers.ts';

/** A stand-in for the built PWA: the shell and one script, served by the real static handler. */
function fakeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-csp-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Bookwell</title></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log("app");\n');
  return dir;
}

/** Every directive of a policy by name. */
function directives(policy: string | null): Record<string, string> {
  expect(policy).toBeTruthy();
  return Object.fromEntries(
    policy!.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values.join(' ')];
    }),
  );
}

describe.each(testDialects())('security headers (%s)', (dialect) => {
  let http: TestServer;
  let https: TestServer;
  const dist = fakeDist();

  beforeAll(async () => {
    http = await startTestServer(dialect, { env: { PWA_DIST: dist, APP_URL: 'http://localhost:3000' } });
    https = await startTestServer(dialect, { env: { PWA_DIST: dist, APP_URL: 'https://book.example.com' } });
  }, 60_000);
  afterAll(async () => {
    await http?.close();
    await https?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (server: TestServer, p: string, init?: RequestInit) => fetch(`${server.url}${p}`, init);

  it('sends nosniff on every answer: API, error, static file, app shell', async () => {
    const answers = await Promise.all([
      get(http, '/api/health'),
      get(http, '/api/no-such-route'),
      get(http, '/api/appointments'), // 401
      get(http, '/api/service-types', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      get(http, '/assets/index-abc.js'),
      get(http, '/calendar'),
      get(http, '/'),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 404, 401, expect.any(Number), 200, 200, 200]);
    for (const res of answers) expect(res.headers.get('x-content-type-options'), res.url).toBe('nosniff');
  });

  it('puts a CSP without inline scripts on the app shell, and none on JSON or scripts', async () => {
    for (const p of ['/', '/calendar', '/login', '/index.html']) {
      const res = await get(http, p);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp['script-src']).toBe("'self'");
      expect(csp['default-src']).toBe("'self'");
      expect(csp['object-src']).toBe("'none'");
      expect(csp['base-uri']).toBe("'self'");
      expect(csp['frame-ancestors']).toBe("'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).not.toContain('unsafe-eval');
    }
    expect((await get(http, '/api/health')).headers.get('content-security-policy')).toBeNull();
    expect((await get(http, '/assets/index-abc.js')).headers.get('content-security-policy')).toBeNull();
  });

  it('lets any site embed the booking pages, and only those', async () => {
    for (const p of ['/public/booking/demo', '/public/booking/demo?embed=1']) {
      const res = await get(http, p);
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp['frame-ancestors']).toBe('*');
      // The company's logo, wherever it is hosted.
      expect(csp['img-src']).toBe("'self' data: blob: https: http:");
      expect(csp['script-src']).toBe("'self'");
      expect(res.headers.get('x-frame-options')).toBeNull();
    }
    expect(directives((await get(http, '/public/bookings')).headers.get('content-security-policy'))['frame-ancestors']).toBe("'none'");
    expect(directives((await get(http, '/book-appointment/1')).headers.get('content-security-policy'))['frame-ancestors']).toBe("'none'");
  });

  // The availability answers are made with their headers complete (complete-answer.ts), the
  // middlewares that add them to every other answer leaving them alone: they must come out the same.
  it('gives the availability answers the same security headers as every other answer, and their own request id', async () => {
    const perAnswer = new Set([
      'date',
      'connection',
      'keep-alive',
      'content-length',
      'content-type',
      'content-encoding',
      'vary',
      'cache-control',
      'x-request-id',
    ]);
    const shared = (res: Response) => [...res.headers].filter(([name]) => !perAnswer.has(name)).sort();
    for (const server of [http, https]) {
      const iso = new Date().toISOString();
      const { id: companyId } = await server.db
        .insertInto('companies')
        .values(companyRow({ name: 'Headers', slug: `headers-${server === http ? 'http' : 'https'}`, created_at: iso, updated_at: iso }))
        .returning('id')
        .executeTakeFirstOrThrow();
      const { id: serviceId } = await server.db
        .insertInto('service_types')
        .values(serviceTypeRow({ company_id: companyId, name: 'Cut', duration_minutes: 30, updated_at: iso }))
        .returning('id')
        .executeTakeFirstOrThrow();
      const health = await get(server, '/api/health');
      expect(shared(health)).toContainEqual(['x-content-type-options', 'nosniff']);
      for (const [p, encoding] of [
        [`/api/appointments/available-dates?company_id=${companyId}&service_type_id=${serviceId}`, 'identity'],
        [`/api/appointments/available-slots?company_id=${companyId}&service_type_id=${serviceId}&date=2030-01-07`, 'br'],
      ]) {
        const res = await get(server, p, { headers: { 'X-Request-Id': `complete-${encoding}`, 'Accept-Encoding': encoding } });
        expect(res.status, p).toBe(200);
        expect(shared(res), p).toEqual(shared(health));
        expect(res.headers.get('x-request-id')).toBe(`complete-${encoding}`);
        expect(res.headers.get('vary')).toBe('Accept-Encoding');
        expect(res.headers.get('content-security-policy')).toBeNull();
      }
    }
  });

  it('sends HSTS only when APP_URL is https', async () => {
    for (const p of ['/api/health', '/', '/assets/index-abc.js', '/api/no-such-route']) {
      expect((await get(http, p)).headers.get('strict-transport-security'), p).toBeNull();
      expect((await get(https, p)).headers.get('strict-transport-security'), p).toBe('max-age=31536000; includeSubDomains');
    }
  });
});

describe('contentSecurityPolicy', () => {
  it('allows API calls to the configured API origins', () => {
    const csp = directives(contentSecurityPolicy('/calendar', ['https://api.example.com']));
    expect(csp['connect-src']).toBe("'self' https://api.example.com");
  });
});
