// `npm run bench -- --lighthouse`: Lighthouse scores of the public pages a customer waits for
// (issue 15 point 6; targets in docs/decisions/30-csp-and-small-public-pages.md): the landing page,
// a booking page and the sign-in page, each the median of 3 runs (by performance score) with
// Lighthouse's default mobile profile (simulated slow 4G, 4x CPU slowdown) in Debian's Chromium,
// against the production build served by a fresh server process on the demo data.
//
//   npm run bench -- --lighthouse                    builds the PWA and the server bundle first
//   npm run bench -- --lighthouse --dist /tmp/dist   an existing `vite build` output instead
//   npm run bench -- --lighthouse --runs 5           more runs per page
//
// Prints one JSON document and writes it under bench/results/. The machine's load average is
// recorded before and after: Lighthouse's simulated throttling scales what it measures on this CPU,
// so a busy machine lowers the scores.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { connect, migrateToLatest } from '@bookwell/db';
import { buildServer } from '../api/src/build/server-bundle.ts';
import { spawnServer } from '../api/src/testing/process.ts';
import { seedDemo } from './lib/demo-seed.ts';
import { loadAverage, machineInfo, referenceMs, watchCpu } from './lib/machine.ts';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const argValue = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const RUNS = Number(argValue('--runs') ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The pages measured and the performance score each must reach (issue 15's targets). */
const PAGES = [
  { name: 'landing', path: '/', target: 95 },
  { name: 'booking', path: '/public/booking/demo', target: 95 },
  { name: 'sign-in', path: '/login', target: 90 },
] as const;

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  fcp_ms: 'first-contentful-paint',
  lcp_ms: 'largest-contentful-paint',
  tbt_ms: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  speed_index_ms: 'speed-index',
} as const;

interface Run {
  scores: Record<(typeof CATEGORIES)[number], number | null>;
  metrics: Record<keyof typeof METRICS, number | null>;
  /** Bytes of JavaScript transferred (compressed, as served). */
  script_transfer_kb: number | null;
  failed_audits: string[];
}

async function buildPwa(outDir: string): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    // The pwa workspace's build script: the React app, then the public pages on Preact (decision 30).
    ['--import', 'tsx', path.join(root, 'pwa', 'scripts', 'build.ts'), '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: path.join(root, 'pwa'),
      maxBuffer: 16 * 1024 * 1024,
    },
  );
}

async function measure(url: string): Promise<Run> {
  // A fresh browser per run: no HTTP cache, service worker or storage carried from the last one.
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const score = (id: string) => {
      const s = lhr.categories[id]?.score;
      return s === null || s === undefined ? null : Math.round(s * 100);
    };
    const numeric = (id: string) => {
      const v = lhr.audits[id]?.numericValue;
      return v === undefined ? null : id === 'cumulative-layout-shift' ? Math.round(v * 1000) / 1000 : Math.round(v);
    };
    const summary = lhr.audits['resource-summary']?.details;
    const scriptRow =
      summary && 'items' in summary
        ? (summary.items as { resourceType?: string; transferSize?: number }[]).find((r) => r.resourceType === 'script')
        : undefined;
    return {
      scores: Object.fromEntries(CATEGORIES.map((c) => [c, score(c)])) as Run['scores'],
      metrics: Object.fromEntries(Object.entries(METRICS).map(([k, id]) => [k, numeric(id)])) as Run['metrics'],
      script_transfer_kb: scriptRow?.transferSize === undefined ? null : Math.round((scriptRow.transferSize / 1024) * 10) / 10,
      failed_audits: Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
        .map((a) => a.id)
        .sort(),
    };
  } finally {
    chrome.kill();
  }
}

/**
 * Lighthouse sometimes loses the trace on a busy machine (NO_NAVSTART, NO_FCP): such a run says
 * nothing about the page, so it is made again (twice at most) rather than counted.
 */
async function measureWithRetry(url: string): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(url);
    } catch (err) {
      if (attempt >= 3) throw err;
      console.error(`retrying after: ${String(err)}`);
    }
  }
}

/** The run with the median performance score (Lighthouse's own advice for comparing runs). */
function median(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0));
  return sorted[Math.floor(sorted.length / 2)]!;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-lighthouse-'));
let dist = argValue('--dist');
if (!dist) {
  dist = path.join(work, 'pwa');
  console.error('building the PWA...');
  await buildPwa(dist);
}
console.error('building the server bundle...');
const bundle = await buildServer();
const databaseUrl = `file:${path.join(work, 'lighthouse.db')}`;
const h = connect(databaseUrl);
await migrateToLatest(h);
await seedDemo(h.db);
await h.close();

const server = await spawnServer(
  { DATABASE_URL: databaseUrl, PWA_DIST: dist, DISABLE_SCHEDULER: 'true', LOG_LEVEL: 'error' },
  60_000,
  [],
  bundle,
);
// Lighthouse is given localhost (a secure context, as the real https site is), not 127.0.0.1.
const base = server.url.replace('127.0.0.1', 'localhost');
const loadBefore = loadAverage();
referenceMs();
const cpu = watchCpu();
const pages = [];
try {
  for (const p of PAGES) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      console.error(`${p.name}: run ${i + 1} of ${RUNS}`);
      runs.push(await measureWithRetry(`${base}${p.path}`));
    }
    const m = median(runs);
    pages.push({
      page: p.name,
      path: p.path,
      target_performance: p.target,
      meets_target: (m.scores.performance ?? 0) >= p.target,
      median: m,
      performance_runs: runs.map((r) => r.scores.performance),
    });
  }
} finally {
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}

const report = {
  at: new Date().toISOString(),
  kind: 'lighthouse',
  machine: { ...machineInfo(), cpu_during_run: cpu.share() },
  lighthouse: { profile: 'mobile (default: simulated slow 4G, 4x CPU slowdown)', runs_per_page: RUNS, chromium: CHROMIUM },
  load_average: { before: loadBefore, after: loadAverage() },
  pages,
};
const json = JSON.stringify(report, null, 2);
console.log(json);
const resultsDir = path.join(root, 'bench', 'results');
fs.mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `${report.at.replace(/[:.]/g, '-')}-lighthouse.json`);
fs.writeFileSync(file, json + '\n');
console.error(`written to ${path.relative(process.cwd(), file)}`);
process.exitCode = pages.every((p) => p.meets_target) ? 0 : 1;
