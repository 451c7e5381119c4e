import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { reloadToUpdate } from '../lib/pwa-update.ts';
import { clearCachedData, getMeta, LocalDb, putServerAppointment, type OutboxEntry } from './local-db.ts';
import { appointmentRow, fakeServer, freshDb, manualClock, memoryLock, serverAppointment } from './testing/offline-fixtures.ts';
import { backoffDelay, installOutboxReloadGuard, leaseLock, Outbox, type OutboxLock } from './outbox.ts';

const NINE = '2026-11-24T09:00:00.000Z';
const TEN = '2026-11-24T10:00:00.000Z';
const ELEVEN = '2026-11-24T11:00:00.000Z';

async function setup(options: { lock?: OutboxLock; db?: LocalDb; server?: ReturnType<typeof fakeServer>; online?: () => boolean } = {}) {
  const db = options.db ?? (await freshDb());
  const server = options.server ?? fakeServer();
  const clock = manualClock();
  const online = options.online ?? (() => true);
  const outbox = new Outbox(db, { send: (e) => server.send(e), clock, lock: options.lock ?? memoryLock(), online });
  return { db, server, clock, outbox };
}

/** An appointment both the server and the local copy know, at version 1. */
async function known(db: LocalDb, server: ReturnType<typeof fakeServer>, id: number, start: string) {
  const row = serverAppointment(id, start);
  server.rows.set(id, row);
  await putServerAppointment(db, row);
  return row;
}

const create = (start: string) => ({ kind: 'create' as const, payload: { start_time: start }, row: appointmentRow(start) });
const move = (appointmentId: number, start: string) => ({
  kind: 'update' as const,
  appointmentId,
  payload: { start_time: start },
  row: { start_time: start },
});

