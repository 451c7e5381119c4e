// Idempotency keys as the write's own transaction sees them (lib/idempotency.ts): the response is
// remembered with the change, and a request whose claim was taken over meanwhile (its lease ran out
// and a retry took it) changes nothing, on both databases. The HTTP behaviour of keys on bookings is
// in features/appointments/booking-integrity.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono, type Context } from 'hono';
import { connect, migrateToLatest, type DatabaseHandle } from '@bookwell/db';
import { createTestDatabase, testDialects, type TestDatabase } from '@bookwell/db/testing';
import type { AppEnv } from './context.ts';
import { AppError } from './errors.ts';
import { idempotency, recordIdempotentResponse, requestHash, type IdempotencyOptions } from './idempotency.ts';

describe.each(testDialects())('idempotency keys on %s', (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  let sent: string[] = [];
  const now = new Date('2026-11-29T10:00:00.000Z');
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = connect(database.url, { onRoundTrip: (text) => sent.push(text) });
    await migrateToLatest(h);
  });
  afterAll(async () => {
    await h.close();
    await database.drop();
  });

  /** An app with its deps and the key middleware; errors answer 409 with their code. */
  const keyedApp = (clientIp: string, options?: IdempotencyOptions) => {
    const a = new Hono<AppEnv>();
    a.use('*', async (c, next) => {
      c.set('deps', { db: h.db, now: () => now } as never);
      c.set('clientIp', clientIp);
      await next();
    });
    a.use('*', idempotency(options));
    a.onError((err, c) => c.json({ code: err instanceof AppError ? err.code : 'internal' }, 409));
    return a;
  };
  /** The write: stores a setting and remembers its response in the same transaction. */
  const storeSetting = async (c: Context<AppEnv>, key: string) => {
    const body = { key, value: 'on' };
    await h.db.transaction().execute(async (trx) => {
      await trx.insertInto('app_settings').values(body).execute();
      await recordIdempotentResponse(trx, c, { status: 201, body }, now);
    });
    return c.json(body, 201);
  };

  /** The write with its key claimed first; `steal` takes the claim before the write commits. */
  const app = (steal: boolean) => {
    const a = keyedApp('203.0.113.9');
    a.post('/settings/:key', async (c) => {
      const key = c.req.param('key');
      if (steal) {
        // What a retry does once this request's lease has run out (lib/idempotency.ts, step 4).
        await h.db.updateTable('idempotency_keys').set({ owner_token: 'the-retry' }).where('key', '=', key).execute();
      }
      return storeSetting(c, key);
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
  describe("written in the write's transaction (recordedInTransaction)", () => {
    /** Stores a setting; `first` writes the key as another request with it would have, before this one's transaction. */
    const inTx = (opts: { first?: { status: number; body: unknown }; refuse?: boolean } = {}) => {
      const a = keyedApp('203.0.113.10', { recordedInTransaction: true });
      if (opts.first) {
        const { status, body } = opts.first;
        // The other request's transaction commits while this one is running.
        a.use('/settings/:key', async (c, next) => {
          await h.db
            .insertInto('idempotency_keys')
            .values({
              scope: 'anon:203.0.113.10',
              method: 'POST',
              path: c.req.path,
              key: c.req.param('key')!,
              request_hash: requestHash('{}'),
              state: 'done',
              owner_token: null,
              response_status: status,
              response_body: JSON.stringify(body),
              response_headers: JSON.stringify({ 'content-type': 'application/json' }),
              created_at: now.toISOString(),
              updated_at: now.toISOString(),
            })
            .execute();
          await next();
        });
      }
      a.post('/settings/:key', async (c) => {
        const key = c.req.param('key');
        // Before the handler ran, nothing was written for its key.
        expect(await h.db.selectFrom('idempotency_keys').select('id').where('key', '=', key).execute()).toHaveLength(opts.first ? 1 : 0);
        if (opts.refuse) throw new AppError('slot_taken', 'taken');
        return storeSetting(c, key);
      });
      return a;
    };

    it('writes the key as done with the change, and a replay answers it without running again', async () => {
      const a = inTx();
      expect((await post(a, 'tx-done')).status).toBe(201);
      const row = await h.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'tx-done').executeTakeFirstOrThrow();
      expect(row).toMatchObject({ state: 'done', response_status: 201, owner_token: null });
      const again = await post(a, 'tx-done');
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    });

    it('keeps a refusal: a replay with the key answers it again and changes nothing, even once the write would pass', async () => {
      const refused = await post(inTx({ refuse: true }), 'tx-refused');
      expect(refused.status).toBe(409);
      const row = await h.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'tx-refused').executeTakeFirstOrThrow();
      expect(row).toMatchObject({ state: 'done', response_status: 409 });
      const again = await post(inTx(), 'tx-refused');
      expect(again.status).toBe(409);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await setting('tx-refused')).toBeUndefined();
      // A new key is a new attempt.
      expect((await post(inTx(), 'tx-refused-2')).status).toBe(201);
    });

    it("answers a replay that arrives while the first is still running with 409 in progress (422 for another body), then the first's answer", async () => {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const a = keyedApp('203.0.113.11', { recordedInTransaction: true });
      a.post('/settings/:key', async (c) => {
        started();
        await gate;
        return storeSetting(c, c.req.param('key'));
      });
      const first = post(a, 'tx-running');
      await running;
      const replay = await post(a, 'tx-running');
      expect(replay.status).toBe(409);
      expect(await replay.json()).toEqual({ code: 'idempotency_in_progress' });
      const other = await a.request('/settings/tx-running', {
        method: 'POST',
        headers: { 'Idempotency-Key': 'tx-running', 'content-type': 'application/json' },
        body: '{"other":true}',
      });
      expect(await other.json()).toEqual({ code: 'idempotency_mismatch' });
      open();
      expect((await first).status).toBe(201);
      const after = await post(a, 'tx-running');
      expect(after.status).toBe(201);
      expect(after.headers.get('idempotent-replayed')).toBe('true');
      expect(await h.db.selectFrom('app_settings').select('key').where('key', '=', 'tx-running').execute()).toHaveLength(1);
    });

    it('changes nothing when a request with the same key committed first, and answers with its response', async () => {
      const first = { status: 201, body: { key: 'tx-raced', value: 'from the first' } };
      const raced = await post(inTx({ first }), 'tx-raced');
      expect(raced.status).toBe(201);
      expect(raced.headers.get('idempotent-replayed')).toBe('true');
      expect(await raced.json()).toEqual(first.body);
      expect(await setting('tx-raced')).toBeUndefined();
    });

    // Every write the PWA sends is keyed, so the lookup runs on every one: on PostgreSQL the lookups of
    // one round of events share a statement (docs/decisions/43-idempotency-key-in-the-transaction.md,
    // "Session 39"), and each request must still get its own key's answer.
    it('keys looked up in the same round each get their own answer, from one statement on PostgreSQL', async () => {
      const a = keyedApp('203.0.113.11', { recordedInTransaction: true });
      a.post('/settings/:key', (c) => storeSetting(c, c.req.param('key')));
      const postAs = (key: string, body: string) =>
        a.request(`/settings/${key}`, { method: 'POST', headers: { 'Idempotency-Key': key, 'content-type': 'application/json' }, body });
      for (const key of ['round-a', 'round-b']) expect((await postAs(key, '{}')).status).toBe(201);
      sent = [];
      const answers = await Promise.all([
        postAs('round-a', '{}'),
        postAs('round-b', '{}'),
        postAs('round-a', '{}'),
        postAs('round-new', '{}'),
        postAs('round-b', '{"another":"body"}'),
      ]);
      expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 409]);
      expect(answers.map((r) => r.headers.get('idempotent-replayed'))).toEqual(['true', 'true', 'true', null, null]);
      expect(await Promise.all(answers.slice(0, 4).map((r) => r.json()))).toEqual(
        ['round-a', 'round-b', 'round-a', 'round-new'].map((key) => ({ key, value: 'on' })),
      );
      expect(await answers[4].json()).toEqual({ code: 'idempotency_mismatch' });
      expect(await setting('round-new')).toBe('on');
      // SQLite has no round trips to share (onRoundTrip is PostgreSQL's).
      if (dialect === 'postgres') expect(sent.filter((text) => /^select [^]* from .*"idempotency_keys"/.test(text))).toHaveLength(1);
    });
  });
});
