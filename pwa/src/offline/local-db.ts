// The signed-in staff member's local copy of their company (Dexie over IndexedDB): the calendar
// window, the directory and settings the screens read while offline, the sync cursor, and the
// outbox of unsent appointment changes (docs/decisions/08-offline-pwa.md).
import Dexie, { type EntityTable } from 'dexie';
import type { InferResponseType } from 'hono/client';
import type { client } from '../lib/rpc.ts';

/** One page of GET /api/sync/appointments: upserts and tombstones, then the next cursor. */
export type SyncPage = InferResponseType<typeof client.sync.appointments.$get, 200>;
/** An appointment as the server sends it. */
export type ServerAppointment = Extract<SyncPage['changes'][number], { op: 'upsert' }>['appointment'];

/**
 * An appointment in the local window. `pending` is 1 while an outbox entry changes it (IndexedDB
 * cannot index booleans); `version` stays the server's version the local change was based on.
 * Appointments created offline carry a temporary negative id until the server answers.
 */
/**
 * A kept appointment: `pending` while a change made on this device waits for the server, and
 * `deleting` while that change is a delete (the row stays on the calendar, marked, until the server
 * has it: docs/decisions/08-offline-pwa.md).
 */
export type LocalAppointment = ServerAppointment & { pending: 0 | 1; deleting?: 1 };

/**
 * Directory and settings rows (users, services, duration options, hours, the company). Their
 * shapes belong to the data modules that fetch them (pwa/src/data), which sit above this store.
 */
export type CachedRow = { id: number } & Record<string, unknown>;

export type OutboxState = 'queued' | 'sending' | 'refused';

/** Why the server refused a change: kept until the person chooses what to do with it. */
export interface Refusal {
  status: number;
  code?: string;
  message?: string;
  /** The server's row now (412 changed elsewhere), for "apply again" and "keep theirs". */
  current?: ServerAppointment;
}

export interface OutboxEntry {
  /** Auto-increment: the order the changes were made in, and the order they are sent in. */
  seq?: number;
  kind: 'create' | 'update' | 'delete';
  /** The appointment changed; negative while it is a create the server has not acknowledged. */
  appointmentId: number;
  /** The request body (create and update). */
  payload?: Record<string, unknown>;
  /** Sent as Idempotency-Key, the same on every retry, so a lost acknowledgement never doubles a change. */
  idempotencyKey: string;
  /** Sent as If-Match: the server version this change was based on (null for a create). */
  ifMatch: number | null;
  /** The local row before this change, to put back when the change is discarded. */
  before?: LocalAppointment;
  attempts: number;
  /**
   * A create that may have reached the server: set before each attempt to send it (cleared again
   * when the attempt failed while the browser said it was offline), or at once when an online
   * attempt got no answer. While unset, later changes of the same appointment are folded into it
   * (outbox.ts, enqueue), since the server has never seen it.
   */
  maybeSent?: boolean;
  /** Epoch milliseconds before which the runner does not retry (backoff). */
  nextAttemptAt: number;
  state: OutboxState;
  refusal?: Refusal;
}

/** Sync cursor, window bounds, last sync time, the temporary id counter and the runner lease. */
export interface MetaRow {
  key: string;
  value: unknown;
}

export class LocalDb extends Dexie {
  appointments!: EntityTable<LocalAppointment, 'id'>;
  users!: EntityTable<CachedRow, 'id'>;
  services!: EntityTable<CachedRow, 'id'>;
  durations!: EntityTable<CachedRow, 'id'>;
  hours!: EntityTable<CachedRow, 'id'>;
  company!: EntityTable<CachedRow, 'id'>;
  meta!: EntityTable<MetaRow, 'key'>;
  outbox!: EntityTable<OutboxEntry, 'seq'>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({
      appointments: 'id, start_time, pending',
      users: 'id',
      services: 'id',
      durations: 'id',
      hours: 'id',
      company: 'id',
      meta: 'key',
      outbox: '++seq, appointmentId, state',
    });
  }
}

export type CachedTable = 'users' | 'services' | 'durations' | 'hours' | 'company';

/** Meta keys that survive sign-out with the outbox: the temporary id counter its entries use. */
const KEPT_META = ['nextTempId'];

/** One database per user, so two people sharing a tablet never see each other's company. */
export function localDbName(userId: number): string {
  return `bookwell-${userId}`;
}

