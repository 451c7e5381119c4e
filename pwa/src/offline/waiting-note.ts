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
  /** Later changes to the same appointments as refused ones: they wait for that choice too. */
  held: number;
}

type Notes = Record<string, WaitingNote>;

const counted = (n: unknown): number => (typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 0);

function readAll(): Notes {
  try {
    const raw = localStorage.getItem(KEY);
    const stored = raw ? (JSON.parse(raw) as { byUser?: unknown; userId?: unknown } & Partial<Record<keyof WaitingNote, unknown>>) : null;
    if (!stored || typeof stored !== 'object') return {};
    const note = (n: Partial<Record<keyof WaitingNote, unknown>>): WaitingNote => ({
      count: counted(n.count),
      refused: counted(n.refused),
      held: counted(n.held), // absent from notes written before session 44: counted with `refused`
    });
    // Kept before session 43: one note, for the last person who signed out.
    if (typeof stored.userId === 'number') return { [stored.userId]: note(stored) };
    const notes: Notes = {};
    if (stored.byUser && typeof stored.byUser === 'object')
      for (const [userId, n] of Object.entries(stored.byUser as Record<string, Partial<Record<keyof WaitingNote, unknown>>>))
        if (n && sum(note(n)) > 0) notes[userId] = note(n);
    return notes;
  } catch {
    return {}; // storage unavailable or garbled: no note
  }
}

const sum = (n: WaitingNote): number => n.count + n.refused + n.held;

function total(notes: Notes): WaitingNote | null {
  const all = { count: 0, refused: 0, held: 0 };
  for (const n of Object.values(notes)) {
    all.count += n.count;
    all.refused += n.refused;
    all.held += n.held;
  }
  return sum(all) > 0 ? all : null;
}

/** The changes waiting on this device for someone to sign in again, if any. */
export const waitingNote = createStore<WaitingNote | null>(typeof localStorage === 'undefined' ? null : total(readAll()));

/**
 * What `userId` leaves on this device: changes that stay queued, refused ones waiting for a choice
 * and the later ones held behind those (none at all: that user's note goes). Written at every change
 * of their outbox while they are signed in and at sign-out; other people's notes stay: their changes
 * still wait for them.
 */
export function noteWaitingChanges(userId: number, left: WaitingNote): void {
  const notes = readAll();
  const kept = notes[userId];
  const unchanged = kept ? kept.count === left.count && kept.refused === left.refused && kept.held === left.held : sum(left) === 0;
  if (sum(left) > 0) notes[userId] = { count: left.count, refused: left.refused, held: left.held };
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
