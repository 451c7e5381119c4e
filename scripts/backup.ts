// `npm run backup -- <file>`: a consistent copy of the SQLite database named by DATABASE_URL (or
// DATA_DIR), taken while the server runs. PostgreSQL is backed up with pg_dump (see the README).
import { isPostgresUrl, sqlitePathFromUrl } from '@bookwell/db';
import { loadConfig } from '../api/src/config.ts';
import { backupSqlite } from './lib/sqlite-backup.ts';

const target = process.argv[2];
if (!target) {
  console.error('Usage: npm run backup -- <file>   (for example: npm run backup -- backups/bookwell-$(date +%F).db)');
  process.exit(2);
}
const config = loadConfig();
if (isPostgresUrl(config.DATABASE_URL)) {
  console.error(
    'DATABASE_URL is PostgreSQL: back it up with pg_dump (README, "Backups"), for example:\n  pg_dump --format=custom --file=bookwell.dump "$DATABASE_URL"',
  );
  process.exit(2);
}
const source = sqlitePathFromUrl(config.DATABASE_URL);
if (source === ':memory:') {
  console.error('DATABASE_URL is an in-memory database: there is nothing to back up');
  process.exit(2);
}
try {
  const r = await backupSqlite(source, target);
  console.log(`backed up ${source} to ${r.file} (${r.pages} pages, ${r.bytes} bytes, ${r.ms} ms); integrity check ok`);
} catch (err) {
  console.error(`backup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
