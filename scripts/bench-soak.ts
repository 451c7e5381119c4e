// `npm run bench:soak`: issue 14's Measured. The realistic mix of scripts/lib/load-mix.ts (browsing,
// anonymous and customer bookings, staff reads and edits, logins, pages) for a long while, against
// the production build on SQLite (one process) and on PostgreSQL (two processes behind Debian's
// nginx): throughput, p99, errors (none but 4xx expected), each process's memory sampled over time
// (goal: flat after warm-up and under 250 MB), and the integrity checks (no double booking, every
// acknowledged write present, every email once). Prints one JSON document and writes it under
// bench/results/. See docs/decisions/33-scale-out.md.
//
//   npm run bench:soak                       10 minutes each
//   npm run bench:soak -- --minutes 2        shorter
//   npm run bench:soak -- --only postgres    one of sqlite, postgres
//   npm run bench:soak -- --concurrency 16   virtual users (default 12)
// PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
// names the server; a fresh database is made and dropped.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from '@bookwell/db';
import { createTestDatabase } from '@bookwell/db/testing';
import { hashPassword } from '../api/src/lib/auth.ts';
import { startTestSmtp } from '../api/src/testing/smtp.ts';
import {
  appEnv,
  findNginx,
  heapSample,
  memorySummary,
  productionBuild,
  sampleMemory,
  startApps,
  startNginx,
  type HeapSample,
  type ProductionBuild,
} from './lib/load-mix-cluster.ts';
import { checkIntegrity, integrityHolds, runMix, setupMixWorld } from './lib/load-mix.ts';

const args = process.argv.slice(2);
const argValue = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const minutes = Number(argValue('--minutes') ?? 10);
const concurrency = Number(argValue('--concurrency') ?? 12);
const only = argValue('--only');
/** Memory before this is warm-up (caches, JIT, pools filling). */
const warmupS = Math.min(60, Math.round(minutes * 60 * 0.2));
const sampleEveryMs = minutes >= 5 ? 10_000 : 5_000;

process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function soak(build: ProductionBuild, kind: 'sqlite' | 'postgres') {
  const database = await createTestDatabase(kind);
  const smtp = await startTestSmtp();
  const processes = kind === 'postgres' ? 2 : 1;
  const apps = await startApps(processes, appEnv(database.url, smtp.url, build.pwaDist), build.bundle);
  let nginx: Awaited<ReturnType<typeof startNginx>> | null = null;
  const handle = connect(database.url);
  try {
    if (kind === 'postgres') {
      const nginxPath = findNginx();
      if (!nginxPath) throw new Error('nginx is not installed (apt-get install -y nginx): the PostgreSQL soak needs it in front');
      nginx = await startNginx(
        nginxPath,
        apps.map((a) => a.url),
      );
    }
    const base = nginx?.url ?? apps[0]!.url;
    const setPassword = async (email: string, password: string) => {
      await handle.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(password) })
        .where('email', '=', email)
        .execute();
    };
    const world = await setupMixWorld(base, setPassword);
    console.error(`${kind}: ${processes} process(es)${nginx ? ' behind nginx' : ''}, ${minutes} min, ${concurrency} virtual users`);
    const memory = sampleMemory(
      apps.map((a) => a.child.pid!),
      sampleEveryMs,
    );
    // What the resident memory is made of (V8 heap vs external buffers), from each process's metrics.
    const heap: { t: number; per_process: (HeapSample | null)[] }[] = [];
    const heapT0 = Date.now();
    const takeHeap = async () =>
      heap.push({ t: Math.round((Date.now() - heapT0) / 1000), per_process: await Promise.all(apps.map((a) => heapSample(a.url))) });
    const heapTimer = setInterval(() => void takeHeap(), sampleEveryMs * 2);
    const load: number[] = [];
    let lastReport = 0;
    const loadTimer = setInterval(() => load.push(os.loadavg()[0]!), 10_000);
    const result = await runMix(base, world, {
      durationMs: minutes * 60_000,
      concurrency,
      onProgress: (done, ms) => {
        if (ms - lastReport < 30_000) return;
        lastReport = ms;
        console.error(`  ${Math.round(ms / 1000)} s: ${done} requests`);
      },
    });
    clearInterval(loadTimer);
    clearInterval(heapTimer);
    await takeHeap();
    const samples = memory.stop();
    const integrity = await checkIntegrity(handle, world, result, smtp.messages, 120_000);
    const nonClientErrors = Object.entries(result.statuses)
      .filter(([s]) => s === 'no answer' || Number(s) >= 500)
      .reduce((n, [, c]) => n + c, 0);
    return {
      database: kind,
      processes,
      behind_nginx: !!nginx,
      seconds: result.seconds,
      requests: result.requests,
      requests_per_s: result.requestsPerSecond,
      latency_ms: result.latencyMs,
      statuses: result.statuses,
      errors_not_4xx: nonClientErrors,
      first_errors: result.serverErrors.slice(0, 5),
      by_operation: result.byOperation,
      upstreams: result.upstreams,
      bookings: result.bookings,
      edits: result.edits,
      memory: {
        warmup_seconds: warmupS,
        per_process: apps.map((_, i) => memorySummary(samples, i, warmupS)),
        samples,
        heap,
      },
      machine_load_avg_1m: load.length ? { min: Math.min(...load), max: Math.max(...load) } : null,
      integrity: {
        holds: integrityHolds(integrity),
        booked_appointments: integrity.bookedAppointments,
        employee_overlaps: integrity.employeeOverlaps.length,
        over_capacity: integrity.overCapacity.length,
        acknowledged_writes_missing_or_different: integrity.missingOrDifferent.length,
        emails_received: integrity.emails.received,
        emails_duplicated: integrity.emails.duplicated.length,
        confirmation_problems: integrity.emails.confirmationProblems.length,
        emails_unsent: integrity.emails.unsent,
        examples: [
          ...integrity.employeeOverlaps,
          ...integrity.overCapacity,
          ...integrity.missingOrDifferent,
          ...integrity.emails.confirmationProblems,
        ].slice(0, 5),
      },
    };
  } finally {
    await nginx?.stop();
    await Promise.all(apps.map((a) => a.stop()));
    await handle.close();
    await smtp.close();
    await database.drop();
  }
}

const build = await productionBuild();
const runs = [];
try {
  for (const kind of ['sqlite', 'postgres'] as const) if (!only || only === kind) runs.push(await soak(build, kind));
} finally {
  build.cleanup();
}
const report = {
  at: new Date().toISOString(),
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
  minutes,
  concurrency,
  runs,
};
const json = JSON.stringify(report, null, 2);
console.log(json);
const dir = path.resolve(import.meta.dirname, '..', 'bench', 'results');
fs.mkdirSync(dir, { recursive: true });
const file = path.join(dir, `${report.at.replace(/[:.]/g, '-')}-soak.json`);
fs.writeFileSync(file, `${json}\n`);
console.error(`written to ${path.relative(process.cwd(), file)}`);
process.exit(runs.every((r) => r.errors_not_4xx === 0 && r.integrity.holds) ? 0 : 1);
