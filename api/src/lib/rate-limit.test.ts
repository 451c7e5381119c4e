// Rate limits (docs/decisions/29-input-rate-limits-request-ids.md): atomic under concurrency on both
// databases, a 429 with Retry-After wherever one applies, and the limits on password-reset confirm,
// change-password and the availability reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { registerCompany, startTestServer, uniqueEmail, type TestServer } from '../testing/harness.ts';
import { MemoryRateLimiter, consume, waitInWords } from './rate-limit.ts';

describe('MemoryRateLimiter', () => {
  it('says a wait in the words a person would use', () => {
    expect([1, 30, 59, 60, 61, 846, 900].map(waitInWords)).toEqual([
      '1 second',
      '30 seconds',
      '59 seconds',
      '1 minute',
      '2 minutes',
      '15 minutes',
      '15 minutes',
    ]);
  });

  it('admits the limit per key per window, says how long to wait, and starts afresh each window', () => {
    const limiter = new MemoryRateLimiter(2, 60_000);
    const t0 = 1_800_000_000_000; // a whole minute
    expect(limiter.take('a', t0)).toBeNull();
    expect(limiter.take('a', t0 + 1)).toBeNull();
    expect(limiter.take('a', t0 + 15_000)).toBe(45);
    expect(limiter.take('b', t0 + 15_000)).toBeNull();
    expect(limiter.take('a', t0 + 60_000)).toBeNull();
  });
});

describe.each(testDialects())('rate limits on %s', (dialect) => {
  let t: TestServer;
  let ip = 0;
  // TRUST_PROXY: each test speaks from its own address, so the buckets of one test never fill another's.
  const from = () => ({ 'X-Forwarded-For': `203.0.113.${++ip}` });
  beforeAll(async () => {
    t = await startTestServer(dialect, {
      env: { TRUST_PROXY: 'true', RATE_LIMIT_PUBLIC: '5', RATE_LIMIT_LOGIN: '3', RATE_LIMIT_AVAILABILITY: '4' },
    });
  });
  afterAll(async () => t?.close());

  const expectRetryAfter = (headers: Headers, max: number) => {
    const seconds = Number(headers.get('retry-after'));
    expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= max, `Retry-After ${headers.get('retry-after')}`).toBe(true);
  };

  it('admits exactly the limit of many parallel consumers', async () => {
    const now = new Date();
    const results = await Promise.all(Array.from({ length: 40 }, () => consume(t.db, 'test-parallel', 'k', 7, 60_000, now)));
    expect(results.filter(Boolean)).toHaveLength(7);
    const rows = await t.db.selectFrom('rate_limit_hits').select('id').where('bucket', '=', 'test-parallel').execute();
    expect(rows).toHaveLength(7);
    // Another key has its own count; hits older than the window no longer count.
    expect(await consume(t.db, 'test-parallel', 'other', 7, 60_000, now)).toBe(true);
    expect(await consume(t.db, 'test-parallel', 'k', 7, 60_000, new Date(now.getTime() + 61_000))).toBe(true);
  });

  it('admits exactly RATE_LIMIT_PUBLIC of parallel reset requests; the rest get 429 with Retry-After', async () => {
    const headers = from();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.call('POST', '/password-reset/request', { body: { email_or_username: uniqueEmail('nobody') }, headers }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(15);
    for (const a of limited) {
      expect(a.body.code).toBe('rate_limited');
      expectRetryAfter(a.headers, 60);
    }
  });

  it('limits failed sign-ins atomically: parallel wrong guesses get RATE_LIMIT_LOGIN answers, then 429', async () => {
    const owner = await registerCompany(t);
    const headers = from();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => t.call('POST', '/login', { body: { email: owner.email, password: 'wrong-guess' }, headers })),
    );
    expect(answers.filter((a) => a.status === 400)).toHaveLength(3);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(9);
    for (const a of limited) {
      expectRetryAfter(a.headers, 900);
      // The text says the wait the header says, in minutes rounded up.
      const minutes = Math.ceil(Number(a.headers.get('retry-after')) / 60);
      expect(a.body.error).toBe(`Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
    }
    // From elsewhere the owner still signs in.
    expect((await t.call('POST', '/login', { body: { email: owner.email, password: owner.password }, headers: from() })).status).toBe(200);
  });

  it('limits password-reset confirm per IP', async () => {
    const headers = from();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.call('POST', '/password-reset/confirm', {
        body: { token: `not-a-token-${i}`, new_password: 'secret1234' },
        headers,
      });
      statuses.push(res.status);
      if (res.status === 429) expectRetryAfter(res.headers, 60);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('limits change-password attempts per person and IP', async () => {
    const owner = await registerCompany(t);
    const headers = from();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.call('POST', '/me/change-password', {
        token: owner.token,
        body: { current_password: `wrong-${i}`, new_password: 'another-secret' },
        headers,
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expectRetryAfter(res.headers, 900);
        expect(res.body.error).toMatch(/^Too many password change attempts\. Please try again in \d+ minutes?\.$/);
      }
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
  });

  it('limits the availability reads per IP, generously and per process', async () => {
    const headers = from();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await t.call('GET', '/appointments/available-dates?company_id=999999&service_type_id=1', { headers })).status);
      statuses.push(
        (await t.call('GET', '/appointments/available-slots?company_id=999999&service_type_id=1&date=2026-12-01', { headers })).status,
      );
    }
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429]);
    const limited = await t.call('GET', '/appointments/available-dates?company_id=999999&service_type_id=1', { headers });
    expect(limited.body.code).toBe('rate_limited');
    expectRetryAfter(limited.headers, 60);
    // Another address is not affected.
    expect((await t.call('GET', '/appointments/available-dates?company_id=999999&service_type_id=1', { headers: from() })).status).toBe(
      404,
    );
  });
});
