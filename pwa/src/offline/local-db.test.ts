import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  appointmentsBetween,
  applySyncPage,
  clearCachedData,
  getMeta,
  localDbName,
  openLocalDb,
  putCachedRows,
  putServerAppointment,
  readSyncState,
  requestPersistentStorage,
  setSyncWindow,
} from './local-db.ts';
import { freshDb, serverAppointment } from './testing/offline-fixtures.ts';

describe('local store', () => {
  it('keeps one database per user, so two people on one tablet never share data', async () => {
    expect(localDbName(1)).not.toBe(localDbName(2));
    const ada = await openLocalDb(1);
    const bea = await openLocalDb(2);
    await putServerAppointment(ada, serverAppointment(5, '2026-11-24T09:00:00.000Z'));
    expect(await bea.appointments.count()).toBe(0);
    ada.close();
    bea.close();
  });

  it('applies a sync page (upserts and tombstones) with its cursor', async () => {
    const db = await freshDb();
    await putServerAppointment(db, serverAppointment(1, '2026-11-24T09:00:00.000Z'));
    await putServerAppointment(db, serverAppointment(2, '2026-11-24T10:00:00.000Z'));
    await applySyncPage(
      db,
      {
        changes: [
          { op: 'upsert', appointment: serverAppointment(1, '2026-11-24T11:00:00.000Z', 2) },
          { op: 'delete', id: 2 },
          { op: 'upsert', appointment: serverAppointment(3, '2026-11-25T09:00:00.000Z') },
        ],
        cursor: 'c-2',
        has_more: false,
      },
      42,
    );
    expect(await db.appointments.get(1)).toMatchObject({ start_time: '2026-11-24T11:00:00.000Z', version: 2, pending: 0 });
    expect(await db.appointments.get(2)).toBeUndefined();
    await setSyncWindow(db, { from: '2026-10-25T00:00:00.000Z', to: '2027-02-22T00:00:00.000Z' });
    expect(await readSyncState(db)).toEqual({
      cursor: 'c-2',
      lastSyncAt: 42,
      window: { from: '2026-10-25T00:00:00.000Z', to: '2027-02-22T00:00:00.000Z' },
    });
  });

  it('does not let a sync page overwrite or remove a row with a queued change', async () => {
    const db = await freshDb();
    await db.appointments.put({ ...serverAppointment(1, '2026-11-24T12:00:00.000Z'), pending: 1 });
    await db.outbox.add({
      kind: 'update',
      appointmentId: 1,
      idempotencyKey: 'k',
      ifMatch: 1,
      attempts: 0,
      nextAttemptAt: 0,
      state: 'queued',
    });
    await db.outbox.add({
      kind: 'delete',
      appointmentId: 2,
      idempotencyKey: 'k2',
      ifMatch: 1,
      attempts: 0,
      nextAttemptAt: 0,
      state: 'queued',
    });
    await applySyncPage(db, {
      changes: [
        { op: 'upsert', appointment: serverAppointment(1, '2026-11-24T08:00:00.000Z', 2) },
        { op: 'upsert', appointment: serverAppointment(2, '2026-11-24T08:00:00.000Z', 2) },
      ],
      cursor: 'c',
      has_more: false,
    });
    expect(await db.appointments.get(1)).toMatchObject({ start_time: '2026-11-24T12:00:00.000Z', pending: 1 });
    expect(await db.appointments.get(2)).toBeUndefined();
  });

  it('reads the appointments of a window in start order', async () => {
    const db = await freshDb();
    await putServerAppointment(db, serverAppointment(1, '2026-11-26T09:00:00.000Z'));
    await putServerAppointment(db, serverAppointment(2, '2026-11-24T09:00:00.000Z'));
    await putServerAppointment(db, serverAppointment(3, '2026-12-01T09:00:00.000Z'));
    const week = await appointmentsBetween(db, '2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z');
    expect(week.map((a) => a.id)).toEqual([2, 1]);
  });

  it('clears the cached data at sign-out but keeps the outbox and its temporary id counter', async () => {
    const db = await freshDb();
    await putServerAppointment(db, serverAppointment(1, '2026-11-24T09:00:00.000Z'));
    await putCachedRows(db, 'users', [{ id: 3, name: 'Bea' }]);
    await putCachedRows(db, 'company', [{ id: 1, name: 'Salon' }]);
    await db.meta.bulkPut([
      { key: 'cursor', value: 'c' },
      { key: 'nextTempId', value: -4 },
    ]);
    await db.outbox.add({
      kind: 'delete',
      appointmentId: 1,
      idempotencyKey: 'k',
      ifMatch: 1,
      attempts: 0,
      nextAttemptAt: 0,
      state: 'queued',
    });
    await clearCachedData(db);
    expect(await db.appointments.count()).toBe(0);
    expect(await db.users.count()).toBe(0);
    expect(await db.company.count()).toBe(0);
    expect(await getMeta(db, 'cursor')).toBeUndefined();
    expect(await getMeta(db, 'nextTempId')).toBe(-4);
    expect(await db.outbox.count()).toBe(1);
  });

  it('replaces a cached table with the server list', async () => {
    const db = await freshDb();
    await putCachedRows(db, 'services', [
      { id: 1, name: 'Cut' },
      { id: 2, name: 'Dye' },
    ]);
    await putCachedRows(db, 'services', [{ id: 2, name: 'Colour' }]);
    expect(await db.services.toArray()).toEqual([{ id: 2, name: 'Colour' }]);
  });

  it('asks for persistent storage only where the browser offers it', async () => {
    expect(await requestPersistentStorage()).toBe(false);
  });
});
