// `npm test`: unit and API tests (SQLite, plus PostgreSQL when TEST_DATABASE_URL is set), then the
// browser end-to-end suite in Debian's Chromium. With CI=true a missing browser or database fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const problems: string[] = [];

function run(cmd: string, args: string[], env: Record<string, string> = {}): number {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

if (!process.env.TEST_DATABASE_URL) {
  const msg = 'TEST_DATABASE_URL is not set: the API suite runs on SQLite only (set it to a PostgreSQL URL to run it on both).';
  if (ci) problems.push(msg);
  else console.log(`NOTE: ${msg}`);
}
if (problems.length) {
  console.error(`CI=true and: ${problems.join(' ')}`);
  process.exit(1);
}

const args = process.argv.slice(2);
const only = args.find((a) => a === '--unit' || a === '--e2e');
let failed = 0;
if (only !== '--e2e') failed += run('npx', ['vitest', 'run'], {}) === 0 ? 0 : 1;

if (only !== '--unit') {
  if (!fs.existsSync(chromium)) {
    const msg = `Chromium was not found at ${chromium}: the browser end-to-end tests did NOT run (install it with 'apt-get install -y chromium').`;
    if (ci) {
      console.error(`FAIL: ${msg}`);
      failed += 1;
    } else {
      console.log(`\nSKIPPED: ${msg}`);
    }
  } else {
    failed += run('npx', ['playwright', 'test', '-c', 'pwa/playwright.config.ts'], { CHROMIUM_PATH: chromium }) === 0 ? 0 : 1;
  }
}

console.log(failed ? '\nSome test suites failed.' : '\nAll test suites passed.');
process.exit(failed ? 1 : 0);
