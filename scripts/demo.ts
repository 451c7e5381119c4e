// `npm run demo`: the product with a demo company (slug `demo`) and its logins printed.
import { connect, migrateToLatest } from '@bookwell/db';
import { loadConfigOrExit } from '../api/src/config.ts';
import { startServer } from '../api/src/bootstrap.ts';
import { seedDemo } from './lib/demo-seed.ts';

const config = loadConfigOrExit();
const database = connect(config.DATABASE_URL);
await migrateToLatest(database);
const { created, logins } = await seedDemo(database.db);
await database.close();

const running = await startServer(config);
const base = running.url.replace('127.0.0.1', 'localhost');
console.log(`\nBookwell demo ${created ? 'created' : 'already present'}: ${base}`);
console.log(`Public booking page: ${base}/public/booking/demo\n`);
console.log('Logins (password for all: demo1234):');
for (const l of logins) console.log(`  ${l.role.padEnd(12)} ${l.email}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
