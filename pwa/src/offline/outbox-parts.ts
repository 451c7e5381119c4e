// The outbox as people read it (docs/decisions/08-offline-pwa.md). A refused change holds back the
// later changes of the same appointment, which were made on top of it: those are not "waiting to
// sync" (nothing sends them) but wait, like the refused change, for its author's choice. A module
// of its own, without Dexie, so the strip's data layer reads it without loading the outbox.
import type { OutboxEntry } from './local-db.ts';

type Entry = Pick<OutboxEntry, 'state' | 'appointmentId'>;

/** `entries` in the order the changes were made (by seq). */
export function outboxParts<E extends Entry>(entries: readonly E[]): { waiting: E[]; held: E[]; refused: E[] } {
  const parts = { waiting: [] as E[], held: [] as E[], refused: [] as E[] };
  const blocked = new Set<number>();
  for (const entry of entries) {
    if (entry.state === 'refused') {
      blocked.add(entry.appointmentId);
      parts.refused.push(entry);
    } else if (blocked.has(entry.appointmentId)) parts.held.push(entry);
    else parts.waiting.push(entry);
  }
  return parts;
}
