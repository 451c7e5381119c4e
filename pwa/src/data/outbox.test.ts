import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { putServerAppointment, type OutboxEntry } from '../offline/local-db.ts';
import { freshDb, outboxEntry, serverAppointment } from '../offline/testing/offline-fixtures.ts';
import { readOutbox } from './outbox.ts';

const NINE = '2026-11-24T09:00:00.000Z';
const TEN = '2026-11-24T10:00:00.000Z';

/** A queued update of appointment 1; the database numbers the entries. */
const entry = (over: Partial<OutboxEntry>): OutboxEntry => outboxEntry({ seq: undefined, appointmentId: 1, ...over });

describe('readOutbox', () => {
  it('is empty for an empty outbox', async () => {
    expect(await readOutbox(await freshDb())).toEqual({ pending: 0, retrying: false, refused: [] });
  });

  it('counts waiting changes, says whether one already failed to reach the server, and lists refusals with their appointment', async () => {
    const db = await freshDb();
    const mine = { ...serverAppointment(1, TEN), customer_name: 'Liam Smith' };
    const theirs = serverAppointment(1, NINE, 2);
    const deleted = serverAppointment(2, NINE);
    await putServerAppointment(db, mine);
    await db.outbox.bulkAdd([
      entry({ appointmentId: 3 }),
      entry({ appointmentId: 4, attempts: 2 }),
      entry({ appointmentId: 1, state: 'refused', refusal: { status: 412, current: theirs } }),
      entry({ kind: 'delete', appointmentId: 2, state: 'refused', before: { ...deleted, pending: 0 }, refusal: { status: 403 } }),
    ]);
    const view = await readOutbox(db);
    expect(view.pending).toBe(2);
    expect(view.retrying).toBe(true);
    expect(view.refused).toMatchObject([
      { kind: 'update', refusal: { status: 412 }, appointment: { id: 1, start_time: TEN, customer_name: 'Liam Smith' } },
      { kind: 'delete', refusal: { status: 403 }, appointment: { id: 2, start_time: NINE } },
    ]);
  });

  it("holds a refused change's later changes of the same appointment apart: not waiting to sync, counted on the refusal", async () => {
    const db = await freshDb();
    await db.outbox.bulkAdd([
      entry({ appointmentId: 1, state: 'refused', refusal: { status: 404 } }),
      entry({ appointmentId: 1 }),
      entry({ appointmentId: 1 }),
      entry({ appointmentId: 5 }),
    ]);
    const view = await readOutbox(db);
    expect(view.pending).toBe(1);
    expect(view.refused).toMatchObject([{ refusal: { status: 404 }, heldBehind: 2 }]);
  });

  it('is not retrying while no waiting change has failed yet', async () => {
    const db = await freshDb();
    await db.outbox.add(entry({}));
    expect(await readOutbox(db)).toMatchObject({ pending: 1, retrying: false });
  });
});
