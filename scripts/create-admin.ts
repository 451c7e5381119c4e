// `npm run create-admin -- email password`: creates a global administrator (or leaves an existing email alone).
import { connect, migrateToLatest } from '@bookwell/db';
import { loadConfig } from '../api/src/config.ts';
import { ensureGlobalAdmin } from '../api/src/bootstrap.ts';
import { createLogger } from '../api/src/lib/logger.ts';

const [email, password] = process.argv.slice(2);
if (!email || !password || password.length < 6) {
  console.error('usage: npm run create-admin -- <email> <password (6+ characters)>');
  process.exit(2);
}
const config = loadConfig();
const database = connect(config.DATABASE_URL);
await migrateToLatest(database);
await ensureGlobalAdmin(database, email, password, createLogger('info'));
await database.close();
