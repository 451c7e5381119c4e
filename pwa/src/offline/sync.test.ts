import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSyncState, type SyncPage } from './local-db.ts';
import { freshDb, serverAppointment } from './testing/offline-fixtures.ts';
import { catchUp, onCatchUp, startSync, SYNC_INTERVAL_MS } from './sync.ts';

/** A fake feed: the pages it answers, in order, and the cursors it was asked with. */
function feed(pages: SyncPage[]) {
  const asked: (string | undefined)[] = [];
  const fetch = vi.fn(async (since: string | undefined) => {
    asked.push(since);
    const page = pages.shift();
    if (!page) throw new Error('no more pages');
    return page;
  });
  return { fetch, asked };
}

describe('catch-up', () => {
  afterEach(() => vi.useRealTimers());

  it('pulls page after page while has_more, from the stored cursor, and stores the last cursor', async () => {
    const db = await freshDb();
    const { fetch, asked } = feed([
      { changes: [{ op: 'upsert', appointment: serverAppointment(1, '2026-11-24T09:00:00.000Z') }], cursor: 'c1', has_more: true },
      { changes: [{ op: 'upsert', appointment: serverAppointment(2, '2026-11-24T10:00:00.000Z') }], cursor: 'c2', has_more: false },
    ]);
    expect(await catchUp(db, fetch)).toBe(2);
    expect(asked).toEqual([undefined, 'c1']);
    expect((await readSyncState(db)).cursor).toBe('c2');
    expect((await db.appointments.toArray()).map((a) => a.id)).toEqual([1, 2]);

    const next = feed([{ changes: [], cursor: 'c3', has_more: false }]);
    expect(await catchUp(db, next.fetch)).toBe(0);
    expect(next.asked).toEqual(['c2']);
    expect((await readSyncState(db)).cursor).toBe('c3');
  });

  it('applies tombstones and newer versions', async () => {
    const db = await freshDb();
    await catchUp(
      db,
      feed([
        {
          changes: [
            { op: 'upsert', appointment: serverAppointment(1, '2026-11-24T09:00:00.000Z') },
            { op: 'upsert', appointment: serverAppointment(2, '2026-11-24T10:00:00.000Z') },
          ],
          cursor: 'c1',
          has_more: false,
        },
      ]).fetch,
    );
    await catchUp(
      db,
      feed([
        {
          changes: [
            { op: 'delete', id: 1 },
            { op: 'upsert', appointment: serverAppointment(2, '2026-11-24T11:00:00.000Z', 2) },
          ],
          cursor: 'c2',
          has_more: false,
        },
      ]).fetch,
    );
    const rows = await db.appointments.toArray();
    expect(rows.map((a) => [a.id, a.version, a.start_time])).toEqual([[2, 2, '2026-11-24T11:00:00.000Z']]);
  });

  it('keeps the cursor of the pages stored when a later page fails', async () => {
    const db = await freshDb();
    const { fetch } = feed([{ changes: [{ op: 'delete', id: 9 }], cursor: 'c1', has_more: true }]);
    await expect(catchUp(db, fetch)).rejects.toThrow();
    expect((await readSyncState(db)).cursor).toBe('c1');
  });

  it('runs at start and every minute, tells listeners when something changed, and stops', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] }); // IndexedDB keeps its real timers
    const db = await freshDb();
    const { fetch } = feed([
      { changes: [{ op: 'upsert', appointment: serverAppointment(1, '2026-11-24T09:00:00.000Z') }], cursor: 'c1', has_more: false },
      { changes: [], cursor: 'c1', has_more: false },
    ]);
    const listener = vi.fn();
    const off = onCatchUp(listener);
    const stop = startSync({ db }, fetch);
    await vi.waitFor(() => expect(listener).toHaveBeenCalledTimes(1));
    await vi.advanceTimersByTimeAsync(SYNC_INTERVAL_MS);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    expect(listener).toHaveBeenCalledTimes(1); // nothing new the second time
    stop();
    off();
    await vi.advanceTimersByTimeAsync(SYNC_INTERVAL_MS * 2);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
