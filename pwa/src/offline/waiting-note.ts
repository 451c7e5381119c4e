// The note the sign-in page reads when changes made on this device still wait for their author:
// a 401 while sending signs the person out (docs/decisions/08-offline-pwa.md: "Any 401 logs the
// user out" and unsent changes wait for the same user), so the "Sign in to send your changes"
// notice of the signed-in strip never gets the chance to show. The outbox itself sits in that
// user's own IndexedDB store, opened only once they sign in, so the count is kept in localStorage.
import { createStore } from '../lib/store.ts';

const KEY = 'bookwell.waitingChanges';

export interface WaitingNote {
  userId: number;
  /** Changes that will be sent once that user signs in. */
  count: number;
  /** Changes the server refused: they wait for that user's choice (absent in notes kept before). */
  refused: number;
}

function read(): WaitingNote | null {
  try {
    const raw = localStorage.getItem(KEY);
    const note = raw ? (JSON.parse(raw) as Partial<WaitingNote>) : null;
    if (!note || typeof note.userId !== 'number' || typeof note.count !== 'number') return null;
    const refused = typeof note.refused === 'number' ? note.refused : 0;
    return note.count + refused > 0 ? { userId: note.userId, count: note.count, refused } : null;
  } catch {
    return null; // storage unavailable or garbled: no note
  }
}

/** The changes waiting on this device for someone to sign in again, if any. */
export const waitingNote = createStore<WaitingNote | null>(typeof localStorage === 'undefined' ? null : read());

/**
 * At sign-out: `count` changes of `userId` stay queued and `refused` ones wait for a choice (none
 * of either: that user's note goes). Another user's note stays: their changes still wait for them.
 */
export function noteWaitingChanges(userId: number, count: number, refused = 0): void {
  const current = read();
  try {
    if (count + refused > 0) localStorage.setItem(KEY, JSON.stringify({ userId, count, refused } satisfies WaitingNote));
    else if (current?.userId === userId) localStorage.removeItem(KEY);
    else return;
  } catch {
    return;
  }
  waitingNote.set(read());
}

/** The author signed in again: their outbox sends now, so the note goes. */
export function clearWaitingNote(userId: number): void {
  noteWaitingChanges(userId, 0);
}