export async function openLocalDb(userId: number): Promise<LocalDb> {
  const db = new LocalDb(localDbName(userId));
  await db.open();
  void requestPersistentStorage();
  return db;
}

export function closeLocalDb(db: LocalDb): void {
  db.close();
}

/**
 * Asks the browser not to evict the local copy under storage pressure: unsent changes live only
 * here. Best effort; resolves false where the API is missing or the browser says no.
 */
export async function requestPersistentStorage(): Promise<boolean> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage?.persist) return false;
  try {
    return (await storage.persisted()) || (await storage.persist());
  } catch {
    return false;
  }
}

/**
 * Sign-out: drops the cached company data but keeps the outbox, whose changes wait for the same
 * user to sign in again (docs/decisions/08-offline-pwa.md).
 */
export async function clearCachedData(db: LocalDb): Promise<void> {
  await db.transaction('rw', [db.appointments, db.users, db.services, db.durations, db.hours, db.company, db.meta], async () => {
    await Promise.all([
      db.appointments.clear(),
      db.users.clear(),
      db.services.clear(),
      db.durations.clear(),
      db.hours.clear(),
      db.company.clear(),
    ]);
    await db.meta.where('key').noneOf(KEPT_META).delete();
  });
}

export async function getMeta<T>(db: LocalDb, key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined;
}

export async function setMeta(db: LocalDb, key: string, value: unknown): Promise<void> {
  await db.meta.put({ key, value });
}

/** Where the sync feed stands: its cursor, the dates kept locally ([from, to) ISO instants) and when it last answered. */
export interface SyncState {
  cursor?: string;
  window?: { from: string; to: string };
  lastSyncAt?: number;
}

export async function readSyncState(db: LocalDb): Promise<SyncState> {
  const [cursor, window, lastSyncAt] = await Promise.all([
    getMeta<string>(db, 'cursor'),
    getMeta<SyncState['window']>(db, 'window'),
    getMeta<number>(db, 'lastSyncAt'),
  ]);
  return { cursor, window, lastSyncAt };
}

/** The window kept locally (the issue asks for at least 30 days back and 90 ahead of the viewed dates). */
export async function setSyncWindow(db: LocalDb, window: { from: string; to: string }): Promise<void> {
  await setMeta(db, 'window', window);
}

/**
 * Applies one sync page and its cursor in one transaction, so a crash never stores a cursor past
 * changes it did not keep. Rows with a queued change keep the local version: the outbox
 * entry carries the version it was based on, and the server answers 412 if theirs moved on.
 */
export async function applySyncPage(db: LocalDb, page: SyncPage, now: number = Date.now()): Promise<void> {
  await db.transaction('rw', db.appointments, db.meta, db.outbox, async () => {
    const ids = page.changes.map((c) => (c.op === 'upsert' ? c.appointment.id : c.id));
    // The outbox decides, not the row's marker: a queued delete has already removed its row.
    const pending = new Set((await db.outbox.where('appointmentId').anyOf(ids).toArray()).map((e) => e.appointmentId));
    const upserts = page.changes.flatMap((c) =>
      c.op === 'upsert' && !pending.has(c.appointment.id) ? [{ ...c.appointment, pending: 0 as const }] : [],
    );
    const deletes = page.changes.flatMap((c) => (c.op === 'delete' && !pending.has(c.id) ? [c.id] : []));
    await db.appointments.bulkPut(upserts);
    await db.appointments.bulkDelete(deletes);
    await db.meta.bulkPut([
      { key: 'cursor', value: page.cursor },
      { key: 'lastSyncAt', value: now },
    ]);
  });
}

/** Stores the server's answer to one of the app's own online writes (not queued). */
export async function putServerAppointment(db: LocalDb, appointment: ServerAppointment): Promise<void> {
  await db.appointments.put({ ...appointment, pending: 0 });
}

/** Replaces a cached directory or settings table with the server's list. */
export async function putCachedRows(db: LocalDb, table: CachedTable, rows: CachedRow[]): Promise<void> {
  await db.transaction('rw', db[table], async () => {
    await db[table].clear();
    await db[table].bulkPut(rows);
  });
}

/** The appointments starting in [from, to) (ISO instants), in start order. */
export function appointmentsBetween(db: LocalDb, from: string, to: string): Promise<LocalAppointment[]> {
  return db.appointments.where('start_time').between(from, to, true, false).toArray();
}
