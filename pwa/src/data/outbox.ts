// The outbox as the screens see it: how many changes wait to be sent, which ones the server refused
// (with the appointment each is about), whether a 401 paused sending, and the choices for a refused
// change (docs/decisions/08-offline-pwa.md). Read live from the signed-in user's local store, so
// every tab shows the same list; Dexie is loaded lazily, like the store itself.
import { useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { createStore, useStore } from '../lib/store.ts';
import { offlineSession, type OfflineSession } from '../offline/session.ts';
import { outboxParts } from '../offline/outbox-parts.ts';
import { waitingNote, type WaitingNote } from '../offline/waiting-note.ts';
import { appointmentKeys } from './appointments.ts';
import type { LocalDb, OutboxEntry, Refusal, ServerAppointment } from '../offline/local-db.ts';

/** A change the server refused, waiting for the person to choose what to do with it. */
export interface RefusedChange {
  seq: number;
  kind: OutboxEntry['kind'];
  refusal: Refusal;
  /** The appointment as this device shows it (my version), else as it was before my change. */
  appointment?: Partial<ServerAppointment>;
  /** The appointment as the person saw it when making the change (updates and deletes). */
  before?: ServerAppointment;
  /** My later changes of the same appointment, held back until this one is settled. */
  heldBehind: number;
}

export interface OutboxView {
  /** Changes waiting to be sent. */
  pending: number;
  /** Some waiting change already failed to reach the server (no answer, or a server error). */
  retrying: boolean;
  refused: RefusedChange[];
  /** A 401 stopped sending until the same user signs in again. */
  paused: boolean;
}

const EMPTY: OutboxView = { pending: 0, retrying: false, refused: [], paused: false };

/** The outbox as the strip shows it, read in one go (exported for tests). */
export async function readOutbox(db: LocalDb): Promise<Omit<OutboxView, 'paused'>> {
  const entries = await db.outbox.orderBy('seq').toArray();
  const { waiting, held } = outboxParts(entries);
  const refusedEntries = entries.filter((e): e is OutboxEntry & { seq: number; refusal: Refusal } => e.state === 'refused' && !!e.refusal);
  const rows = await db.appointments.bulkGet(refusedEntries.map((e) => e.appointmentId));
  return {
    pending: waiting.length,
    retrying: waiting.some((e) => e.attempts > 0),
    refused: refusedEntries.map((e, i) => ({
      seq: e.seq,
      kind: e.kind,
      refusal: e.refusal,
      appointment: rows[i] ?? e.before ?? e.refusal.current ?? (e.payload as Partial<ServerAppointment> | undefined),
      before: e.before,
      heldBehind: held.filter((h) => h.appointmentId === e.appointmentId).length,
    })),
  };
}

const view = createStore<OutboxView>(EMPTY);
let watchers = 0;
let stopWatching: (() => void) | null = null;

/** Follows the current session's outbox table (liveQuery) and its paused flag. */
function watchSession(session: OfflineSession | null): () => void {
  view.set(EMPTY);
  if (!session) return () => undefined;
  let stopped = false;
  let unsubscribeQuery: (() => void) | null = null;
  let fromDb: Omit<OutboxView, 'paused'> = EMPTY;
  const publish = () => view.set({ ...fromDb, paused: session.outbox.status.get().paused });
  const unsubscribePaused = session.outbox.status.subscribe(publish);
  void import('dexie').then(({ liveQuery }) => {
    if (stopped) return;
    const subscription = liveQuery(() => readOutbox(session.db)).subscribe({
      next: (next) => {
        fromDb = next;
        publish();
      },
      error: () => undefined, // the database closed at sign-out
    });
    unsubscribeQuery = () => subscription.unsubscribe();
  });
  return () => {
    stopped = true;
    unsubscribePaused();
    unsubscribeQuery?.();
  };
}

function subscribe(listener: () => void): () => void {
  const unsubscribeView = view.subscribe(listener);
  if (watchers++ === 0) {
    let stopSession = watchSession(offlineSession.get());
    const unsubscribeSession = offlineSession.subscribe(() => {
      stopSession();
      stopSession = watchSession(offlineSession.get());
    });
    stopWatching = () => {
      unsubscribeSession();
      stopSession();
    };
  }
  return () => {
    unsubscribeView();
    if (--watchers === 0) {
      stopWatching?.();
      stopWatching = null;
    }
  };
}

/** Pending and refused counts and the paused flag; all zero while signed out or online-only. */
export function useOutboxStatus(): OutboxView {
  return useSyncExternalStore(subscribe, view.get, view.get);
}

/** The changes the server refused, oldest first, for the "Needs attention" list. */
export function useRefusedChanges(): RefusedChange[] {
  return useOutboxStatus().refused;
}

/** Changes waiting on this device for their author to sign in again (for the sign-in page); null when none. */
export function useWaitingForSignIn(): WaitingNote | null {
  return useStore(waitingNote);
}

/** Whether the signed-in user has a local store at all (staff, IndexedDB available). */
export function useHasOfflineSession(): boolean {
  return useStore(offlineSession) !== null;
}

function outbox() {
  const session = offlineSession.get();
  if (!session) throw new Error('No offline session');
  return session.outbox;
}

/** The choices for a refused change (docs/decisions/08-offline-pwa.md). */
export type Resolution =
  /** "Discard": drops my change. */
  | { choice: 'discard' }
  /** "Keep theirs": drops my change and my later changes of that appointment; shows the server's row. */
  | { choice: 'keepTheirs' }
  /** "Apply my change again": sends it over the server's newer version (412). */
  | { choice: 'applyAgain' }
  /** "Pick another time": sends it again with new times (409). */
  | { choice: 'pickAnotherTime'; times: { start_time: string; end_time: string } };

export async function resolveChange(seq: number, resolution: Resolution): Promise<void> {
  const box = outbox();
  if (resolution.choice === 'pickAnotherTime') await box.pickAnotherTime(seq, resolution.times);
  else if (resolution.choice === 'applyAgain') await box.applyAgain(seq);
  else if (resolution.choice === 'keepTheirs') await box.keepTheirs(seq);
  else await box.discard(seq);
}

/** resolveChange, then the calendar re-reads, so it shows the row the choice left. */
export function useResolveChange(): (seq: number, resolution: Resolution) => Promise<void> {
  const queryClient = useQueryClient();
  return async (seq, resolution) => {
    await resolveChange(seq, resolution);
    await queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
  };
}
