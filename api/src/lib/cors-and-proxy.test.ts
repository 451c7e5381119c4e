// Calls from another origin (CORS_ORIGINS) and addresses from a proxy (TRUST_PROXY), against the real
// server (docs/decisions/12-operations-security-privacy.md, 29-input-rate-limits-request-ids.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { startTestServer, uniqueEmail, type TestServer } from '../testing/harness.ts';

const SHOP = 'https://shop.example.com';

describe('CORS_ORIGINS at start', () => {
  it('refuses entries a browser can never send as its Origin, naming each', () => {
    const bad = ['*', `${SHOP}/`, 'shop.example.com', `${SHOP}/book`, 'null'];
    let error: unknown;
    try {
      loadConfig({ CORS_ORIGINS: [SHOP, ...bad].join(',') });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(bad.length);
    for (const entry of bad)
      expect(
        problems.some((p) => p.startsWith('CORS_ORIGINS:') && p.includes(`"${entry}"`)),
        entry,
      ).toBe(true);
    expect(loadConfig({ CORS_ORIGINS: `${SHOP}, http://localhost:5173` }).corsOrigins).toEqual([SHOP, 'http://localhost:5173']);
  });
});

describe('another origin and a proxy over HTTP', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { env: { CORS_ORIGINS: SHOP, TRUST_PROXY: 'true', RATE_LIMIT_LOGIN: '1' } });
  });
  afterAll(async () => t?.close());

  it('lets the configured origin read the headers the web app reads: versions, ids, Retry-After, replays, downloads', async () => {
    const res = await fetch(`${t.url}/api/health`, { headers: { Origin: SHOP } });
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    for (const h of ['etag', 'x-request-id', 'retry-after', 'idempotent-replayed', 'content-disposition']) expect(exposed, h).toContain(h);
    const other = await fetch(`${t.url}/api/health`, { headers: { Origin: 'https://elsewhere.example.com' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('takes the address from X-Forwarded-For only when it is one; junk falls back to the socket', async () => {
    const failedLoginFrom = async (xff: string) => {
      const email = uniqueEmail('proxy');
      const res = await t.call('POST', '/login', { body: { email, password: 'wrong-password' }, headers: { 'X-Forwarded-For': xff } });
      expect(res.status).toBe(400);
      const entry = await t.db
        .selectFrom('audit_log')
        .select('ip')
        .where('action', '=', 'login_failed')
        .where('changes', 'like', `%${email}%`)
        .executeTakeFirstOrThrow();
      return entry.ip;
    };
    expect(await failedLoginFrom('198.51.100.7, 203.0.113.9')).toBe('203.0.113.9');
    expect(await failedLoginFrom('2001:db8::1')).toBe('2001:db8::1');
    const junk = await failedLoginFrom('203.0.113.9, not-an-ip');
    expect(junk).not.toBe('not-an-ip');
    expect(junk).toMatch(/127\.0\.0\.1|::1/);
  });
});
