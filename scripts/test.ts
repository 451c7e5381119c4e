// `npm test`: unit and API tests (SQLite, plus PostgreSQL when TEST_DATABASE_URL is set), then the
// browser end-to-end suite in Debian's Chromium. With CI=true a missing browser or database fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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
// Anything else narrows Vitest's run (file filters, `-t NAME`), as `npx vitest run` takes it.
const vitestFilters = args.filter((a) => a !== '--unit' && a !== '--e2e');
let failed = 0;
// Vitest also writes its results as JSON, so the names of failed tests can be repeated at the very
// end: a CI log is often read from its tail, and the browser suite prints pages after Vitest's.
const vitestDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bookwell-test-'));
const vitestJson = path.join(vitestDir, 'vitest.json');
const vitestFailures: string[] = [];
if (only !== '--e2e') {
  const status = run('npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestJson}`,
    ...vitestFilters,
  ]);
  if (status !== 0) {
    failed += 1;
    vitestFailures.push(...failedVitestTests(vitestJson));
  }
  fs.rmSync(vitestDir, { recursive: true, force: true });
}

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

if (vitestFailures.length) {
  console.log(`\nVitest failed (unit and API tests, above the browser suite):\n${vitestFailures.join('\n')}`);
}
console.log(failed ? '\nSome test suites failed.' : '\nAll test suites passed.');
process.exit(failed ? 1 : 0);

/** "file > test name: first line of the error" for each failed test, or the file when it failed to load. */
function failedVitestTests(file: string): string[] {
  type Report = {
    testResults?: {
      name: string;
      status: string;
      message?: string;
      assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
    }[];
  };
  let report: Report;
  try {
    report = JSON.parse(fs.readFileSync(file, 'utf8')) as Report;
  } catch {
    return ['  (Vitest wrote no results: read its output above)'];
  }
  const lines: string[] = [];
  for (const suite of report.testResults ?? []) {
    const where = path.relative(process.cwd(), suite.name);
    const tests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of tests) {
      const first = (t.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
      lines.push(`  ${where} > ${t.fullName}: ${first}`);
    }
    if (!tests.length && suite.status === 'failed') lines.push(`  ${where}: ${(suite.message ?? '').split('\n')[0].slice(0, 300)}`);
  }
  return lines.length ? lines : ['  (Vitest exited with an error but reported no failed test: read its output above)'];
}
