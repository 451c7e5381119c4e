// Catch-up: pulls the appointment change feed (GET /api/sync/appointments?since=<cursor>) page by
// page into the local store, at session start, when the connection returns, when the tab comes
// back and every minute; then tells the screens to re-read (docs/decisions/08-offline-pwa.md).
import { client, rpc } from '../lib/rpc.ts';
import { applySyncPage, readSyncState, type LocalDb, type SyncPage } from './local-db.ts';

export const SYNC_INTERVAL_MS = 60_000;

type FetchPage = (since: string | undefined) => Promise<SyncPage>;

const fetchPage: FetchPage = (since) => rpc(client.sync.appointments.$get({ query: since ? { since } : {} }));

/** What the app does after a catch-up that stored something (invalidates the appointment queries). */
const listeners = new Set<() => void>();
export function onCatchUp(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Pulls every page after the stored cursor; resolves with the number of changes stored. */
export async function catchUp(db: LocalDb, fetch: FetchPage = fetchPage): Promise<number> {
  let { cursor } = await readSyncState(db);
  let count = 0;
  for (;;) {
    const page = await fetch(cursor);
    await applySyncPage(db, page);
    count += page.changes.length;
    cursor = page.cursor;
    if (!page.has_more) return count;
  }
}

/**
 * Starts the catch-up triggers for one session; returns the function that stops them. `onCaughtUp`
 * runs after every catch-up the server answered, whether or not anything changed.
 */
export function startSync(session: { db: LocalDb }, fetch: FetchPage = fetchPage, onCaughtUp: () => void = () => undefined): () => void {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (stopped || running) return;
    running = catchUp(session.db, fetch)
      .then((count) => {
        if (stopped) return;
        if (count > 0) for (const l of [...listeners]) l();
        onCaughtUp();
      })
      .catch(() => undefined) // offline or refused: the next trigger tries again
      .finally(() => {
        running = null;
      });
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') run();
  };
  const hasWindow = typeof window !== 'undefined';
  if (hasWindow) {
    window.addEventListener('online', run);
    window.addEventListener('focus', run);
    document.addEventListener('visibilitychange', onVisible);
  }
  const timer = setInterval(run, SYNC_INTERVAL_MS);
  run();
  return () => {
    stopped = true;
    if (hasWindow) {
      window.removeEventListener('online', run);
      window.removeEventListener('focus', run);
      document.removeEventListener('visibilitychange', onVisible);
    }
    clearInterval(timer);
  };
}
