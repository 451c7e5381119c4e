// `npm run bench:offline`: issue 11's offline measurements (docs/decisions/08-offline-pwa.md), in
// Debian's Chromium driven by Playwright, against the production build of the PWA served by the
// real server (the built bundle, as `npm start` runs it) on a fresh SQLite database:
//
// 1. offline reload: with 5,000 appointments in the local window (10,000 in the store), the API
//    cut, the time from navigation start to the week's appointments drawn (goal: at most 1 s);
// 2. catch-up: 10,000 appointments changed on the server, the time from the catch-up trigger until
//    the local store holds them all (goal: at most 5 s);
// 3. outbox: 200 edits queued offline, the time from reconnecting until the outbox is empty, then
//    each edit checked through the API to be applied exactly once (goal: at most 10 s).
//
// Prints one JSON document and writes it under bench/results/ (like scripts/bench.ts).
//
//   npm run bench:offline                        builds the PWA into a temporary folder
//   npm run bench:offline -- --dist /tmp/x-dist  uses a PWA already built there
//   npm run bench:offline -- --runs 10           offline reloads to time (default 5)
//   BENCH_DEBUG=1 npm run bench:offline          also logs the page's requests and console
//   BENCH_PROFILE=1 npm run bench:offline        also logs the renderer's busiest functions while the outbox drains
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { chromium, type Page } from '@playwright/test';
import { connect, migrateToLatest } from '@bookwell/db';
import { spawnServer } from '../api/src/testing/process.ts';
import { buildServer } from '../api/src/build/server-bundle.ts';
import { seedOfflineCompany } from './lib/offline-bench-seed.ts';
import { loadAverage, machineInfo, referenceMs } from './lib/machine.ts';
import {
  drawnCount,
  drawnTimer,
  queueEdits,
  readStore,
  reloadMarks,
  timeCatchUp,
  timeDrain,
  type StoreState,
} from './lib/offline-bench-browser.ts';

