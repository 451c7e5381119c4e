// The outbox of appointment changes made offline or while the server could not be reached: how a
// change is queued with its optimistic row, the one runner that sends the queue in order, and the
// choices for a change the server refused (docs/decisions/08-offline-pwa.md).
import { createStore, type Store } from '../lib/store.ts';
import { addReloadGuard } from '../lib/pwa-update.ts';
import {
  getMeta,
  setMeta,
  type LocalAppointment,
  type LocalDb,
  type OutboxEntry,
  type Refusal,
  type ServerAppointment,
} from './local-db.ts';
import { outboxParts } from './outbox-parts.ts';
import type { WaitingNote } from './waiting-note.ts';

/** What the server answered one entry. A network error (no answer at all) rejects instead. */
export type SendResult =
  | { ok: true; appointment?: ServerAppointment }
  | { ok: false; status: number; code?: string; message?: string; current?: ServerAppointment };

/** Sends one entry with its Idempotency-Key and If-Match; injected so the runner runs without a server. */
export type Send = (entry: OutboxEntry) => Promise<SendResult>;

export interface Clock {
  now(): number;
  random(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Runs `fn` while holding the outbox lock shared by every tab; resolves false when another tab
 * holds it and will not hand it over. `stillHeld` is checked before each send.
 */
export type OutboxLock = (fn: (stillHeld: () => Promise<boolean>) => Promise<void>) => Promise<boolean>;

/** Web Locks: exclusive across the tabs of one origin, released when a tab dies; waits its turn. */
export function webLock(name: string): OutboxLock {
  return async (fn) => {
    await navigator.locks.request(name, () => fn(async () => true));
    return true;
  };
}

/**
 * Where Web Locks are missing: a lease row in the shared database, renewed before each send. A tab
 * that dies mid-send holds it at most `ttlMs`; an entry resent after that keeps its Idempotency-Key.
 */
export function leaseLock(db: LocalDb, clock: Clock = systemClock, ttlMs = 30_000, owner: string = crypto.randomUUID()): OutboxLock {
  const claim = () =>
    db.transaction('rw', db.meta, async () => {
      const lease = await getMeta<{ owner: string; expiresAt: number }>(db, 'outboxLease');
      if (lease && lease.owner !== owner && lease.expiresAt > clock.now()) return false;
      await setMeta(db, 'outboxLease', { owner, expiresAt: clock.now() + ttlMs });
      return true;
    });
  return async (fn) => {
    if (!(await claim())) return false;
    try {
      await fn(claim);
    } finally {
      await db.transaction('rw', db.meta, async () => {
        if ((await getMeta<{ owner: string }>(db, 'outboxLease'))?.owner === owner) await db.meta.delete('outboxLease');
      });
    }
    return true;
  };
}

export function defaultLock(db: LocalDb, clock: Clock = systemClock): OutboxLock {
  return typeof navigator !== 'undefined' && navigator.locks ? webLock(`${db.name}-outbox`) : leaseLock(db, clock);
}

/**
 * A change to queue, with the optimistic row the calendar shows until the server answers.
 * `idempotencyKey` is the key of an online attempt whose answer never came: the server may have
 * applied it, so the queued retry must carry the same key or the change would apply twice.
 */
export type Change = {
  idempotencyKey?: string;
  /** An online attempt with this key got no answer: the server may have applied it. */
  maybeSent?: boolean;
} & (
  | { kind: 'create'; payload: Record<string, unknown>; row: Omit<ServerAppointment, 'id' | 'version'> }
  | { kind: 'update'; appointmentId: number; payload: Record<string, unknown>; row: Partial<ServerAppointment> }
  | { kind: 'delete'; appointmentId: number }
);

export interface OutboxStatus {
  /** Changes waiting to be sent ("3 changes waiting to sync"); not those held behind a refused one. */
  pending: number;
  /** Changes the server refused, for the "Needs attention" list. */
  refused: OutboxEntry[];
  /** A 401 stopped the runner until the same user signs in again. */
  paused: boolean;
}

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 5 * 60_000;
const LEASE_RETRY_MS = 5_000;

/** Exponential backoff with jitter (half fixed, half random), so tabs and devices do not retry in step. */
export function backoffDelay(attempts: number, random: number): number {
  const delay = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return delay / 2 + (delay / 2) * random;
}

/** Statuses worth retrying as they are: the server or the way to it is having trouble. */
function isTransient(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

function newKey(): string {
  return crypto.randomUUID();
}

export interface OutboxOptions {
  send: Send;
  clock?: Clock;
  lock?: OutboxLock;
  /**
   * The signed-in user's token now: null when there is none, or when it is another user's. With it,
   * a 401 pauses only while the token that was refused is still the current one (see tokenChanged).
   */
  token?: () => string | null;
  /** Whether the browser says it is online (a request then may reach the server); navigator.onLine by default. */
  online?: () => boolean;
}

const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/** Fields of a change the create's body takes as they are (a cancellation is not one: a create is 'booked'). */
function foldable(payload: Record<string, unknown> | undefined): payload is Record<string, unknown> {
  return !!payload && payload.status !== 'cancelled';
}

/** The create's body with a later change on top; the change's way of naming services or the customer wins. */
function folded(create: Record<string, unknown>, change: Record<string, unknown>): Record<string, unknown> {
  const body = { ...create };
  if ('service_type_ids' in change || 'service_types' in change) {
    delete body.service_type_ids;
    delete body.service_types;
  }
  if ('user_id' in change || 'customer' in change) {
    delete body.user_id;
    delete body.customer;
  }
  return { ...body, ...change };
}

export class Outbox {
  readonly status: Store<OutboxStatus> = createStore<OutboxStatus>({ pending: 0, refused: [], paused: false });
  private readonly send: Send;
  private readonly clock: Clock;
  private readonly lock: OutboxLock;
  private readonly token: () => string | null | undefined;
  private readonly online: () => boolean;
  /** The token a 401 refused (undefined without a token source): sending waits for another one. */
  private refusedToken: string | null | undefined = undefined;
  private current: Promise<void> | null = null;
  private runAgain = false;
  private started = false;
  private timer: unknown = null;
  private readonly onOnline = () => void this.retryNow();
  private readonly onVisible = () => {
    if (document.visibilityState === 'visible') void this.retryNow();
  };

  constructor(
    readonly db: LocalDb,
    options: OutboxOptions,
  ) {
    this.send = options.send;
    this.clock = options.clock ?? systemClock;
    this.lock = options.lock ?? defaultLock(db, this.clock);
    this.token = options.token ?? (() => undefined);
    this.online = options.online ?? browserOnline;
  }

  /** Starts sending: now, when the connection returns and when the tab becomes visible. */
  start(): Promise<void> {
    this.started = true;
    if (typeof window !== 'undefined') window.addEventListener('online', this.onOnline);
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', this.onVisible);
    return this.run();
  }

  stop(): void {
    this.started = false;
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onOnline);
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', this.onVisible);
    this.clearTimer();
  }

  /**
   * Writes the optimistic row and the outbox entry in one transaction, so the calendar never shows a
   * change that is not queued, nor queues one it does not show. Resolves with the appointment id
   * (a temporary negative one for a create).
   */
  async enqueue(change: Change): Promise<number> {
    const db = this.db;
    const id = await db.transaction('rw', db.appointments, db.outbox, db.meta, async () => {
      const base = { idempotencyKey: change.idempotencyKey ?? newKey(), attempts: 0, nextAttemptAt: 0, state: 'queued' as const };
      if (change.kind === 'create') {
        const tempId = (await getMeta<number>(db, 'nextTempId')) ?? -1;
        await setMeta(db, 'nextTempId', tempId - 1);
        await db.appointments.add({ ...change.row, id: tempId, version: 0, pending: 1 });
        // An online attempt that got no answer may have booked it already.
        const maybeSent = change.maybeSent === true;
        await db.outbox.add({ ...base, kind: 'create', appointmentId: tempId, payload: change.payload, ifMatch: null, maybeSent });
        return tempId;
      }
      const before = await db.appointments.get(change.appointmentId);
      if (!before) throw new Error(`Appointment ${change.appointmentId} is not in the local copy`);
      if (before.id < 0 && (await this.foldIntoUnsentCreate(change, before))) return before.id;
      // Based on the version shown; a row created offline has none until its create is acknowledged.
      const ifMatch = before.id < 0 ? null : before.version;
      if (change.kind === 'update') {
        await db.appointments.put({ ...before, ...change.row, id: before.id, version: before.version, pending: 1 });
      } else {
        // Kept and marked until the server has the delete, as edits are shown until it has them.
        await db.appointments.put({ ...before, pending: 1, deleting: 1 });
      }
      await db.outbox.add({
        ...base,
        kind: change.kind,
        appointmentId: before.id,
        payload: change.kind === 'update' ? change.payload : undefined,
        ifMatch,
        before,
      });
      return before.id;
    });
    await this.refresh();
    void this.run();
    return id;
  }

  /**
   * A change of an appointment whose create the server has never seen: a delete takes the create
   * and everything queued after it away (nothing is sent), and an edit is written into the create's
   * body when nothing else of it is queued. The customer then hears of the booking once, as it ended
   * up, rather than of each step made offline (a confirmation and a cancellation for a booking they
   * never had). Answers false when the change must be queued as it is. Runs inside enqueue's
   * transaction; the runner marks a create before sending it (markMaybeSent), in a transaction too,
   * so a create is either folded into or sent, never both.
   */
  private async foldIntoUnsentCreate(change: Exclude<Change, { kind: 'create' }>, before: LocalAppointment): Promise<boolean> {
    const db = this.db;
    const entries = await db.outbox.where('appointmentId').equals(before.id).sortBy('seq');
    const create = entries[0];
    if (!create || create.kind !== 'create' || create.state !== 'queued' || create.maybeSent) return false;
    if (change.kind === 'delete') {
      await db.outbox.bulkDelete(entries.map((e) => e.seq!));
      await db.appointments.delete(before.id);
      return true;
    }
    if (entries.length > 1 || change.maybeSent || !foldable(change.payload)) return false;
    await db.outbox.update(create.seq!, { payload: folded(create.payload ?? {}, change.payload) });
    await db.appointments.put({ ...before, ...change.row, id: before.id, version: before.version, pending: 1 });
    return true;
  }

  /**
   * Before a create is first sent: marks it as maybe on the server from now on, and answers it as it
   * is now (a change may have been folded into it since it was read), or undefined when it is gone
   * (deleted before it was sent).
   */
  private async markMaybeSent(seq: number): Promise<OutboxEntry | undefined> {
    const db = this.db;
    return db.transaction('rw', db.outbox, async () => {
      const entry = await db.outbox.get(seq);
      if (!entry || entry.state !== 'queued') return undefined;
      await db.outbox.update(seq, { maybeSent: true });
      return { ...entry, maybeSent: true };
    });
  }

  /** Changes that will be sent, refused ones, and those held behind a refused one (the sign-in note). */
  async counts(): Promise<WaitingNote> {
    const { waiting, held, refused } = outboxParts(await this.db.outbox.orderBy('seq').toArray());
    return { count: waiting.length, refused: refused.length, held: held.length };
  }

  /** True when nothing at all is queued or refused: a reload into a new version may proceed. */
  async isEmpty(): Promise<boolean> {
    return (await this.db.outbox.count()) === 0;
  }

  /** After a 401 pause, once the same user has signed in again. */
  resume(): Promise<void> {
    this.refusedToken = undefined;
    this.status.set((s) => ({ ...s, paused: false }));
    return this.run();
  }

  /**
   * The signed-in user's token changed (a new sign-in, or the change-password answer replaced it in
   * this tab). A 401 refused the old token: with a new token of the same user, sending resumes. A
   * 401 on the token still in use signs the person out instead (docs/decisions/08-offline-pwa.md:
   * "any 401 logs the user out"), and the entries wait for the same user's next sign-in.
   */
  tokenChanged(): Promise<void> {
    if (!this.status.get().paused || !this.hasNewToken()) return Promise.resolve();
    return this.resume();
  }

  /** A token of the same user other than the one a 401 refused. */
  private hasNewToken(): boolean {
    const now = this.token();
    return typeof now === 'string' && now !== this.refusedToken;
  }

  /** The connection returned or the tab came back: retry without waiting out the backoff. */
  async retryNow(): Promise<void> {
    await this.db.outbox.where('state').anyOf('queued', 'sending').modify({ nextAttemptAt: 0 });
    await this.run();
  }

  /**
   * Sends what can be sent; one pass at a time in this tab (a call during a pass asks for one more
   * and resolves with it), one tab at a time through the lock.
   */
  run(): Promise<void> {
    if (!this.started || this.status.get().paused) return Promise.resolve();
    if (this.current) {
      this.runAgain = true;
      return this.current;
    }
    this.current = this.passes();
    return this.current;
  }

  /**
   * Passes until no call asked for another. The status is read at the end of each pass, and the
   * pass is let go of with nothing awaited after the last look at `runAgain`: a call arriving while
   * the status was read (the connection's return, say) used to join a pass that then ended without
   * it, and its changes waited out their backoff (up to five minutes).
   */
  private async passes(): Promise<void> {
    this.clearTimer();
    try {
      do {
        this.runAgain = false;
        try {
          const acquired = await this.lock((stillHeld) => this.drain(stillHeld));
          if (!acquired) this.schedule(LEASE_RETRY_MS);
        } finally {
          await this.refresh();
        }
      } while (this.runAgain && this.started && !this.status.get().paused);
    } catch (err) {
      // Stopped meanwhile: sign-out closes the local store under a pass in flight, whose next read
      // then fails. The pass just ends; its change stays queued for the same person's next sign-in.
      if (this.started) throw err;
    } finally {
      this.current = null;
    }
  }

  /** Reads the status from the database (other tabs write to it too) and tells subscribers. */
  async refresh(): Promise<void> {
    const { waiting, refused } = outboxParts(await this.db.outbox.orderBy('seq').toArray());
    this.status.set((s) => ({ ...s, pending: waiting.length, refused }));
  }

  private async drain(stillHeld: () => Promise<boolean>): Promise<void> {
    while (this.started && !this.status.get().paused) {
      let entry = await this.nextEntry();
      if (!entry) return;
      const wait = entry.nextAttemptAt - this.clock.now();
      if (wait > 0) return this.schedule(wait);
      if (!(await stillHeld())) return this.schedule(LEASE_RETRY_MS);
      // A create is marked before it goes, so no change is folded into it while it is out. One tried
      // while the browser says it is offline, and failed so, never left the device: it is unmarked
      // again (retryLater), and the person's later changes of it still fold into it.
      let triedOffline = false;
      if (entry.kind === 'create' && !entry.maybeSent) {
        triedOffline = !this.online();
        entry = await this.markMaybeSent(entry.seq!);
        if (!entry) continue;
      }
      // No 'sending' write before the request: nothing reads it differently from 'queued' (the lock
      // says who sends), and with 200 changes waiting it was a write and a re-read of the strip each.
      // The request carries the token current now (apiFetch reads the same store).
      const tokenUsed = this.token();
      let result: SendResult;
      try {
        result = await this.send(entry);
      } catch {
        await this.retryLater(entry, triedOffline && !this.online());
        continue;
      }
      if (result.ok) await this.acknowledge(entry, result.appointment);
      else if (result.status === 404 && entry.kind === 'delete') await this.acknowledge(entry, undefined);
      else if (isTransient(result.status)) await this.retryLater(entry);
      else if (result.status === 401) {
        // Keep everything; it is sent after the same user signs in again. If the token was
        // replaced while the request was out (same user), the 401 was the old token's: send again.
        await this.db.outbox.update(entry.seq!, { state: 'queued' });
        this.refusedToken = tokenUsed;
        if (!this.hasNewToken()) this.status.set((s) => ({ ...s, paused: true }));
      } else {
        const { status, code, message, current } = result;
        await this.db.outbox.update(entry.seq!, { state: 'refused', refusal: { status, code, message, current } });
      }
      // The status is read once the pass ends (passes()); the strip follows the table itself.
    }
  }

  /**
   * The first entry to send, in the order the changes were made. A refused change holds back the
   * later changes of the same appointment (they were made on top of it), not those of others.
   */
  private async nextEntry(): Promise<OutboxEntry | undefined> {
    const held = new Set<number>();
    // A cursor that stops at the first sendable entry, instead of reading the whole queue each time.
    return this.db.outbox
      .orderBy('seq')
      .filter((entry) => {
        if (entry.state !== 'refused') return !held.has(entry.appointmentId);
        held.add(entry.appointmentId);
        return false;
      })
      .first();
  }

  /** Back in line after no answer; `neverLeft`: a create tried and failed while the browser said it was offline. */
  private async retryLater(entry: OutboxEntry, neverLeft = false): Promise<void> {
    const attempts = entry.attempts + 1;
    await this.db.outbox.update(entry.seq!, {
      state: 'queued',
      attempts,
      nextAttemptAt: this.clock.now() + backoffDelay(attempts, this.clock.random()),
      ...(neverLeft ? { maybeSent: false } : {}),
    });
  }

  /**
   * The server applied the change. A create's server id replaces the temporary one everywhere (the
   * row, and every later entry that refers to it); later changes of the same appointment were made
   * on top of this one, so they are now based on the server's new version.
   */
  private async acknowledge(entry: OutboxEntry, answer: ServerAppointment | undefined): Promise<void> {
    const db = this.db;
    await db.transaction('rw', db.appointments, db.outbox, db.meta, async () => {
      await db.outbox.delete(entry.seq!);
      const oldId = entry.appointmentId;
      const newId = answer?.id ?? oldId;
      const later = await db.outbox.where('appointmentId').equals(oldId).toArray();
      for (const next of later) {
        await db.outbox.update(next.seq!, {
          appointmentId: newId,
          ifMatch: answer ? answer.version : next.ifMatch,
          before: next.before && { ...next.before, id: newId },
        });
      }
      const local = await db.appointments.get(oldId);
      if (newId !== oldId) {
        await db.appointments.delete(oldId);
        const replaced = (await getMeta<Record<number, number>>(db, 'replacedIds')) ?? {};
        await setMeta(db, 'replacedIds', { ...replaced, [oldId]: newId });
      }
      if (entry.kind === 'delete') await db.appointments.delete(newId);
      else if (answer && later.length === 0) await db.appointments.put({ ...answer, pending: 0 });
      else if (local)
        await db.appointments.put({ ...local, id: newId, version: answer?.version ?? local.version, pending: later.length > 0 ? 1 : 0 });
    });
  }

  private async refusedEntry(seq: number): Promise<OutboxEntry & { refusal: Refusal }> {
    const entry = await this.db.outbox.get(seq);
    if (!entry?.refusal || entry.state !== 'refused') throw new Error(`Outbox entry ${seq} is not a refused change`);
    return entry as OutboxEntry & { refusal: Refusal };
  }

  /** Puts the server's row back, or removes the local one when the server has none (404, or a refused create). */
  private async showServerRow(entry: OutboxEntry & { refusal: Refusal }, id: number): Promise<void> {
    const server = entry.refusal.current ?? (entry.kind === 'create' || entry.refusal.status === 404 ? undefined : entry.before);
    if (server) await this.db.appointments.put({ ...server, id, pending: 0 } as LocalAppointment);
    else await this.db.appointments.delete(id);
  }

  /** "Discard": drops my change; a refused create takes its later edits with it. */
  async discard(seq: number): Promise<void> {
    const db = this.db;
    await db.transaction('rw', db.appointments, db.outbox, async () => {
      const entry = await this.refusedEntry(seq);
      await db.outbox.delete(seq);
      const rest = await db.outbox.where('appointmentId').equals(entry.appointmentId).toArray();
      if (entry.kind === 'create') await db.outbox.bulkDelete(rest.map((e) => e.seq!));
      if (entry.kind === 'create' || rest.length === 0) await this.showServerRow(entry, entry.appointmentId);
    });
    await this.afterResolution();
  }

  /** "Keep theirs": drops my change and my later changes of that appointment, and shows the server's row. */
  async keepTheirs(seq: number): Promise<void> {
    const db = this.db;
    await db.transaction('rw', db.appointments, db.outbox, async () => {
      const entry = await this.refusedEntry(seq);
      await db.outbox.where('appointmentId').equals(entry.appointmentId).delete();
      await this.showServerRow(entry, entry.appointmentId);
    });
    await this.afterResolution();
  }

  /** "Apply again": sends my change over theirs, based on the version the server now has (412). */
  async applyAgain(seq: number): Promise<void> {
    await this.db.transaction('rw', this.db.outbox, async () => {
      const entry = await this.refusedEntry(seq);
      const current = entry.refusal.current;
      if (!current) throw new Error(`Outbox entry ${seq} has no server version to apply over`);
      await this.requeue(entry, { ifMatch: current.version });
    });
    await this.afterResolution();
  }

  /** "Pick another time": sends my change again with new times (409 slot taken). */
  async pickAnotherTime(seq: number, times: { start_time: string; end_time: string }): Promise<void> {
    const db = this.db;
    await db.transaction('rw', db.appointments, db.outbox, async () => {
      const entry = await this.refusedEntry(seq);
      await this.requeue(entry, { payload: { ...entry.payload, ...times } });
      await db.appointments.update(entry.appointmentId, { ...times, pending: 1 });
    });
    await this.afterResolution();
  }

  /**
   * Back in line at its old place. A new Idempotency-Key: the server may have stored its refusal
   * under the old one, and would answer the retry with it.
   */
  private async requeue(entry: OutboxEntry, changes: Partial<OutboxEntry>): Promise<void> {
    await this.db.outbox.update(entry.seq!, {
      ...changes,
      state: 'queued',
      refusal: undefined,
      attempts: 0,
      nextAttemptAt: 0,
      idempotencyKey: newKey(),
    });
  }

  private async afterResolution(): Promise<void> {
    await this.refresh();
    void this.run();
  }

  private schedule(ms: number): void {
    this.clearTimer();
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      void this.run();
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}

/** A new version of the app reloads only when the outbox is empty (docs/decisions/08-offline-pwa.md). */
export function installOutboxReloadGuard(outbox: Outbox): () => void {
  return addReloadGuard(() => outbox.isEmpty());
}
