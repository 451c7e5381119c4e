// The E.164 migration on both databases: stored numbers are rewritten with their company's country
// (US without one), numbers that cannot be read are kept as typed, and large tables are done page by page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../connect.ts';
import { testDialects, type TestDatabase } from '../testing/index.ts';
import { databaseWithout } from '../testing/migration-test.ts';
import { e164Of } from './2026-11-25-042-phone-e164.ts';

const NAME = '2026-11-25-042-phone-e164';
const MANY = 1203; // more than two pages of 500

describe('e164Of', () => {
  it.each([
    ['(415) 555-2671', 'US', '+14155552671'],
    ['020 7946 0958', 'GB', '+442079460958'],
    ['+33 1 23 45 67 89', 'GB', '+33123456789'],
    ['415-555-2671', null, '+14155552671'],
    ['ask at desk', 'US', null],
    ['123', 'GB', null],
  ])('%j in %s -> %s', (typed, country, e164) => {
    expect(e164Of(typed, country)).toBe(e164);
  });
});

describe.each(testDialects())('migration %s on %s', (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ database, h } = await databaseWithout(dialect, NAME));

    const company = async (slug: string, country?: string) =>
      (
        await h.db
          .insertInto('companies')
          .values({ name: slug, slug, ...(country ? { country } : {}) } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const gb = await company('gb-salon', 'GB');
    const us = await company('us-salon'); // the column's default, US
    const fr = await company('fr-salon', 'FR');
    const person = async (key: string, companyId: number | null, phone: string | null, role = 'customer') => {
      ids[key] = (
        await h.db
          .insertInto('users')
          .values({ company_id: companyId, name: key, email: `${key}@migration.test`, phone, role } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    };
    await person('gbLocal', gb, '020 7946 0958');
    await person('gbForeign', gb, '+33 1 23 45 67 89');
    await person('usLocal', us, '(415) 555-2671');
    await person('frLocal', fr, '01 23 45 67 89');
    await person('note', us, 'ask at desk');
    await person('short', gb, '123');
    await person('none', gb, null);
    await person('already', fr, '+14155552671');
    await person('admin', null, '415-555-2671', 'global_admin');

    const appointment = async (key: string, companyId: number, phone: string | null) => {
      ids[key] = (
        await h.db
          .insertInto('appointments')
          .values({
            company_id: companyId,
            start_time: '2026-12-01T10:00:00.000Z',
            end_time: '2026-12-01T10:30:00.000Z',
            customer_phone: phone,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    };
    await appointment('apptGb', gb, '07700 900123');
    await appointment('apptFr', fr, '01 23 45 67 89');
    await appointment('apptNote', us, 'n/a');
    await appointment('apptNone', us, null);
    const rows = Array.from({ length: MANY }, (_, i) => ({
      company_id: us,
      start_time: '2026-12-02T10:00:00.000Z',
      end_time: '2026-12-02T10:30:00.000Z',
      customer_phone: `(415) 555-${String(1000 + (i % 9000)).padStart(4, '0')}`,
    }));
    for (let i = 0; i < rows.length; i += 400)
      await h.db
        .insertInto('appointments')
        .values(rows.slice(i, i + 400) as never)
        .execute();

    const res2 = await migrateToLatest(h); // runs this migration, as registered in index.ts
    expect(res2.results?.map((r) => [r.migrationName, r.status])).toEqual([[NAME, 'Success']]);
  });

  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  const phoneOf = async (id: number) =>
    (await h.db.selectFrom('users').select('phone').where('id', '=', id).executeTakeFirstOrThrow()).phone;
  const customerPhoneOf = async (id: number) =>
    (await h.db.selectFrom('appointments').select('customer_phone').where('id', '=', id).executeTakeFirstOrThrow()).customer_phone;

  it("rewrites people's numbers in E.164 with their company's country (US without a company)", async () => {
    expect(await phoneOf(ids.gbLocal)).toBe('+442079460958');
    expect(await phoneOf(ids.gbForeign)).toBe('+33123456789');
    expect(await phoneOf(ids.usLocal)).toBe('+14155552671');
    expect(await phoneOf(ids.frLocal)).toBe('+33123456789');
    expect(await phoneOf(ids.already)).toBe('+14155552671');
    expect(await phoneOf(ids.admin)).toBe('+14155552671');
  });

  it('keeps numbers it cannot read as they were, and no number as none', async () => {
    expect(await phoneOf(ids.note)).toBe('ask at desk');
    expect(await phoneOf(ids.short)).toBe('123');
    expect(await phoneOf(ids.none)).toBeNull();
  });

  it("rewrites appointments' customer_phone the same way, without raising their version", async () => {
    expect(await customerPhoneOf(ids.apptGb)).toBe('+447700900123');
    expect(await customerPhoneOf(ids.apptFr)).toBe('+33123456789');
    expect(await customerPhoneOf(ids.apptNote)).toBe('n/a');
    expect(await customerPhoneOf(ids.apptNone)).toBeNull();
    const versions = await h.db.selectFrom('appointments').select('version').distinct().execute();
    expect(versions).toEqual([{ version: 1 }]);
  });

  it('does every row of a table larger than one page', async () => {
    const left = await h.db
      .selectFrom('appointments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('start_time', '=', '2026-12-02T10:00:00.000Z')
      .where('customer_phone', 'not like', '+1415555%')
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    const done = await h.db
      .selectFrom('appointments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('customer_phone', 'like', '+1415555%')
      .executeTakeFirstOrThrow();
    expect(Number(done.n)).toBe(MANY);
  });
});
