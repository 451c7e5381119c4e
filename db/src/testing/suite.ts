// One fresh, migrated database for a describe block of the db package's own tests (vitest's hooks):
// created and migrated before its tests, closed and dropped after them.
import { afterAll, beforeAll } from 'vitest';
import { connect, migrateToLatest, type ConnectOptions, type DatabaseHandle, type Dialect } from '../connect.ts';
import { createTestDatabase, type TestDatabase } from './index.ts';

export interface SuiteDatabase {
  /** The open handle (from the describe block's beforeAll on). */
  h: DatabaseHandle;
  database: TestDatabase;
}

export function databaseForSuite(dialect: Dialect, options: ConnectOptions = {}): SuiteDatabase {
  const suite = {} as SuiteDatabase;
  beforeAll(async () => {
    suite.database = await createTestDatabase(dialect);
    suite.h = connect(suite.database.url, options);
    await migrateToLatest(suite.h);
  });
  afterAll(async () => {
    await suite.h.close();
    await suite.database.drop();
  });
  return suite;
}
