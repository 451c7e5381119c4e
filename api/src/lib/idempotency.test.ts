// Idempotency keys as the write's own transaction sees them (lib/idempotency.ts): the response is
// remembered with the change, and a request whose claim was taken over meanwhile (its lease ran out
// and a retry took it) changes nothing, on both databases. The HTTP behaviour of keys on bookings is
// in features/appointments/booking-integrity.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { connect, migrateToLatest, type DatabaseHandle } from '@bookwell/db';
import { createTestDatabase, testDialects, type TestDatabase } from '@bookwell/db/testing';
import type { AppEnv } from './context.ts';
import { AppError } from './errors.ts';
import { idempotency, recordIdempotentResponse } from './idempotency.ts';

describe.each(testDialects())('idempotency keys on %s', (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  const now = new Date('2026-11-29T10:00:00.000Z');
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = connect(database.url);
    await migrateToLatest(h);
  });
  afterAll(async () => {
    await h.close();
    await database.drop();
  });

  /** A write that stores a setting and remembers its response in the same transaction; `steal` takes its claim first. */
  const app = (steal: boolean) => {
    const a = new Hono<AppEnv>();
    a.use('*', async (c, next) => {
      c.set('deps', { db: h.db, now: () => now } as never);
      c.set('clientIp', '203.0.113.9');
      await next();
    });
    a.use('*', idempotency());
    a.onError((err, c) => c.json({ code: err instanceof AppError ? err.code : 'internal' }, 409));
    a.post('/settings/:key', async (c) => {
      const key = c.req.param('key');
      if (steal) {
        // What a retry does once this request's lease has run out (lib/idempotency.ts, step 4).
        await h.db.updateTable('idempotency_keys').set({ owner_token: 'the-retry' }).where('key', '=', key).execute();
      }
      const body = { key, value: 'on' };
      await h.db.transaction().execute(async (trx) => {
        await trx.insertInto('app_settings').values(body).execute();
        await recordIdempotentResponse(trx, c, { status: 201, body }, now);
      });
      return c.json(body, 201);
    });
    return a;
  };
  const post = (a: Hono<AppEnv>, key: string) =>
    a.request(`/settings/${key}`, { method: 'POST', headers: { 'Idempotency-Key': key, 'content-type': 'application/json' }, body: '{}' });
  const setting = async (key: string) =>
    (await h.db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirst())?.value;

  it('remembers the response with the change, and answers a replay with it without running again', async () => {
    const a = app(false);
    const first = await post(a, 'idem-done');
    expect(first.status).toBe(201);
    const row = await h.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'idem-done').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'done', response_status: 201, scope: 'anon:203.0.113.9', method: 'POST' });
    expect(JSON.parse(row.response_body!)).toEqual({ key: 'idem-done', value: 'on' });
    const again = await post(a, 'idem-done');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual({ key: 'idem-done', value: 'on' });
    expect(await setting('idem-done')).toBe('on');
  });

  it('changes nothing when the claim was taken over before the change could commit', async () => {
    const taken = await post(app(true), 'idem-taken');
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ code: 'idempotency_in_progress' });
    // The change rolled back; the key is the retry's, still to be run.
    expect(await setting('idem-taken')).toBeUndefined();
    const row = await h.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'idem-taken').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'in_progress', owner_token: 'the-retry', response_status: null });
  });
});
