// The note the sign-in page reads when changes made on this device still wait for their author:
// a 401 while sending signs the person out (docs/decisions/08-offline-pwa.md: "Any 401 logs the
// user out" and unsent changes wait for the same user), so the "Sign in to send your changes"
// notice of the signed-in strip never gets the chance to show. The outbox itself sits in that
// user's own IndexedDB store, opened only once they sign in, so the count is kept in localStorage.
import { createStore } from '../lib/store.ts';

const KEY = 'bookwell.waitingChanges';

export interface WaitingNote {
  userId: number;
  count: number;
}

function read(): WaitingNote | null {
  try {
    const raw = localStorage.getItem(KEY);
    const note = raw ? (JSON.parse(raw) as Partial<WaitingNote>) : null;
    return note && typeof note.userId === 'number' && typeof note.count === 'number' && note.count > 0
      ? { userId: note.userId, count: note.count }
      : null;
  } catch {
    return null; // storage unavailable or garbled: no note
  }
}

/** The changes waiting on this device for someone to sign in again, if any. */
export const waitingNote = createStore<WaitingNote | null>(typeof localStorage === 'undefined' ? null : read());

/**
 * At sign-out: `count` changes of `userId` stay queued (0: none, so that user's note goes). Another
 * user's note stays: their changes still wait for them.
 */
export function noteWaitingChanges(userId: number, count: number): void {
  const current = read();
  try {
    if (count > 0) localStorage.setItem(KEY, JSON.stringify({ userId, count } satisfies WaitingNote));
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
