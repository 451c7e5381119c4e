// The note the sign-in page reads when changes made on this device still wait for their author:
// a 401 while sending signs the person out (docs/decisions/08-offline-pwa.md: "Any 401 logs the
// user out" and unsent changes wait for the same user), so the "Sign in to send your changes"
// notice of the signed-in strip never gets the chance to show. The outbox itself sits in that
// user's own IndexedDB store, opened only once they sign in, so the counts are kept in localStorage,
// one per person: several staff share a front-desk tablet, and one person's work must not hide
// another's waiting changes.
import { createStore } from '../lib/store.ts';

const KEY = 'bookwell.waitingChanges';

/** What the sign-in page says: the changes of everyone who left some on this device. */
export interface WaitingNote {
  /** Changes that will be sent once the person who made them signs in. */
  count: number;
  /** Changes the server refused: they wait for their author's choice. */
  refused: number;
}

type Notes = Record<string, WaitingNote>;

const counted = (n: unknown): number => (typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 0);

function readAll(): Notes {
  try {
    const raw = localStorage.getItem(KEY);
    const stored = raw ? (JSON.parse(raw) as { byUser?: unknown; userId?: unknown; count?: unknown; refused?: unknown }) : null;
    if (!stored || typeof stored !== 'object') return {};
    // Kept before session 43: one note, for the last person who signed out.
    if (typeof stored.userId === 'number') return { [stored.userId]: { count: counted(stored.count), refused: counted(stored.refused) } };
    const notes: Notes = {};
    if (stored.byUser && typeof stored.byUser === 'object')
      for (const [userId, n] of Object.entries(stored.byUser as Record<string, Partial<WaitingNote>>))
        if (n && counted(n.count) + counted(n.refused) > 0) notes[userId] = { count: counted(n.count), refused: counted(n.refused) };
    return notes;
  } catch {
    return {}; // storage unavailable or garbled: no note
  }
}

function total(notes: Notes): WaitingNote | null {
  const sum = { count: 0, refused: 0 };
  for (const n of Object.values(notes)) {
    sum.count += n.count;
    sum.refused += n.refused;
  }
  return sum.count + sum.refused > 0 ? sum : null;
}

/** The changes waiting on this device for someone to sign in again, if any. */
export const waitingNote = createStore<WaitingNote | null>(typeof localStorage === 'undefined' ? null : total(readAll()));

/**
 * `count` changes of `userId` stay queued and `refused` ones wait for a choice (none of either:
 * that user's note goes). Written at every change of their outbox while they are signed in and at
 * sign-out; other people's notes stay: their changes still wait for them.
 */
export function noteWaitingChanges(userId: number, count: number, refused = 0): void {
  const notes = readAll();
  const kept = notes[userId];
  const unchanged = kept ? kept.count === count && kept.refused === refused : count + refused === 0;
  if (count + refused > 0) notes[userId] = { count, refused };
  else delete notes[userId];
  if (unchanged) {
    waitingNote.set(total(notes)); // another tab may have written someone else's
    return;
  }
  try {
    if (Object.keys(notes).length > 0) localStorage.setItem(KEY, JSON.stringify({ byUser: notes }));
    else localStorage.removeItem(KEY);
  } catch {
    return;
  }
  waitingNote.set(total(notes));
}
