// `npm run migrate`: brings the database named by DATABASE_URL (or DATA_DIR's SQLite file) up to date.
import { connect, migrateToLatest } from '@bookwell/db';
import { loadConfig } from '../api/src/config.ts';

const config = loadConfig();
const database = connect(config.DATABASE_URL);
const result = await migrateToLatest(database);
for (const r of result.results ?? []) console.log(`${r.status}: ${r.migrationName}`);
if (!result.results?.length) console.log(`${database.describe} is up to date`);
await database.close();
