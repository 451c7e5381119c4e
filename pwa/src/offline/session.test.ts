// The signed-in staff member's session keeps the sign-in page's note current as changes are queued,
// so closing the tab (or a refused token) before sign-out finishes counting still leaves the note.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../lib/storage-fallback.ts';
import { appointmentRow } from './testing/offline-fixtures.ts';

// The browser's localStorage, which Node does not have: the note lives there.
Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true, writable: true });
const { endOfflineSession, startOfflineSession } = await import('./session.ts');
const { waitingNote } = await import('./waiting-note.ts');

describe('the sign-in note while signed in', () => {
  afterEach(async () => {
    await endOfflineSession();
    localStorage.clear();
  });

  it('counts queued and refused changes as they change, before any sign-out', async () => {
    const session = await startOfflineSession({ id: 41, role: 'employee' });
    if (!session) throw new Error('no offline session');
    session.outbox.stop(); // nothing is sent: there is no server here
    expect(waitingNote.get()).toBeNull();

    const start = '2026-12-01T09:00:00.000Z';
    await session.outbox.enqueue({ kind: 'create', payload: { start_time: start }, row: appointmentRow(start) });
    await vi.waitFor(() => expect(waitingNote.get()).toEqual({ userId: 41, count: 1, refused: 0 }));
    // What a page opened after the tab closed reads: the note is stored, not only in memory.
    expect(JSON.parse(localStorage.getItem('bookwell.waitingChanges') ?? 'null')).toEqual({ userId: 41, count: 1, refused: 0 });

    await session.db.outbox.toCollection().modify({ state: 'refused' });
    await vi.waitFor(() => expect(waitingNote.get()).toEqual({ userId: 41, count: 0, refused: 1 }));

    await session.db.outbox.clear();
    await vi.waitFor(() => expect(waitingNote.get()).toBeNull());
  });
});