describe('outbox: queueing and sending', () => {
  it('writes the optimistic row and the entry together, and marks the row pending', async () => {
    const { db, server, outbox } = await setup();
    await known(db, server, 1, NINE);
    await outbox.enqueue(move(1, TEN));
    expect(await db.appointments.get(1)).toMatchObject({ start_time: TEN, version: 1, pending: 1 });
    expect(await db.outbox.toArray()).toMatchObject([
      { kind: 'update', appointmentId: 1, ifMatch: 1, state: 'queued', before: { start_time: NINE } },
    ]);
    expect(await outbox.counts()).toEqual({ count: 1, refused: 0, held: 0 });
    expect(outbox.status.get().pending).toBe(1);
  });

  it('sends entries strictly in the order they were made, each with its own key and If-Match', async () => {
    const { db, server, outbox } = await setup();
    await known(db, server, 1, NINE);
    await known(db, server, 2, NINE);
    await outbox.enqueue(move(2, TEN));
    await outbox.enqueue(move(1, TEN));
    await outbox.enqueue({ kind: 'delete', appointmentId: 2 });
    await outbox.start();
    expect(server.received.map((e) => [e.kind, e.appointmentId, e.ifMatch])).toEqual([
      ['update', 2, 1],
      ['update', 1, 1],
      ['delete', 2, 2],
    ]);
    expect(new Set(server.received.map((e) => e.idempotencyKey)).size).toBe(3);
    expect(await outbox.isEmpty()).toBe(true);
    expect(await db.appointments.get(1)).toMatchObject({ start_time: TEN, version: 2, pending: 0 });
    expect(await db.appointments.get(2)).toBeUndefined();
    expect(server.rows.has(2)).toBe(false);
  });

  it('sends after each enqueue once started', async () => {
    const { db, server, outbox } = await setup();
    await known(db, server, 1, NINE);
    await outbox.start();
    await outbox.enqueue(move(1, TEN));
    await outbox.run();
    expect(server.rows.get(1)).toMatchObject({ start_time: TEN, version: 2 });
    expect(outbox.status.get().pending).toBe(0);
  });

  it("replaces a create's temporary id everywhere: the row and every later entry of it", async () => {
    const { db, server, outbox } = await setup();
    const tempId = await outbox.enqueue(create(NINE));
    expect(tempId).toBeLessThan(0);
    // Tried while online and unanswered: the server may have it, so later changes queue after it.
    server.next('network');
    await outbox.start();
    await outbox.enqueue(move(tempId, TEN));
    await outbox.enqueue(move(tempId, ELEVEN));
    expect(await db.outbox.toArray()).toMatchObject([
      { ifMatch: null, maybeSent: true },
      { appointmentId: tempId, ifMatch: null },
      { appointmentId: tempId, ifMatch: null },
    ]);
    await outbox.retryNow();
    const [created, firstMove, secondMove] = server.received.slice(1);
    expect(created).toMatchObject({ kind: 'create', appointmentId: tempId });
    expect(firstMove).toMatchObject({ kind: 'update', appointmentId: 100, ifMatch: 1 });
    expect(secondMove).toMatchObject({ kind: 'update', appointmentId: 100, ifMatch: 2 });
    expect(await db.appointments.get(tempId)).toBeUndefined();
    expect(await db.appointments.get(100)).toMatchObject({ start_time: ELEVEN, version: 3, pending: 0 });
    expect(server.rows.size).toBe(1);
    expect(await getMeta(db, 'replacedIds')).toEqual({ [tempId]: 100 });
  });

  it('keeps a later queued edit pending on the server id while the create is acknowledged', async () => {
    const { db, server, outbox } = await setup();
    const tempId = await outbox.enqueue(create(NINE));
    server.next('network', { ok: true, appointment: serverAppointment(100, NINE) }, 'network');
    await outbox.start();
    await outbox.enqueue(move(tempId, TEN));
    await outbox.retryNow();
    expect(await db.appointments.get(100)).toMatchObject({ start_time: TEN, version: 1, pending: 1 });
    expect(await db.outbox.toArray()).toMatchObject([{ appointmentId: 100, ifMatch: 1, attempts: 1 }]);
  });

  it('sends the delete of an appointment created offline, once its create may be on the server, with the version it got', async () => {
    const { db, server, outbox } = await setup();
    const tempId = await outbox.enqueue(create(NINE));
    server.next('network');
    await outbox.start();
    await outbox.enqueue({ kind: 'delete', appointmentId: tempId });
    // Still on the calendar, marked, until the server has the delete.
    expect(await db.appointments.get(tempId)).toMatchObject({ pending: 1, deleting: 1 });
    await outbox.retryNow();
    expect(server.received[2]).toMatchObject({ kind: 'delete', appointmentId: 100, ifMatch: 1 });
    expect(server.rows.size).toBe(0);
    expect(await outbox.isEmpty()).toBe(true);
    expect(await db.appointments.count()).toBe(0);
  });

  it('folds edits of a create the server never saw into it: one create, sent at the final values', async () => {
    const { db, server, outbox } = await setup();
    const tempId = await outbox.enqueue(create(NINE));
    await outbox.enqueue(move(tempId, TEN));
    await outbox.enqueue({
      kind: 'update',
      appointmentId: tempId,
      payload: { description: 'Window seat' },
      row: { description: 'Window seat' },
    });
    expect(await db.outbox.toArray()).toMatchObject([{ kind: 'create', payload: { start_time: TEN, description: 'Window seat' } }]);
    expect(await db.appointments.get(tempId)).toMatchObject({ start_time: TEN, description: 'Window seat', pending: 1 });
    await outbox.start();
    expect(server.received.map((e) => e.kind)).toEqual(['create']);
    expect(await db.appointments.get(100)).toMatchObject({ start_time: TEN, description: 'Window seat', version: 1, pending: 0 });
  });

  it('a delete of a create the server never saw sends nothing: the create and its row go', async () => {
    const { db, server, outbox } = await setup();
    const tempId = await outbox.enqueue(create(NINE));
    await outbox.enqueue({ kind: 'update', appointmentId: tempId, payload: { status: 'cancelled' }, row: { status: 'cancelled' } });
    await outbox.enqueue({ kind: 'delete', appointmentId: tempId });
    expect(await outbox.isEmpty()).toBe(true);
    expect(await db.appointments.count()).toBe(0);
    await outbox.start();
    expect(server.received).toEqual([]);
    expect(server.rows.size).toBe(0);
  });

  it('still folds into a create tried while the browser said it was offline (it cannot have reached the server)', async () => {
    const { db, server, outbox } = await setup({ online: () => false });
    const tempId = await outbox.enqueue(create(NINE));
    server.next('network');
    await outbox.start();
    expect(server.received).toHaveLength(1);
    await outbox.enqueue(move(tempId, TEN));
    expect(await db.outbox.toArray()).toMatchObject([{ kind: 'create', payload: { start_time: TEN }, attempts: 1 }]);
  });

  it('queues after the create, unfolded: a cancellation, and any change of a create an unanswered online attempt may have made', async () => {
    const { db, outbox } = await setup();
    const cancelled = await outbox.enqueue(create(NINE));
    await outbox.enqueue({ kind: 'update', appointmentId: cancelled, payload: { status: 'cancelled' }, row: { status: 'cancelled' } });
    const tried = await outbox.enqueue({ ...create(TEN), idempotencyKey: 'online-attempt', maybeSent: true });
    await outbox.enqueue(move(tried, ELEVEN));
    expect((await db.outbox.toArray()).map((e) => [e.kind, e.appointmentId])).toEqual([
      ['create', cancelled],
      ['update', cancelled],
      ['create', tried],
      ['update', tried],
    ]);
  });

  // Also while the browser says it is offline: a server reached through loopback still answers.
  it.each([true, false])(
    'never folds into a create being sent (browser online: %s): the edit made meanwhile is queued and sent after it',
    async (online) => {
      const db = await freshDb();
      const server = fakeServer();
      // The server's answer is held until the edit has been made.
      let answer!: () => void;
      const held = new Promise<void>((resolve) => (answer = resolve));
      const send = async (e: OutboxEntry) => {
        const result = await server.send(e);
        await held;
        return result;
      };
      const outbox = new Outbox(db, { send, clock: manualClock(), lock: memoryLock(), online: () => online });
      const tempId = await outbox.enqueue(create(NINE));
      const sending = outbox.start();
      await vi.waitFor(() => expect(server.received).toHaveLength(1));
      await outbox.enqueue(move(tempId, TEN));
      answer();
      await sending;
      await outbox.run();
      expect(server.received.map((e) => [e.kind, e.payload?.start_time])).toEqual([
        ['create', NINE],
        ['update', TEN],
      ]);
      expect(await db.appointments.get(100)).toMatchObject({ start_time: TEN, version: 2, pending: 0 });
    },
  );

  it('gives temporary ids that never repeat, even after sign-out cleared the rows', async () => {
    const { db, outbox } = await setup();
    const first = await outbox.enqueue(create(NINE));
    await clearCachedData(db);
    const second = await outbox.enqueue(create(TEN));
    expect(second).not.toBe(first);
  });
});

