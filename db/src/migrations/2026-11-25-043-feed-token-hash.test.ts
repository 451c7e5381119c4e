// The calendar feed table of migration 043 on both databases (docs/decisions/24-calendar-feeds.md):
// one feed per staff member and one per company, token hashes unique, and down() puts the old shape back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { connect, migrateToLatest, type DatabaseHandle } from '../connect.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing/index.ts';
import { down, up } from './2026-11-25-043-feed-token-hash.ts';

describe.each(testDialects())('migration 2026-11-25-043-feed-token-hash on %s', (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  let companyA: number;
  let companyB: number;
  let person: number;
  let n = 0;

  const feed = (company_id: number, user_id: number | null) =>
    h.db
      .insertInto('calendar_feeds')
      .values({ company_id, user_id, nonce: `nonce-${++n}`, token_hash: `hash-${n}` })
      .execute();

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = connect(database.url);
    const res = await migrateToLatest(h);
    if (res.error) throw res.error;
    const company = async (slug: string) =>
      (
        await h.db
          .insertInto('companies')
          .values({ name: slug, slug } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    companyA = await company('feed-a');
    companyB = await company('feed-b');
    person = (
      await h.db
        .insertInto('users')
        .values({ company_id: companyA, name: 'Staff', email: 'staff@migration.test', role: 'employee' } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  it('allows one company feed per company and one feed per staff member', async () => {
    await feed(companyA, null);
    await feed(companyA, person);
    await feed(companyB, null);
    await expect(feed(companyA, null)).rejects.toThrow();
    await expect(feed(companyA, person)).rejects.toThrow();
    const rows = await h.db.selectFrom('calendar_feeds').select(['company_id', 'user_id']).execute();
    expect(rows).toHaveLength(3);
  });

  it('keeps token hashes unique', async () => {
    await expect(
      h.db.insertInto('calendar_feeds').values({ company_id: companyB, user_id: person, nonce: 'other', token_hash: 'hash-1' }).execute(),
    ).rejects.toThrow();
  });

  it('down() restores the plain-token table and up() the hashed one', async () => {
    const any = h.db as unknown as Kysely<any>; // the old shape is not in the schema types
    await down(any);
    const columns = async () =>
      (await any.introspection.getTables())
        .find((t) => t.name === 'calendar_feeds')!
        .columns.map((c) => c.name)
        .sort();
    expect(await columns()).toEqual(['company_id', 'created_at', 'id', 'token', 'user_id']);
    await up(any);
    expect(await columns()).toEqual(['company_id', 'created_at', 'id', 'nonce', 'token_hash', 'user_id']);
    await feed(companyA, null);
    await expect(feed(companyA, null)).rejects.toThrow();
  });
});
