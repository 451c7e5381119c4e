// Availability's generation reads (docs/decisions/28-availability-generation.md): whatever they
// share or skip, each call sees every commit made before it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, migrateToLatest, type DatabaseHandle } from './connect.ts';
import { availabilityGenerations } from './availability-generation.ts';
import { createTestDatabase, testDialects, type TestDatabase } from './testing/index.ts';

describe.each(testDialects())('generation reads on %s', (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  let other: DatabaseHandle;
  let sent: string[] = [];
  const companies: number[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = connect(database.url, { onRoundTrip: (text) => sent.push(text) });
    await migrateToLatest(h);
    other = connect(database.url);
    for (const name of ['one', 'two', 'three']) {
      const row = await h.db
        .insertInto('companies')
        .values({ name, slug: name } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      companies.push(Number(row.id));
    }
  });
  afterAll(async () => {
    await other.close();
    await h.close();
    await database.drop();
  });

  // Inside a transaction the generations are always read on their own: the reference.
  const direct = (id: number) => h.db.transaction().execute((tx) => availabilityGenerations(tx, id));

  it('answers calls made together with each company’s own generations', async () => {
    await other.db.updateTable('companies').set({ time_increment_minutes: 15 }).where('id', '=', companies[1]).execute();
    const expected = await Promise.all(companies.map(direct));
    sent = [];
    const ids = Array.from({ length: 20 }, (_, i) => (i % 4 === 3 ? 999_999 : companies[i % 4]));
    const answers = await Promise.all(ids.map((id) => availabilityGenerations(h.db, id)));
    expect(answers).toEqual(ids.map((id) => (id === 999_999 ? undefined : expected[companies.indexOf(id)])));
    // PostgreSQL: one statement for all twenty (the round trips counted are PostgreSQL's only).
    if (dialect === 'postgres') expect(sent.filter((text) => text.includes('availability_generations'))).toHaveLength(1);
  });

  it('sees every commit made before the call, whichever connection made it', async () => {
    const id = companies[0];
    let last = (await direct(id))!.availability;
    for (let i = 0; i < 10; i++) {
      await other.db
        .updateTable('companies')
        .set({ time_increment_minutes: 10 + i })
        .where('id', '=', id)
        .execute();
      const [seen, alsoSeen] = await Promise.all([availabilityGenerations(h.db, id), availabilityGenerations(h.db, id)]);
      expect(seen!.availability).toBeGreaterThan(last);
      expect(alsoSeen).toEqual(seen);
      last = seen!.availability;
    }
  });
});
