import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDb, memoryLock, serverAppointment } from './testing/offline-fixtures.ts';
import { createChange, keepServerList, localAppointments } from './appointments-local.ts';
import { Outbox } from './outbox.ts';

const range = { start: '2026-11-24', end: '2026-11-24' };

describe("the calendar's local rows", () => {
  it('keeps the server list, and returns it with queued changes on top, marked pending (a delete marked deleting)', async () => {
    const db = await freshDb();
    await db.company.put({ id: 1, key: 'company:1', data: { id: 1, timezone: 'UTC' } });
    const a = serverAppointment(1, '2026-11-24T09:00:00.000Z');
    const b = serverAppointment(2, '2026-11-24T10:00:00.000Z');
    expect(await keepServerList(db, range, [a, b])).toEqual([a, b]);

    const outbox = new Outbox(db, { send: () => new Promise(() => undefined) }); // never started: nothing is sent
    await outbox.enqueue({ kind: 'update', appointmentId: 1, payload: { description: 'mine' }, row: { description: 'mine' } });
    await outbox.enqueue({ kind: 'delete', appointmentId: 2 });
    const id = await outbox.enqueue(await createChange(db, { start_time: '2026-11-24T08:00:00.000Z', description: 'new' }, 1));

    const shown = await keepServerList(db, range, [a, b]);
    expect(shown.map((r) => [r.id, r.description, r.pending ?? false, r.deleting ?? false])).toEqual([
      [id, 'new', true, false],
      [1, 'mine', true, false],
      [2, b.description, true, true],
    ]);
    expect((await localAppointments(db, range)).map((r) => [r.id, r.pending ?? false, r.deleting ?? false])).toEqual([
      [id, true, false],
      [1, true, false],
      [2, true, true],
    ]);
    expect(await localAppointments(db, { start: '2026-11-25', end: '2026-11-25' })).toEqual([]);
  });

  it('a change queued while an online read is being kept stays on top, its row never overwritten by the older server one', async () => {
    const db = await freshDb();
    await db.company.put({ id: 1, key: 'company:1', data: { id: 1, timezone: 'UTC' } });
    const a = serverAppointment(1, '2026-11-24T09:00:00.000Z');
    await keepServerList(db, range, [a]);
    const outbox = new Outbox(db, { send: () => new Promise(() => undefined) }); // never started: nothing is sent
    // The calendar's refetch answered with the server's row just as the person saves an edit offline.
    const kept = keepServerList(db, range, [a]);
    const queued = outbox.enqueue({ kind: 'update', appointmentId: 1, payload: { description: 'mine' }, row: { description: 'mine' } });
    await Promise.all([kept, queued]);
    expect((await localAppointments(db, range)).map((r) => [r.id, r.description, r.pending ?? false])).toEqual([[1, 'mine', true]]);
    expect((await keepServerList(db, range, [a])).map((r) => [r.id, r.description, r.pending ?? false])).toEqual([[1, 'mine', true]]);
  });

  it('marks the row of a refused change as needing attention, and drops the mark after the choice', async () => {
    const db = await freshDb();
    await db.company.put({ id: 1, key: 'company:1', data: { id: 1, timezone: 'UTC' } });
    const a = serverAppointment(1, '2026-11-24T09:00:00.000Z');
    await keepServerList(db, range, [a]);
    const outbox = new Outbox(db, { send: async () => ({ ok: false, status: 409, code: 'slot_taken' }), lock: memoryLock() });
    await outbox.enqueue({ kind: 'update', appointmentId: 1, payload: { description: 'mine' }, row: { description: 'mine' } });
    const marks = async () => (await localAppointments(db, range)).map((r) => [r.id, r.pending ?? false, r.needsAttention ?? false]);
    expect(await marks()).toEqual([[1, true, false]]);

    await outbox.start();
    expect(outbox.status.get().refused).toHaveLength(1);
    expect(await marks()).toEqual([[1, true, true]]);
    expect((await keepServerList(db, range, [a])).map((r) => r.needsAttention)).toEqual([true]);

    await outbox.discard(outbox.status.get().refused[0].seq!);
    outbox.stop();
    expect(await marks()).toEqual([[1, false, false]]);
  });
});
