// Migration 061 on every dialect: an appointment written with its service link moves its company's
// availability generation once (it moved twice before), every later change of its links still
// moves it, and down() puts the link's own triggers back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availabilityGeneration } from '../availability-generation.ts';
import { migrateToLatest, type DatabaseHandle } from '../connect.ts';
import { testDialects, type TestDatabase } from '../testing/index.ts';
import { databaseWithout, insertedId } from '../testing/migration-test.ts';
import { down, up } from './2026-11-30-061-one-bump-per-booking.ts';

const NAME = '2026-11-30-061-one-bump-per-booking';

describe.each(testDialects())(`migration ${NAME} on %s`, (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  let companyId: number;
  let services: number[];
  let hour = 8;

  /** How far one write moved the company's generation (the write in a transaction, as the API writes). */
  const moves = async (write: () => Promise<unknown>) => {
    const before = (await availabilityGeneration(h.db, companyId))!;
    await write();
    return (await availabilityGeneration(h.db, companyId))! - before;
  };
  /** A booking as the API writes it: the row with its copy of its services, then its link. */
  const book = () =>
    moves(() =>
      h.db.transaction().execute(async (trx) => {
        hour++;
        const id = await insertedId(trx, 'appointments', {
          company_id: companyId,
          start_time: new Date(Date.UTC(2027, 0, 1, hour)).toISOString(),
          end_time: new Date(Date.UTC(2027, 0, 1, hour, 30)).toISOString(),
          service_ids: String(services[0]),
        });
        await trx.insertInto('appointment_service_types').values({ appointment_id: id, service_type_id: services[0] }).execute();
        return id;
      }),
    );

  beforeAll(async () => {
    ({ database, h } = await databaseWithout(dialect, NAME));
    companyId = await insertedId(h.db, 'companies', { name: 'one bump', slug: `one-bump-${dialect}` });
    services = [];
    for (const name of ['a', 'b'])
      services.push(await insertedId(h.db, 'service_types', { company_id: companyId, name, duration_minutes: 30 }));
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  it('a booking moved the generation twice before, once after; a change of its links moves it; down() restores the two', async () => {
    expect(await book(), 'before the migration').toBe(2);
    const res = await migrateToLatest(h);
    if (res.error) throw res.error;
    expect(await book(), 'after').toBe(1);

    const id = (await h.db.selectFrom('appointments').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    const link = h.db.selectFrom('appointment_service_types').select('service_type_id').where('appointment_id', '=', id);
    expect(
      await moves(() =>
        h.db.insertInto('appointment_service_types').values({ appointment_id: id, service_type_id: services[1] }).execute(),
      ),
    ).toBe(1);
    expect(
      await moves(() =>
        h.db.deleteFrom('appointment_service_types').where('appointment_id', '=', id).where('service_type_id', '=', services[0]).execute(),
      ),
    ).toBe(1);
    expect(
      await moves(() =>
        h.db.updateTable('appointment_service_types').set({ service_type_id: services[0] }).where('appointment_id', '=', id).execute(),
      ),
    ).toBe(1);
    expect(await link.execute()).toEqual([{ service_type_id: services[0] }]);
    // The appointment's own changes still move it, once.
    expect(await moves(() => h.db.updateTable('appointments').set({ status: 'cancelled' }).where('id', '=', id).execute())).toBe(1);

    await down(h.db);
    expect(await book(), 'after down()').toBe(2);
    await up(h.db);
    expect(await book(), 'after up() again').toBe(1);
  });
});