describe('outbox: failures and retries', () => {
  it('reuses the Idempotency-Key when a lost acknowledgement is retried, so the server creates once', async () => {
    const { server, clock, outbox } = await setup();
    await outbox.enqueue(create(NINE));
    server.next('lost');
    await outbox.start();
    expect(server.rows.size).toBe(1);
    clock.advance(60_000);
    await outbox.run();
    expect(server.received).toHaveLength(2);
    expect(server.received[1].idempotencyKey).toBe(server.received[0].idempotencyKey);
    expect(server.rows.size).toBe(1);
    expect(await outbox.isEmpty()).toBe(true);
  });

  it('queues a change with the key of an online attempt whose answer was lost, so the server applies it once', async () => {
    const { server, outbox } = await setup();
    // The online POST reached the server and committed; its answer never came back.
    const first = { ...create(NINE), idempotencyKey: 'online-attempt' };
    await server.send({
      kind: 'create',
      appointmentId: -1,
      payload: first.payload,
      idempotencyKey: 'online-attempt',
      ifMatch: null,
      attempts: 0,
      nextAttemptAt: 0,
      state: 'queued',
    });
    await outbox.enqueue(first);
    await outbox.start();
    expect(server.received.map((e) => e.idempotencyKey)).toEqual(['online-attempt', 'online-attempt']);
    expect(server.rows.size).toBe(1);
    expect(await outbox.isEmpty()).toBe(true);
  });

  it('backs off with jitter on network errors and 5xx, capped, and waits for the timer', async () => {
    expect(backoffDelay(1, 0)).toBe(500);
    expect(backoffDelay(1, 1)).toBe(1_000);
    expect(backoffDelay(3, 0.5)).toBe(3_000);
    expect(backoffDelay(30, 1)).toBe(300_000);

    const { db, server, clock, outbox } = await setup();
    await known(db, server, 1, NINE);
    await outbox.enqueue(move(1, TEN));
    server.next('network', { ok: false, status: 503 });
    await outbox.start();
    expect(await db.outbox.toArray()).toMatchObject([{ attempts: 1, nextAttemptAt: clock.time + 750, state: 'queued' }]);
    expect(clock.timers.map((t) => t.at)).toEqual([clock.time + 750]);

    clock.advance(700);
    await outbox.run();
    expect(server.received).toHaveLength(1);

    clock.advance(50);
    clock.timers[0].fn();
    await outbox.run();
    expect(server.received).toHaveLength(2);
    expect(await db.outbox.toArray()).toMatchObject([{ attempts: 2, nextAttemptAt: clock.time + 1_500 }]);

    clock.advance(1_500);
    await outbox.run();
    expect(server.received).toHaveLength(3);
    expect(await outbox.isEmpty()).toBe(true);
  });

  it('retries at once when the connection returns, without waiting out the backoff', async () => {
    const { db, server, outbox } = await setup();
    await known(db, server, 1, NINE);
    await outbox.enqueue(move(1, TEN));
    server.next('network', 'network', 'network');
    await outbox.start();
    await outbox.run();
    expect(server.received).toHaveLength(1);
    await outbox.retryNow();
    expect(server.received).toHaveLength(2);
  });

  it('retries when the browser says the connection is back or the tab is visible again, until stopped', async () => {
    const page = Object.assign(new EventTarget(), { visibilityState: 'hidden' });
    Object.assign(globalThis, { window: new EventTarget(), document: page });
    try {
      const { db, server, outbox } = await setup();
      await known(db, server, 1, NINE);
      await known(db, server, 2, NINE);
      await outbox.enqueue(move(1, TEN));
      server.next('network', 'network');
      await outbox.start();
      window.dispatchEvent(new Event('online'));
      await vi.waitFor(() => expect(server.received).toHaveLength(2));
      page.visibilityState = 'visible';
      document.dispatchEvent(new Event('visibilitychange'));
      await vi.waitFor(async () => expect(await outbox.isEmpty()).toBe(true));
      expect(server.received).toHaveLength(3);

      outbox.stop();
      await outbox.enqueue(move(2, TEN));
      window.dispatchEvent(new Event('online'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.received).toHaveLength(3);
    } finally {
      Reflect.deleteProperty(globalThis, 'window');
      Reflect.deleteProperty(globalThis, 'document');
    }
  });

  it('pauses on 401, keeping every entry, until resumed', async () => {
    const { db, server, outbox } = await setup();
    await known(db, server, 1, NINE);
    await known(db, server, 2, NINE);
    await outbox.enqueue(move(1, TEN));
    await outbox.enqueue(move(2, TEN));
    server.next({ ok: false, status: 401, code: 'unauthorized' });
    await outbox.start();
    expect(outbox.status.get()).toMatchObject({ paused: true, pending: 2 });
    expect(await db.outbox.toArray()).toMatchObject([{ state: 'queued' }, { state: 'queued' }]);

    await outbox.enqueue(move(1, ELEVEN));
    await outbox.run();
    expect(server.received).toHaveLength(1);

    await outbox.resume();
    expect(server.received).toHaveLength(4);
    expect(outbox.status.get()).toMatchObject({ paused: false, pending: 0 });
    expect(server.rows.get(1)).toMatchObject({ start_time: ELEVEN, version: 3 });
  });
});

describe('outbox: a 401 and the token (docs/decisions/08-offline-pwa.md: any 401 logs the user out)', () => {
  /** An outbox whose token source the test sets: the signed-in user's token, or null. */
  async function withToken(initial: string | null) {
    let token = initial;
    const hooks: { whileSending?: () => void } = {};
    const db = await freshDb();
    const server = fakeServer();
    const send = (e: Parameters<typeof server.send>[0]) => {
      hooks.whileSending?.();
      return server.send(e);
    };
    const outbox = new Outbox(db, { send, clock: manualClock(), lock: memoryLock(), token: () => token });
    return { db, server, outbox, hooks, setToken: (t: string | null) => (token = t) };
  }

  it('stays paused after a 401 on the token still in use, and while signed out; resumes with a new token', async () => {
    const { db, server, outbox, setToken } = await withToken('old');
    await known(db, server, 1, NINE);
    await outbox.enqueue(move(1, TEN));
    server.next({ ok: false, status: 401, code: 'unauthorized' });
    await outbox.start();
    expect(outbox.status.get()).toMatchObject({ paused: true, pending: 1 });

    await outbox.tokenChanged(); // nothing changed: still the refused token
    setToken(null); // the app signed out
    await outbox.tokenChanged();
    expect(outbox.status.get().paused).toBe(true);
    expect(server.received).toHaveLength(1);

    setToken('new'); // the same user signed in again in this tab
    await outbox.tokenChanged();
    expect(outbox.status.get()).toMatchObject({ paused: false, pending: 0 });
    expect(server.received).toHaveLength(2);
    expect(server.rows.get(1)).toMatchObject({ start_time: TEN, version: 2 });
  });

  it('does not pause on a 401 for a token replaced while the request was out: it sends again with the new one', async () => {
    const { db, server, outbox, hooks, setToken } = await withToken('old');
    await known(db, server, 1, NINE);
    await outbox.enqueue(move(1, TEN));
    // The change-password answer replaced the token in this tab while the request was on its way.
    hooks.whileSending = () => {
      setToken('replaced');
      hooks.whileSending = undefined;
    };
    server.next({ ok: false, status: 401, code: 'unauthorized' });
    await outbox.start();
    expect(outbox.status.get()).toMatchObject({ paused: false, pending: 0 });
    expect(server.received).toHaveLength(2);
    expect(server.received[0].idempotencyKey).toBe(server.received[1].idempotencyKey);
    expect(server.rows.get(1)).toMatchObject({ start_time: TEN, version: 2 });
  });

  it('pauses on a 401 without a token of this user (another user signed in) until one exists', async () => {
    const { db, server, outbox, setToken } = await withToken(null);
    await known(db, server, 1, NINE);
    await outbox.enqueue(move(1, TEN));
    server.next({ ok: false, status: 401, code: 'unauthorized' });
    await outbox.start();
    expect(outbox.status.get().paused).toBe(true);
    setToken('mine');
    await outbox.tokenChanged();
    expect(outbox.status.get()).toMatchObject({ paused: false, pending: 0 });
  });
});

describe('outbox: refusals, never dropped', () => {
  it.each([
    [409, 'slot_taken'],
    [412, 'version_mismatch'],
    [404, 'not_found'],
    [403, 'forbidden'],
  ])('marks a %i refused with its reason, holds later changes of that appointment and sends the others', async (status, code) => {
    const { db, server, outbox } = await setup();
    await known(db, server, 1, NINE);
    await known(db, server, 2, NINE);
    await outbox.enqueue(move(1, TEN));
    await outbox.enqueue(move(1, ELEVEN));
    await outbox.enqueue(move(2, TEN));
    const current = status === 412 ? serverAppointment(1, NINE, 5) : undefined;
    server.next({ ok: false, status, code, message: 'No', current });
    await outbox.start();
    expect(server.received.map((e) => e.appointmentId)).toEqual([1, 2]);
    const refused = outbox.status.get().refused;
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ appointmentId: 1, state: 'refused', refusal: { status, code, message: 'No' } });
    if (current) expect(refused[0].refusal?.current).toEqual(current);
    // The held change is not "waiting to sync" (nothing sends it): it waits for the choice too.
    expect(outbox.status.get().pending).toBe(0);
    expect(await outbox.counts()).toEqual({ count: 0, refused: 1, held: 1 });
    expect(await db.appointments.get(1)).toMatchObject({ start_time: ELEVEN, pending: 1 });
    expect(await outbox.isEmpty()).toBe(false);
  });

  it('treats a delete answered 404 as done: the appointment is gone either way', async () => {
    const { db, outbox } = await setup();
    await putServerAppointment(db, serverAppointment(1, NINE));
    await outbox.enqueue({ kind: 'delete', appointmentId: 1 });
    await outbox.start();
    expect(await outbox.isEmpty()).toBe(true);
  });
});

