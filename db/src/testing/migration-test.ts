// For a migration's own test: a fresh database at the schema as it was before that migration (every
// other migration applied, as a database that is ahead would have), to seed rows the migration
// rewrites; the test then runs migrateToLatest, which applies it as registered in migrations/index.ts.
import { Migrator, type Kysely } from 'kysely';
import { connect, type DatabaseHandle, type Dialect } from '../connect.ts';
import { migrations } from '../migrations/index.ts';
import type { Database } from '../schema.ts';
import { createTestDatabase, type TestDatabase } from './index.ts';

export async function databaseWithout(dialect: Dialect, name: string): Promise<{ database: TestDatabase; h: DatabaseHandle }> {
  if (!(name in migrations)) throw new Error(`no migration named ${name}`);
  const database = await createTestDatabase(dialect);
  const h = connect(database.url);
  const before = Object.fromEntries(Object.entries(migrations).filter(([n]) => n !== name));
  const migrator = new Migrator({ db: h.db, provider: { getMigrations: async () => before }, allowUnorderedMigrations: true });
  const res = await migrator.migrateToLatest();
  if (res.error) throw res.error;
  return { database, h };
}

/**
 * Inserts one row and answers its id. Migration tests write tables as they were at their migration,
 * which the schema's types (the latest shape) do not describe, hence the untyped handle.
 */
export async function insertedId(db: Kysely<Database>, table: string, values: Record<string, unknown>): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  const row = await (db as Kysely<any>).insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
  return row.id as number;
}
