// The signed-in staff member's offline session: their local store and outbox, opened at sign-in and
// closed at sign-out (the outbox is kept for the same user's next sign-in). Dexie and the outbox are
// imported lazily, so public pages never download them (docs/decisions/08-offline-pwa.md).
import { createStore } from '../lib/store.ts';
import { coalesce } from '../lib/coalesce.ts';
import { STAFF_ROLES, type User } from '../lib/api-types.ts';
import { decodeClaims, getToken, onTokenChange, TOKEN_KEY } from '../lib/token.ts';
import type { LocalDb } from './local-db.ts';
import type { Outbox } from './outbox.ts';
import { outboxParts } from './outbox-parts.ts';
import { noteWaitingChanges } from './waiting-note.ts';

export interface OfflineSession {
  userId: number;
  db: LocalDb;
  outbox: Outbox;
}

/** The signed-in staff member's local store and outbox; null when signed out or not staff. */
export const offlineSession = createStore<OfflineSession | null>(null);

interface Opening {
  userId: number;
  ready: Promise<OfflineSession | null>;
}

let opening: Opening | null = null;
let cleanups: (() => void)[] = [];

/**
 * Opens the user's local store and starts their outbox and catch-up (staff only); `onSynced` runs
 * after a catch-up stored changes and when a queued change left the outbox or was refused;
 * `onCaughtUp` after every catch-up that reached the server (the app refreshes the directory and
 * settings kept locally then). A second call for the same user is a no-op.
 */
export function startOfflineSession(
  user: Pick<User, 'id' | 'role'>,
  onSynced: () => void = () => undefined,
  onCaughtUp: () => void = () => undefined,
): Promise<OfflineSession | null> {
  if (!STAFF_ROLES.includes(user.role)) return Promise.resolve(null);
  if (opening?.userId === user.id) return opening.ready;
  const attempt: Opening = { userId: user.id, ready: Promise.resolve(null) };
  opening = attempt;
  attempt.ready = open(attempt, onSynced, onCaughtUp).catch(() => null); // IndexedDB unavailable (private mode): online only
  return attempt.ready;
}

/** The token in localStorage when it is this user's (a token of someone else never sends their changes). */
export function tokenOf(userId: number): () => string | null {
  return () => {
    const token = getToken();
    return decodeClaims(token)?.user_id === userId ? token : null;
  };
}

/** Tells the outbox when the token changes, in this tab (setToken) or another ('storage' event). */
function watchToken(outbox: Outbox): () => void {
  const changed = () => void outbox.tokenChanged();
  const onStorage = (e: StorageEvent) => {
    if (e.key === TOKEN_KEY || e.key === null) changed();
  };
  const stop = onTokenChange(changed);
  if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    stop();
    if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}

async function open(attempt: Opening, onSynced: () => void, onCaughtUp: () => void): Promise<OfflineSession | null> {
  const userId = attempt.userId;
  const [{ openLocalDb }, { Outbox, installOutboxReloadGuard }, { sendEntry }, { onCatchUp, startSync }, { liveQuery }] = await Promise.all(
    [import('./local-db.ts'), import('./outbox.ts'), import('./send.ts'), import('./sync.ts'), import('dexie')],
  );
  const db = await openLocalDb(userId); // also asks for persistent storage
  if (opening !== attempt) {
    // Signed out (or someone else signed in) while the store was opening.
    db.close();
    return null;
  }
  const outbox = new Outbox(db, { send: sendEntry, token: tokenOf(userId) });
  const session: OfflineSession = { userId, db, outbox };
  cleanups = [
    installOutboxReloadGuard(outbox),
    onCatchUp(onSynced),
    startSync(session, undefined, onCaughtUp),
    whenChangesLeave(liveQuery, db, onSynced, userId),
    watchToken(outbox),
    () => outbox.stop(),
  ];
  offlineSession.set(session);
  void outbox.start();
  return session;
}

/**
 * Calls `onLeave` whenever a queued change leaves the outbox: sent (its row now holds the server's
 * answer, or its temporary id gave way to the server's), or settled from "Needs attention"; and
 * when the server refuses one, so its event shows "needs attention" instead of "waiting to sync".
 * Dexie's liveQuery sees the other tabs' writes too, so every tab re-reads when one tab's runner
 * sends what another tab queued (issue 11: both tabs show the same afterwards).
 *
 * It also keeps the sign-in page's note current at every change, not only at sign-out: sign-out
 * counts the outbox asynchronously, and a tab closed (or reloaded) straight after it, or a stored
 * token refused while the store was still opening, would otherwise leave no note at all.
 */
function whenChangesLeave(liveQuery: typeof import('dexie').liveQuery, db: LocalDb, leave: () => void, userId: number): () => void {
  const { call: onLeave, cancel } = coalesce(leave);
  let before: Set<number> | null = null;
  let refusedBefore = new Set<number>();
  // Whole entries, not primaryKeys(): Dexie's liveQuery missed additions to a primaryKeys() query.
  const subscription = liveQuery(() => db.outbox.toArray()).subscribe({
    next: (entries) => {
      const now = new Set(entries.map((e) => e.seq!));
      const parts = outboxParts(entries);
      const refused = new Set(parts.refused.map((e) => e.seq!));
      noteWaitingChanges(userId, { count: parts.waiting.length, refused: parts.refused.length, held: parts.held.length });
      const left = before !== null && [...before].some((seq) => !now.has(seq));
      const newlyRefused = [...refused].some((seq) => !refusedBefore.has(seq));
      if (left || (before !== null && newlyRefused)) onLeave();
      before = now;
      refusedBefore = refused;
    },
    error: () => undefined, // the database closed at sign-out
  });
  return () => {
    cancel();
    subscription.unsubscribe();
  };
}

/** The session being opened (or open); null when there is none. */
export function offlineSessionReady(): Promise<OfflineSession | null> {
  return opening?.ready ?? Promise.resolve(offlineSession.get());
}

/** Sign-out: stops the runner and drops the cached company data; the outbox waits for the same user. */
export async function endOfflineSession(options: { keepOutbox: true } = { keepOutbox: true }): Promise<void> {
  void options;
  opening = null;
  const session = offlineSession.get();
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
  offlineSession.set(null);
  if (!session) return;
  const { clearCachedData, closeLocalDb } = await import('./local-db.ts');
  try {
    // Changes still queued (a 401 stopped them, or no connection): the sign-in page says so.
    noteWaitingChanges(session.userId, await session.outbox.counts());
    await clearCachedData(session.db);
  } finally {
    closeLocalDb(session.db);
  }
}
