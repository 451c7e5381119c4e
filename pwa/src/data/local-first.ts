// Local-first reads for signed-in staff (docs/decisions/08-offline-pwa.md): when the server answers,
// its answer is kept in the local store and returned; when no answer comes at all (offline, timeout),
// the last kept copy is returned instead, so the calendar, the directory and settings still open.
// An HTTP error is never hidden behind the local copy. Without an offline session (signed out,
// customers, IndexedDB unavailable) a read is just the request. Dexie is imported lazily.
import { isApiError } from '../lib/api-errors.ts';
import { offlineSession, offlineSessionReady, type OfflineSession } from '../offline/session.ts';
import type { CachedTable } from '../offline/local-db.ts';

/** True when the request never got an answer (the case the local copy is for). */
export function isUnreachable(e: unknown): boolean {
  return isApiError(e) && e.isNetworkError;
}

/** The offline session to fall back on after a network error (waits for one still opening). */
export async function sessionForFallback(): Promise<OfflineSession | null> {
  return offlineSession.get() ?? (await offlineSessionReady());
}

/** A stable numeric row id for a cache key (FNV-1a), so each distinct request keeps its own answer. */
export function cacheRowId(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

interface CachedAnswer {
  id: number;
  key: string;
  data: unknown;
}

async function keep(session: OfflineSession, table: CachedTable, key: string, data: unknown): Promise<void> {
  await session.db[table].put({ id: cacheRowId(key), key, data } satisfies CachedAnswer);
}

async function kept<T>(session: OfflineSession, table: CachedTable, key: string): Promise<T | undefined> {
  const row = (await session.db[table].get(cacheRowId(key))) as CachedAnswer | undefined;
  return row?.key === key ? (row.data as T) : undefined;
}

/**
 * Fetches; for staff, keeps the answer under `table`/`key`, and after a network error returns the
 * kept answer (or `fallback`'s, from another kept answer) when there is one.
 */
export async function readLocalFirst<T>(
  table: CachedTable,
  key: string,
  fetch: () => Promise<T>,
  fallback?: (read: <U>(key: string) => Promise<U | undefined>) => Promise<T | undefined>,
): Promise<T> {
  try {
    const data = await fetch();
    // Kept once the local store is open, also when it is still opening: a session's first reads
    // come before it is, and an answer not kept left an offline reload with nothing to show (its
    // read retried for 3 s and failed: the calendar then fell back to the browser's time zone).
    void sessionForFallback()
      .then((session) => session && keep(session, table, key, data))
      .catch(() => undefined);
    return data;
  } catch (e) {
    if (!isUnreachable(e)) throw e;
    const session = await sessionForFallback();
    if (!session) throw e;
    const local = await kept<T>(session, table, key).catch(() => undefined);
    if (local !== undefined) return local;
    const other = fallback ? await fallback((k) => kept(session, table, k)).catch(() => undefined) : undefined;
    if (other !== undefined) return other;
    throw e;
  }
}
