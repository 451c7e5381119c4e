// Migration 062 on every dialect: without service_bookings' own foreign keys on PostgreSQL, the copy
// availability reads still never holds a row its link does not: removing an appointment, a service
// or a whole company takes the copy with it, and a link to an appointment or a service that does not
// exist is still refused, leaving no copy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest, type DatabaseHandle } from '../connect.ts';
import { testDialects, type TestDatabase } from '../testing/index.ts';
import { databaseWithout, insertedId } from '../testing/migration-test.ts';
import { down, up } from './2026-11-30-062-service-bookings-keys.ts';

const NAME = '2026-11-30-062-service-bookings-keys';

describe.each(testDialects())(`migration ${NAME} on %s`, (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  let hour = 8;

  /** A company with two services and an appointment booked with both. */
  async function booked(slug: string) {
    const companyId = await insertedId(h.db, 'companies', { name: slug, slug: `${slug}-${dialect}` });
    const services = [
      await insertedId(h.db, 'service_types', { company_id: companyId, name: 'a', duration_minutes: 30 }),
      await insertedId(h.db, 'service_types', { company_id: companyId, name: 'b', duration_minutes: 30 }),
    ];
    hour++;
    const appointmentId = await insertedId(h.db, 'appointments', {
      company_id: companyId,
      start_time: new Date(Date.UTC(2027, 0, 1, hour)).toISOString(),
      end_time: new Date(Date.UTC(2027, 0, 1, hour, 30)).toISOString(),
    });
    await h.db
      .insertInto('appointment_service_types')
      .values(services.map((service_type_id) => ({ appointment_id: appointmentId, service_type_id })))
      .execute();
    return { companyId, services, appointmentId };
  }
  /** Every copy that is not exactly a link with its appointment's times (none, always). */
  const strays = async () =>
    (
      await sql<{ n: number }>`select count(*) as n from service_bookings s
        where not exists (select 1 from appointment_service_types x join appointments a on a.id = x.appointment_id
          where x.appointment_id = s.appointment_id and x.service_type_id = s.service_type_id
            and a.start_time = s.start_time and a.end_time = s.end_time and a.status = s.status)`.execute(h.db)
    ).rows[0].n;
  const copies = async (appointmentId: number) =>
    (await h.db.selectFrom('service_bookings').select('service_type_id').where('appointment_id', '=', appointmentId).execute()).length;
  const keys = async () =>
    dialect === 'postgres'
      ? (
          await sql<{ n: number }>`select count(*)::int as n from pg_constraint
            where conrelid = 'service_bookings'::regclass and contype = 'f'`.execute(h.db)
        ).rows[0].n
      : null;

  beforeAll(async () => {
    ({ database, h } = await databaseWithout(dialect, NAME));
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  it('removing an appointment, a service or a company takes the copy with it; a link to nothing is refused', async () => {
    if (dialect === 'postgres') expect(await keys(), 'before').toBe(2);
    const res = await migrateToLatest(h);
    if (res.error) throw res.error;
    if (dialect === 'postgres') expect(await keys(), 'after').toBe(0);

    const first = await booked('first');
    expect(await copies(first.appointmentId)).toBe(2);
    await h.db.deleteFrom('service_types').where('id', '=', first.services[0]).execute();
    expect(await copies(first.appointmentId), 'a service removed').toBe(1);
    await h.db.deleteFrom('appointments').where('id', '=', first.appointmentId).execute();
    expect(await copies(first.appointmentId), 'its appointment removed').toBe(0);

    const second = await booked('second');
    await h.db.deleteFrom('companies').where('id', '=', second.companyId).execute();
    expect(await copies(second.appointmentId), 'its company removed').toBe(0);

    const third = await booked('third');
    const link = (appointment_id: number, service_type_id: number) =>
      h.db.insertInto('appointment_service_types').values({ appointment_id, service_type_id }).execute();
    await expect(link(999_999, third.services[0]), 'no such appointment').rejects.toThrow(/foreign key/i);
    await expect(link(third.appointmentId, 999_999), 'no such service').rejects.toThrow(/foreign key/i);
    expect(await copies(999_999)).toBe(0);
    expect(await copies(third.appointmentId)).toBe(2);
    expect(await strays()).toBe(0);

    await down(h.db);
    if (dialect === 'postgres') expect(await keys(), 'after down()').toBe(2);
    await up(h.db);
    if (dialect === 'postgres') expect(await keys(), 'after up() again').toBe(0);
  });
});