describe('outbox: choices for a refused change', () => {
  async function refusedMove(status: number, current?: ReturnType<typeof serverAppointment>) {
    const context = await setup();
    await known(context.db, context.server, 1, NINE);
    await context.outbox.enqueue(move(1, TEN));
    context.server.next({ ok: false, status, current });
    await context.outbox.start();
    const [entry] = context.outbox.status.get().refused;
    return { ...context, seq: entry.seq! };
  }

  it('discard: drops my change and shows the server row again', async () => {
    const { db, outbox, seq } = await refusedMove(409);
    await outbox.discard(seq);
    expect(await outbox.isEmpty()).toBe(true);
    expect(await db.appointments.get(1)).toMatchObject({ start_time: NINE, version: 1, pending: 0 });
  });

  it('discard of a refused create removes the row and its later edits', async () => {
    const { db, server, outbox } = await setup();
    const tempId = await outbox.enqueue(create(NINE));
    await outbox.enqueue(move(tempId, TEN));
    server.next({ ok: false, status: 409, code: 'slot_taken' });
    await outbox.start();
    await outbox.discard(outbox.status.get().refused[0].seq!);
    expect(await outbox.isEmpty()).toBe(true);
    expect(await db.appointments.count()).toBe(0);
  });

  it("apply again: re-sends my change over the server's current version, with a new key", async () => {
    const { db, server, outbox, seq } = await refusedMove(412, serverAppointment(1, ELEVEN, 4));
    server.rows.set(1, serverAppointment(1, ELEVEN, 4));
    await outbox.applyAgain(seq);
    await outbox.run();
    const [first, again] = server.received;
    expect(again).toMatchObject({ ifMatch: 4, payload: { start_time: TEN } });
    expect(again.idempotencyKey).not.toBe(first.idempotencyKey);
    expect(server.rows.get(1)).toMatchObject({ start_time: TEN, version: 5 });
    expect(await db.appointments.get(1)).toMatchObject({ start_time: TEN, version: 5, pending: 0 });
  });

  it('apply again needs a server version to apply over', async () => {
    const { outbox, seq } = await refusedMove(409);
    await expect(outbox.applyAgain(seq)).rejects.toThrow(/no server version/);
  });

  it("keep theirs: drops my change and my later ones, and shows the server's row", async () => {
    const { db, server, outbox } = await setup();
    await known(db, server, 1, NINE);
    await outbox.enqueue(move(1, TEN));
    await outbox.enqueue(move(1, ELEVEN));
    server.next({ ok: false, status: 412, current: serverAppointment(1, '2026-11-24T15:00:00.000Z', 3) });
    await outbox.start();
    await outbox.keepTheirs(outbox.status.get().refused[0].seq!);
    expect(await outbox.isEmpty()).toBe(true);
    expect(await db.appointments.get(1)).toMatchObject({ start_time: '2026-11-24T15:00:00.000Z', version: 3, pending: 0 });
  });

  it('keep theirs after 404: the appointment was deleted elsewhere, so it goes', async () => {
    const { db, outbox, seq } = await refusedMove(404);
    await outbox.keepTheirs(seq);
    expect(await db.appointments.get(1)).toBeUndefined();
    expect(await outbox.isEmpty()).toBe(true);
  });

  it('after 404, keep theirs also drops the later edits of the deleted appointment; discard left them to be refused in turn', async () => {
    for (const choice of ['keepTheirs', 'discard'] as const) {
      const { db, server, outbox } = await setup();
      await known(db, server, 1, NINE);
      await outbox.enqueue(move(1, TEN));
      await outbox.enqueue(move(1, ELEVEN));
      server.rows.delete(1); // deleted at another desk
      await outbox.start();
      await outbox[choice](outbox.status.get().refused[0].seq!);
      await outbox.run();
      const left = await db.outbox.toArray();
      if (choice === 'keepTheirs') expect(left).toEqual([]);
      else expect(left).toMatchObject([{ state: 'refused', refusal: { status: 404 }, payload: { start_time: ELEVEN } }]);
    }
  });

  it('a change held behind a refused one of the same appointment is not counted as waiting to sync; others are', async () => {
    const { db, server, outbox } = await setup();
    await known(db, server, 1, NINE);
    await known(db, server, 2, NINE);
    await outbox.enqueue(move(1, TEN));
    await outbox.enqueue(move(1, ELEVEN));
    server.rows.delete(1); // deleted at another desk
    server.next({ ok: false, status: 404, code: 'not_found' });
    await outbox.start();
    expect(outbox.status.get()).toMatchObject({ pending: 0, refused: [{ appointmentId: 1 }] });
    expect(await outbox.counts()).toEqual({ count: 0, refused: 1, held: 1 });
    // Another appointment's change is waiting, not held.
    outbox.stop();
    await outbox.enqueue(move(2, TEN));
    expect(outbox.status.get().pending).toBe(1);
    expect(await outbox.counts()).toEqual({ count: 1, refused: 1, held: 1 });
  });

  it('pick another time: re-sends with the new times', async () => {
    const { db, server, outbox, seq } = await refusedMove(409);
    await outbox.pickAnotherTime(seq, { start_time: ELEVEN, end_time: '2026-11-24T12:00:00.000Z' });
    expect(await db.appointments.get(1)).toMatchObject({ start_time: ELEVEN, pending: 1 });
    await outbox.run();
    expect(server.received[1]).toMatchObject({ payload: { start_time: ELEVEN, end_time: '2026-11-24T12:00:00.000Z' }, ifMatch: 1 });
    expect(server.rows.get(1)).toMatchObject({ start_time: ELEVEN, version: 2 });
    expect(await outbox.isEmpty()).toBe(true);
  });

  it('only a refused change can be resolved', async () => {
    const { db, server, outbox } = await setup();
    await known(db, server, 1, NINE);
    await outbox.enqueue(move(1, TEN));
    const [entry] = await db.outbox.toArray();
    await expect(outbox.discard(entry.seq!)).rejects.toThrow(/not a refused change/);
  });
});