const args = process.argv.slice(2);
const argValue = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const runs = Number(argValue('--runs') ?? 5);
const WINDOW = 5_000;
const WEEK = 150;
const HISTORY = 5_000;
const EDITS = 200;
const GOALS = { offline_reload_ms: 1_000, catch_up_ms: 5_000, outbox_drain_ms: 10_000 };
const API = '**/api/**';
const root = path.join(import.meta.dirname, '..');
/** Chromium's flags as the browser suite passes them (pwa/playwright.config.ts, outside this project's files). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

const log = (msg: string) => console.error(`[bench:offline] ${msg}`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x: number) => Math.round(x);

/** BENCH_PROFILE=1: the renderer's busiest functions (self time) while the outbox drains. */
function logProfile(profile: {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  const busy = [...self].filter(([name]) => !name.startsWith('(idle)')).reduce((sum, [, ms]) => sum + ms, 0);
  log(`profile: renderer busy ${Math.round(busy)} ms`);
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) log(`profile ${Math.round(ms)} ms  ${name}`);
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// The PWA's production build (vite build gives it whatever NODE_ENV says; issue 11 point 4).
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-bench-offline-'));
let dist = argValue('--dist');
if (!dist) {
  dist = path.join(tmp, 'dist');
  log(`building the PWA into ${dist}`);
  execFileSync('npm', ['run', 'build', '-w', 'pwa', '--', '--outDir', dist, '--emptyOutDir'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
// The server bundle beside api/dist/server.mjs (it finds package.json and node_modules from there),
// under its own name so a concurrent `npm run build` is not disturbed.
const bundle = await buildServer(path.join(root, 'api', 'dist', 'bench-offline-server.mjs'));

const url = `file:${path.join(tmp, 'offline.db')}`;
const h = connect(url);
await migrateToLatest(h);
log(`seeding ${WINDOW + HISTORY} appointments`);
const world = await seedOfflineCompany(h, { window: WINDOW, week: WEEK, history: HISTORY }, new Date());
const server = await spawnServer(
  {
    DATABASE_URL: url,
    PWA_DIST: dist,
    LOG_LEVEL: 'error',
    DISABLE_SCHEDULER: 'true',
    RATE_LIMIT_PUBLIC: '100000000',
    RATE_LIMIT_AVAILABILITY: '100000000',
  },
  60_000,
  [],
  bundle,
);
log(`server up at ${server.url}`);

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
// Service workers allowed: the offline reload takes the app shell from the precache, as on a tablet.
const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
const page = await context.newPage();
if (process.env.BENCH_DEBUG) {
  // Where a slow run spends its time: every request with its timing, failures and console lines.
  const t = () => new Date().toISOString().slice(17, 23);
  page.on('request', (r) => console.error(t(), 'REQ', r.method(), r.url().slice(0, 120), r.serviceWorker() ? 'sw' : ''));
  page.on('requestfinished', (r) => console.error(t(), 'FIN', r.url().slice(0, 120), JSON.stringify(r.timing())));
  page.on('requestfailed', (r) => console.error(t(), 'FAIL', r.url().slice(0, 120), r.failure()?.errorText));
  page.on('console', (m) => console.error(t(), 'CONSOLE', m.text().slice(0, 200)));
  page.on('framenavigated', (f) => console.error(t(), 'NAV', f.url()));
}
const dbName = `bookwell-${world.adminId}`;
const calendarUrl = `/calendar?view=week&date=${world.today}`;
let refused = 0;
const cutApi = () => page.route(API, (route) => ((refused += 1), route.abort('internetdisconnected')));
const restoreApi = () => page.unroute(API);
const store = async (p: Page) => (await p.evaluate(readStore(dbName))) as StoreState | null;

let report: Record<string, unknown>;
// The figures move with whatever else runs on the machine: the report keeps the load around them.
const loadBefore = loadAverage(1)[0];
// The machine's speed before the load (scripts/lib/machine.ts), as the other benchmarks measure it.
referenceMs();
try {
  // Online once: sign in (the token where the app keeps it), open the week, wait for the first catch-up.
  await page.goto('/faq');
  await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(world.token)})`);
  const t0 = Date.now();
  await page.goto(calendarUrl);
  log('calendar opened online; waiting for the first catch-up');
  const synced = await until('the first catch-up', async () => {
    const s = await store(page);
    return s && s.appointments === world.total && s.cursor !== null && !s.cursor.startsWith('snapshot') && s;
  });
  const firstSyncMs = Date.now() - t0;
  const drawnOnline = await until('the week drawn online', async () => {
    const n = (await page.evaluate(drawnCount)) as number;
    return n >= world.weekCount && n;
  });
  log('first catch-up done; waiting for the service worker');
  // The offline reloads take the shell from the service worker's precache: wait until it is active.
  const swActive = await page.evaluate(
    `Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise((r) => setTimeout(() => r(false), 60000))])`,
  );
  if (!swActive) log('the service worker did not become active: the offline reloads get the shell from the server');
  log(`online: ${synced.appointments} appointments stored in ${firstSyncMs} ms, ${drawnOnline} drawn in the week`);

  // 1. Offline reloads of the week.
  await context.addInitScript(drawnTimer(world.weekCount));
  await cutApi();
  const reloads: Record<string, unknown>[] = [];
  // A function, not a string: the app's CSP forbids evaluating strings (docs/decisions/30-csp-and-small-public-pages.md).
  const drawnAt = () => (globalThis as unknown as { __benchDrawnAt?: number }).__benchDrawnAt;
  for (let i = 0; i < runs; i++) {
    const before = refused;
    await page.goto(calendarUrl, { waitUntil: 'commit' });
    const ms = (await (await page.waitForFunction(drawnAt, undefined, { timeout: 60_000 })).jsonValue()) as number;
    const controlled = (await page.evaluate('navigator.serviceWorker.controller !== null')) as boolean;
    const marks = (await page.evaluate(reloadMarks)) as Record<string, number | null>;
    reloads.push({ ms: round(ms), ...marks, controlled, api_requests_refused: refused - before });
    log(`offline reload ${i + 1}: ${round(ms)} ms`);
  }
  if (process.env.BENCH_PROFILE) {
    // One more reload, not counted, under the profiler: where the renderer's time goes before the week is drawn.
    const profiler = await context.newCDPSession(page);
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
    await profiler.send('Profiler.start');
    await page.goto(calendarUrl, { waitUntil: 'commit' });
    await page.waitForFunction(drawnAt, undefined, { timeout: 60_000 });
    log('profile of an offline reload:');
    logProfile((await profiler.send('Profiler.stop')).profile);
    await profiler.detach();
  }
  const reloadMs = reloads.map((r) => r.ms as number);

  // 2. Catch-up of 10,000 changed appointments. Back online first, synced to the newest cursor.
  await restoreApi();
  await page.goto(calendarUrl);
  await until('the week drawn again online', async () => ((await page.evaluate(drawnCount)) as number) >= world.weekCount);
  await until('no catch-up pending', async () => (await store(page))?.cursor === synced.cursor);
  // Written as the API's writes are (booking-transaction.service.ts): each change bumps the
  // version and appends a sync_changes row. One transaction; nothing else writes meanwhile, which
  // is what the company lock guarantees the API's writers.
  const changedAt = new Date().toISOString();
  let lastChange = 0;
  await h.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('appointments')
      .set((eb) => ({ description: sql<string>`'Changed ' || id`, version: eb('version', '+', 1), updated_at: changedAt }))
      .where('company_id', '=', world.companyId)
      .execute();
    const ids = await trx.selectFrom('appointments').select('id').where('company_id', '=', world.companyId).orderBy('id').execute();
    for (let i = 0; i < ids.length; i += 500) {
      const out = await trx
        .insertInto('sync_changes')
        .values(
          ids
            .slice(i, i + 500)
            .map((r) => ({ company_id: world.companyId, appointment_id: r.id, op: 'upsert' as const, created_at: changedAt })),
        )
        .returning('id')
        .execute();
      lastChange = out[out.length - 1].id;
    }
  });
  let syncRequests = 0;
  const countSync = (r: { url(): string }) => {
    if (r.url().includes('/api/sync/appointments')) syncRequests += 1;
  };
  page.on('request', countSync);
  const catchUp = (await page.evaluate(timeCatchUp(dbName, String(lastChange), 120_000))) as {
    ms: number | null;
    changed: number;
    stored: number;
  };
  page.off('request', countSync);
  log(`catch-up: ${catchUp.ms === null ? 'timed out' : `${round(catchUp.ms)} ms`}, ${catchUp.changed} changed rows stored`);

  // 3. 200 edits queued offline, drained on reconnect, each checked through the API.
  const targets = await h.db
    .selectFrom('appointments')
    .select(['id', 'version'])
    .where('company_id', '=', world.companyId)
    .where('start_time', '>=', new Date(Date.now() + 86_400_000).toISOString())
    .orderBy('start_time')
    .limit(EDITS)
    .execute();
  const edits = targets.map((t, i) => ({ id: t.id, description: `Offline edit ${i} of ${t.id}` }));
  const changeBefore = lastChange;
  await cutApi();
  await page.evaluate(queueEdits(dbName, edits));
  // A reload while still offline: the app starts its outbox from what the store holds (its first
  // send fails and backs off), as after a day without a connection.
  await page.reload();
  await page.getByText(`${EDITS} changes waiting to sync`).first().waitFor({ timeout: 60_000 });
  await restoreApi();
  const profiler = process.env.BENCH_PROFILE ? await context.newCDPSession(page) : null;
  if (profiler) {
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.start');
  }
  const drain = (await page.evaluate(timeDrain(dbName, 120_000))) as { ms: number | null; left: number; states?: string[] };
  if (profiler) logProfile((await profiler.send('Profiler.stop')).profile);
  log(`outbox drain: ${drain.ms === null ? `timed out with ${drain.left} left` : `${round(drain.ms)} ms`}`);

  // Exactly once: the API shows each edit with the version one above the one it was based on, and
  // the server logged one change for each.
  const wrong: string[] = [];
  for (const [i, t] of targets.entries()) {
    const res = await fetch(`${server.url}/api/appointments/${t.id}`, { headers: { authorization: `Bearer ${world.token}` } });
    const a = (await res.json()) as { description: string | null; version: number };
    if (a.description !== edits[i].description || a.version !== t.version + 1) wrong.push(`${t.id}: ${a.description} v${a.version}`);
  }
  const logged = await h.db
    .selectFrom('sync_changes')
    .select(['appointment_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('company_id', '=', world.companyId)
    .where('id', '>', changeBefore)
    .groupBy('appointment_id')
    .execute();
  const loggedOnce = logged.length === EDITS && logged.every((r) => Number(r.n) === 1);

  const chromiumVersion = browser.version();
  report = {
    at: new Date().toISOString(),
    machine: {
      ...machineInfo(),
      load_average_1min: { before: loadBefore, after: loadAverage(1)[0] },
    },
    browser: `Chromium ${chromiumVersion} (headless, Playwright)`,
    database: h.dialect,
    store: { appointments: world.total, in_window: world.windowCount, in_viewed_week: world.weekCount, drawn_online: drawnOnline },
    first_sync_ms: firstSyncMs,
    offline_reload: {
      runs: reloads,
      median_ms: median(reloadMs),
      max_ms: Math.max(...reloadMs),
      goal_ms: GOALS.offline_reload_ms,
      met: Math.max(...reloadMs) <= GOALS.offline_reload_ms,
    },
    catch_up: {
      changed: world.total,
      sync_requests: syncRequests,
      ms: catchUp.ms === null ? null : round(catchUp.ms),
      stored_changed: catchUp.changed,
      goal_ms: GOALS.catch_up_ms,
      met: catchUp.ms !== null && catchUp.ms <= GOALS.catch_up_ms && catchUp.changed === world.total,
    },
    outbox_drain: {
      edits: EDITS,
      ms: drain.ms === null ? null : round(drain.ms),
      left: drain.left,
      ...(drain.states ? { states: drain.states } : {}),
      applied_once: wrong.length === 0 && loggedOnce,
      wrong: wrong.slice(0, 10),
      goal_ms: GOALS.outbox_drain_ms,
      met: drain.ms !== null && drain.ms <= GOALS.outbox_drain_ms && wrong.length === 0 && loggedOnce,
    },
  };
} finally {
  await browser.close();
  await server.stop();
  await h.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

const json = JSON.stringify(report, null, 2);
console.log(json);
fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
const file = path.join(root, 'bench', 'results', `${String(report.at).replace(/[:.]/g, '-')}-offline.json`);
fs.writeFileSync(file, json + '\n');
log(`written to ${path.relative(process.cwd(), file)}`);
