// Two API processes on one PostgreSQL database share the signing secret and the login rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@bookwell/db/testing';
import { call } from '../../testing/harness.ts';
import { spawnServer, type ServerProcess } from '../../testing/process.ts';

const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)('two API processes on one PostgreSQL', () => {
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const env = { DATABASE_URL: database.url, RATE_LIMIT_LOGIN: '4', DISABLE_SCHEDULER: 'true' };
    // Started together: both race to create the schema and the shared secret.
    [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  it("accept each other's tokens", async () => {
    const reg = await call(a.url, 'POST', '/register', {
      body: { name: 'Ann', email: 'ann@multi.test', password: 'secret123', company_name: 'Multi' },
    });
    expect(reg.status).toBe(200);
    const me = await call(b.url, 'GET', '/me', { token: reg.body.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('ann@multi.test');
  });

  it('share the login rate limit', async () => {
    const body = { email: 'ann@multi.test', password: 'wrong-one' };
    for (const url of [a.url, b.url, a.url, b.url]) expect((await call(url, 'POST', '/login', { body })).status).toBe(400);
    expect((await call(a.url, 'POST', '/login', { body: { ...body, password: 'secret123' } })).status).toBe(429);
    expect((await call(b.url, 'POST', '/login', { body: { ...body, password: 'secret123' } })).status).toBe(429);
  });
});
