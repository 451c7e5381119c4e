// The services' copy of migration 059 on both databases: appointments.service_ids equals the
// appointment's links whoever writes them (availability reads it instead of the links, so a stale
// copy would offer a slot that is taken), up() fills it for the appointments already there, and
// down() puts the old shape back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { connect, migrateToLatest, type DatabaseHandle } from '../connect.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing/index.ts';
import { insertedId } from '../testing/migration-test.ts';
import { down, up } from './2026-11-28-059-appointment-service-ids.ts';
import * as oneBump from './2026-11-30-061-one-bump-per-booking.ts';

describe.each(testDialects())('migration 2026-11-28-059-appointment-service-ids on %s', (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  let companyId: number;
  const services: number[] = [];
  let hour = 0;

  const appointment = (serviceIds: string | null = null) =>
    insertedId(h.db, 'appointments', {
      company_id: companyId,
      start_time: new Date(Date.UTC(2027, 0, 1, hour)).toISOString(),
      end_time: new Date(Date.UTC(2027, 0, 1, ++hour)).toISOString(),
      ...(serviceIds === null ? {} : { service_ids: serviceIds }),
    });
  const link = (appointment_id: number, ...ids: number[]) =>
    h.db
      .insertInto('appointment_service_types')
      .values(ids.map((service_type_id) => ({ appointment_id, service_type_id })))
      .execute();
  /** Changes one link in place (its appointment or its service). */
  const moveLink = (appointmentId: number, serviceTypeId: number, to: { appointment_id?: number; service_type_id?: number }) =>
    h.db
      .updateTable('appointment_service_types')
      .set(to)
      .where('appointment_id', '=', appointmentId)
      .where('service_type_id', '=', serviceTypeId)
      .execute();
  const copy = async (id: number) =>
    (await h.db.selectFrom('appointments').select('service_ids').where('id', '=', id).executeTakeFirstOrThrow()).service_ids;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = connect(database.url);
    const res = await migrateToLatest(h);
    if (res.error) throw res.error;
    companyId = await insertedId(h.db, 'companies', { name: 'copy', slug: 'copy' });
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'])
      services.push(await insertedId(h.db, 'service_types', { company_id: companyId, name, duration_minutes: 60 }));
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  it('follows the links as they are added, changed, moved and removed, ids ascending', async () => {
    const [s1, s2, , , , , , , , , , s12] = services;
    const a = await appointment();
    expect(await copy(a)).toBeNull();
    await link(a, s12);
    expect(await copy(a)).toBe(`${s12}`);
    await link(a, s2, s1);
    expect(await copy(a)).toBe(`${s1},${s2},${s12}`); // numeric order: 12 after 2
    await h.db.deleteFrom('appointment_service_types').where('appointment_id', '=', a).where('service_type_id', '=', s2).execute();
    expect(await copy(a)).toBe(`${s1},${s12}`);
    await moveLink(a, s12, { service_type_id: s2 });
    expect(await copy(a)).toBe(`${s1},${s2}`);
    const b = await appointment();
    await moveLink(a, s1, { appointment_id: b });
    expect([await copy(a), await copy(b)]).toEqual([`${s2}`, `${s1}`]);
    await h.db.deleteFrom('appointment_service_types').where('appointment_id', 'in', [a, b]).execute();
    expect([await copy(a), await copy(b)]).toEqual([null, null]);
  });

  it('corrects a copy written wrong with the appointment, and leaves a right one unwritten', async () => {
    const [s1, s2, s3] = services;
    const wrong = await appointment(`${s3}`);
    await link(wrong, s1, s2);
    expect(await copy(wrong)).toBe(`${s1},${s2}`);
    const right = await appointment(`${s1},${s2}`);
    if (dialect === 'postgres') {
      // A row version made by the link's transaction would mean the trigger rewrote the row.
      const version = () => sql<{ xmin: string }>`select xmin::text as xmin from appointments where id = ${right}`.execute(h.db);
      const before = (await version()).rows[0].xmin;
      await link(right, s1, s2);
      expect((await version()).rows[0].xmin).toBe(before);
    } else await link(right, s1, s2);
    expect(await copy(right)).toBe(`${s1},${s2}`);
  });

  it('up() fills the copy of the appointments already there; down() removes it', async () => {
    const any = h.db as unknown as Kysely<any>; // the old shape is not in the schema types
    const [s1, s2, s3] = services;
    // Migration 061's trigger watches the column: undone first and redone after, as a migrator would.
    await oneBump.down(any);
    await down(any);
    const columns = async () => (await any.introspection.getTables()).find((t) => t.name === 'appointments')!.columns.map((c) => c.name);
    expect(await columns()).not.toContain('service_ids');
    const two = await appointment();
    await link(two, s3, s1);
    const none = await appointment();
    await up(any);
    await oneBump.up(any);
    expect(await columns()).toContain('service_ids');
    expect([await copy(two), await copy(none)]).toEqual([`${s1},${s3}`, null]);
    await link(none, s2);
    expect(await copy(none)).toBe(`${s2}`);
  });
});