describe('outbox: sign-out, tabs and updates', () => {
  it('a pass in flight at sign-out ends quietly when the store closes under it; the change stays queued', async () => {
    const name = `closing-${Math.random()}`;
    const server = fakeServer(30);
    const first = await setup({ db: await freshDb(name), server });
    await known(first.db, server, 1, NINE);
    await first.outbox.enqueue(move(1, TEN));
    server.next('network');
    const pass = first.outbox.start();
    first.outbox.stop();
    first.db.close();
    await expect(pass).resolves.toBeUndefined();

    const again = await setup({ db: await freshDb(name), server });
    expect(await again.outbox.counts()).toEqual({ count: 1, refused: 0, held: 0 });
  });

  it('survives sign-out: the cached data goes, the outbox is sent after the same user signs in again', async () => {
    const name = `signout-${Math.random()}`;
    const server = fakeServer();
    const first = await setup({ db: await freshDb(name), server });
    await known(first.db, server, 1, NINE);
    await first.outbox.enqueue(move(1, TEN));
    await clearCachedData(first.db);
    first.db.close();

    const again = await setup({ db: await freshDb(name), server });
    expect(await again.db.appointments.count()).toBe(0);
    await again.outbox.start();
    expect(server.rows.get(1)).toMatchObject({ start_time: TEN, version: 2 });
    expect(await again.outbox.isEmpty()).toBe(true);
  });

  it.each([
    ['Web Locks', () => memoryLock()],
    ['the lease fallback', undefined],
  ])('two tabs never send one entry twice (%s)', async (_, makeLock) => {
    const name = `tabs-${Math.random()}`;
    const server = fakeServer(5);
    const dbA = await freshDb(name);
    const dbB = await freshDb(name);
    const shared = makeLock?.();
    const tabA = await setup({ db: dbA, server, lock: shared ?? leaseLock(dbA, manualClock(), 30_000, 'tab-a') });
    const tabB = await setup({ db: dbB, server, lock: shared ?? leaseLock(dbB, manualClock(), 30_000, 'tab-b') });
    for (const id of [1, 2, 3]) await known(dbA, server, id, NINE);
    await tabA.outbox.enqueue(move(1, TEN));
    await tabB.outbox.enqueue(move(2, TEN));
    await tabA.outbox.enqueue(move(3, TEN));
    await tabB.outbox.enqueue(move(1, ELEVEN));
    await Promise.all([tabA.outbox.start(), tabB.outbox.start(), tabA.outbox.run(), tabB.outbox.run()]);
    // With the lease, the tab that lost the race retries on a timer: run it as it would fire.
    for (const tab of [tabA, tabB]) for (const timer of tab.clock.timers.splice(0)) timer.fn();
    await Promise.all([tabA.outbox.run(), tabB.outbox.run()]);

    const keys = server.received.map((e) => e.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(4);
    expect(await dbA.outbox.count()).toBe(0);
    expect(server.rows.get(1)).toMatchObject({ start_time: ELEVEN, version: 3 });
    await tabA.outbox.refresh();
    await tabB.outbox.refresh();
    expect(tabA.outbox.status.get()).toEqual(tabB.outbox.status.get());
  });

  it('holds a new version back while the outbox has changes', async () => {
    const { db, server, outbox } = await setup();
    const remove = installOutboxReloadGuard(outbox);
    await known(db, server, 1, NINE);
    await outbox.enqueue(move(1, TEN));
    expect(await reloadToUpdate()).toBe(false);
    await outbox.start();
    expect(await outbox.isEmpty()).toBe(true);
    remove();
  });
});
