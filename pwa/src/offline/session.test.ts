// The signed-in staff member's session keeps the sign-in page's note current as changes are queued,
// so closing the tab (or a refused token) before sign-out finishes counting still leaves the note;
// and one person's work on a shared tablet never hides another's waiting changes.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../lib/storage-fallback.ts';
import { appointmentRow, outboxEntry } from './testing/offline-fixtures.ts';

// The browser's localStorage, which Node does not have: the note lives there.
Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true, writable: true });
const { endOfflineSession, startOfflineSession } = await import('./session.ts');
const { waitingNote } = await import('./waiting-note.ts');

const NINE = '2026-12-01T09:00:00.000Z';
const create = (start: string) => ({ kind: 'create' as const, payload: { start_time: start }, row: appointmentRow(start) });

/** A staff member's session on this device, with nothing sent: there is no server here. */
async function signIn(userId: number) {
  const session = await startOfflineSession({ id: userId, role: 'employee' });
  if (!session) throw new Error('no offline session');
  session.outbox.stop();
  return session;
}

describe('the sign-in note', () => {
  afterEach(async () => {
    await endOfflineSession();
    localStorage.clear();
  });

  it('counts queued and refused changes as they change, before any sign-out', async () => {
    const session = await signIn(41);
    expect(waitingNote.get()).toBeNull();

    await session.outbox.enqueue(create(NINE));
    await vi.waitFor(() => expect(waitingNote.get()).toEqual({ count: 1, refused: 0, held: 0 }));
    // What a page opened after the tab closed reads: the note is stored, not only in memory.
    expect(JSON.parse(localStorage.getItem('bookwell.waitingChanges') ?? 'null')).toEqual({
      byUser: { 41: { count: 1, refused: 0, held: 0 } },
    });

    await session.db.outbox.toCollection().modify({ state: 'refused' });
    await vi.waitFor(() => expect(waitingNote.get()).toEqual({ count: 0, refused: 1, held: 0 }));

    // A change held behind a refused one of the same appointment is not sent on sign-in either:
    // it waits for the same choice.
    await session.db.outbox.clear();
    await session.db.outbox.bulkAdd([
      outboxEntry({ seq: 101, idempotencyKey: 'k1', appointmentId: 7, state: 'refused', refusal: { status: 404 } }),
      outboxEntry({ seq: 102, idempotencyKey: 'k2', appointmentId: 7 }),
      outboxEntry({ seq: 103, idempotencyKey: 'k3', appointmentId: 8 }),
    ]);
    await vi.waitFor(() => expect(waitingNote.get()).toEqual({ count: 1, refused: 1, held: 1 }));

    await session.db.outbox.clear();
    await vi.waitFor(() => expect(waitingNote.get()).toBeNull());
  });

  it("keeps one person's waiting changes while another works on the same device", async () => {
    const first = await signIn(51);
    await first.outbox.enqueue(create(NINE));
    await vi.waitFor(() => expect(waitingNote.get()).toEqual({ count: 1, refused: 0, held: 0 }));
    await endOfflineSession(); // signed out, the change still queued

    const second = await signIn(52);
    await second.outbox.enqueue(create('2026-12-01T10:00:00.000Z'));
    await second.outbox.enqueue(create('2026-12-01T11:00:00.000Z'));
    await vi.waitFor(() => expect(waitingNote.get()).toEqual({ count: 3, refused: 0, held: 0 }));
    // The second person's changes leave (sent): the first person's one still waits, and is still said.
    await second.db.outbox.clear();
    await vi.waitFor(() => expect(waitingNote.get()).toEqual({ count: 1, refused: 0, held: 0 }));
    await endOfflineSession();
    expect(waitingNote.get()).toEqual({ count: 1, refused: 0, held: 0 });

    // The first person signs in again: their outbox sends, so the note goes once it is empty.
    const again = await signIn(51);
    await vi.waitFor(() => expect(waitingNote.get()).toEqual({ count: 1, refused: 0, held: 0 }));
    await again.db.outbox.clear();
    await vi.waitFor(() => expect(waitingNote.get()).toBeNull());
  });

  it('reads the note kept before, one person only, and keeps it beside the next', async () => {
    localStorage.setItem('bookwell.waitingChanges', JSON.stringify({ userId: 61, count: 2, refused: 1 }));
    const second = await signIn(62);
    await second.outbox.enqueue(create(NINE));
    await vi.waitFor(() => expect(waitingNote.get()).toEqual({ count: 3, refused: 1, held: 0 }));
  });
});
