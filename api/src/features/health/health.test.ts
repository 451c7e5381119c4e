// Readiness and metrics through the real server on every dialect (docs/decisions/12-operations-security-privacy.md,
// docs/decisions/32-privacy-and-operations.md).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
const NOW = new Date('2026-11-23T08:00:00.000Z');

describe.each(testDialects())('readiness and metrics on %s', (dialect) => {
  let t: TestServer;
  let plain: TestServer;
  let a: BookableCompany;

  beforeAll(async () => {
    t = await startTestServer(dialect, { env: { METRICS_TOKEN: TOKEN }, now: () => NOW });
    plain = await startTestServer(dialect);
    a = await bookableCompany(t);
  });
  afterAll(async () => {
    await t?.close();
    await plain?.close();
  });

  it('answers 404 for /metrics without METRICS_TOKEN, 401 without the right bearer token', async () => {
    const missing = await plain.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-of-the-same-size-xxx' }, { authorization: TOKEN }];
    for (const headers of attempts) {
      const res = await t.call('GET', '/metrics', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(res.text).not.toContain('bookwell_');
    }
    // The scheme's case does not matter (a scraper may send "bearer").
    const lower = await t.call('GET', '/metrics', { headers: { authorization: `bearer ${TOKEN}` } });
    expect(lower.status).toBe(200);
  });

  it('counts requests by route template and status, bookings made, the outbox by state and the process', async () => {
    await t.call('GET', `/users/${a.employee.id}`, { token: a.admin.token });
    await t.call('GET', '/users/999999', { token: a.admin.token });
    const booked = await t.call('POST', '/appointments', {
      body: {
        company_id: a.companyId,
        service_type_ids: [a.serviceId],
        start_time: '2026-11-24T09:30:00.000Z',
        customer: customerContact(),
      },
      headers: { 'Idempotency-Key': 'metrics-booking-1' },
    });
    expect(booked.status).toBe(201);
    // A replay of the same request is not a second booking.
    const replay = await t.call('POST', '/appointments', {
      body: {
        company_id: a.companyId,
        service_type_ids: [a.serviceId],
        start_time: '2026-11-24T09:30:00.000Z',
        customer: customerContact(),
      },
      headers: { 'Idempotency-Key': 'metrics-booking-1' },
    });
    expect([201, 422]).toContain(replay.status);

    const res = await t.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = res.text;
    expect(text).toMatch(/bookwell_http_requests_total\{method="GET",route="\/api\/users\/:id",status="200"\} [1-9]/);
    expect(text).toMatch(/bookwell_http_requests_total\{method="GET",route="\/api\/users\/:id",status="404"\} [1-9]/);
    expect(text).toMatch(
      /bookwell_http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/api\/users\/:id",status="200"\} [1-9]/,
    );
    expect(text).not.toContain('/api/users/999999');
    expect(text).toMatch(/^bookwell_bookings_total 1$/m);
    expect(text).toMatch(/bookwell_outbox_messages\{channel="email",state="pending"\} [1-9]/);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('is ready when listening with migrations current; 503 while starting, stopping or behind on migrations', async () => {
    const fresh = await startTestServer(dialect);
    try {
      const latest = await fresh.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .orderBy('name' as never, 'desc')
        .executeTakeFirstOrThrow();
      const name = (latest as { name: string }).name;
      await fresh.db
        .deleteFrom('kysely_migration' as never)
        .where('name' as never, '=', name as never)
        .execute();
      const behind = await fresh.call('GET', '/ready');
      expect(behind.status).toBe(503);
      expect(behind.body).toEqual({ status: 'unavailable', reason: 'migrations' });
      await fresh.db
        .insertInto('kysely_migration' as never)
        .values({ name, timestamp: new Date().toISOString() } as never)
        .execute();
      const ok = await fresh.call('GET', '/ready');
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ status: 'ready' });
      expect(ok.headers.get('cache-control')).toBe('no-store');

      fresh.server.deps.lifecycle.state = 'starting';
      expect((await fresh.call('GET', '/ready')).body).toEqual({ status: 'unavailable', reason: 'starting' });
      fresh.server.deps.lifecycle.state = 'stopping';
      const stopping = await fresh.call('GET', '/ready');
      expect(stopping.status).toBe(503);
      expect(stopping.body).toEqual({ status: 'unavailable', reason: 'stopping' });
      // Liveness is another question: the process still answers.
      expect((await fresh.call('GET', '/health')).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});

/** A TCP relay to PostgreSQL that can be cut (every connection dropped, nothing accepted) and restored on the same port. */
async function cuttableRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await open();
  return {
    url: () => Object.assign(new URL(target), { host: `127.0.0.1:${port}` }).toString(),
    cut: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
    restore: open,
  };
}

describe.each(testDialects().filter((d) => d === 'postgres'))('a database that stops answering on %s', (dialect) => {
  it('answers 503 with Retry-After (not 500) while PostgreSQL cannot be reached, and serves again once it can', async () => {
    const database = await createTestDatabase(dialect);
    const relay = await cuttableRelay(new URL(database.url));
    const t = await startTestServer(dialect, { database: { ...database, url: relay.url() } });
    try {
      const login = () => t.call('POST', '/login', { body: { email: 'nobody@example.test', password: 'whatever' } });
      expect((await login()).status).toBe(400);
      await relay.cut();
      const down = await login();
      expect(down.status, down.text).toBe(503);
      expect(down.body).toEqual({ error: 'The service is temporarily unavailable. Please try again shortly.', code: 'unavailable' });
      expect(down.headers.get('retry-after')).toBe('5');
      expect((await t.call('GET', '/ready')).status).toBe(503);
      await relay.restore();
      await expect.poll(async () => (await login()).status, { timeout: 10_000 }).toBe(400);
    } finally {
      await t.close();
      await database.drop();
    }
  });
});
