// Alternates built server bundles against one seeded database: the benchmark's company (rules on)
// is seeded once and kept, then each bundle in turn is started on it and measured with the same
// closed loop as `npm run bench` (50 connections), round after round. On PostgreSQL the benchmark's
// own seed takes minutes, more than the loads it measures, so an A/B of one change is quicker here;
// the figures are comparable only within one run. README, "Profiling".
//
//   node --import tsx scripts/profiling/alternate.ts seed [--db postgres://...]
//   npm run build && cp api/dist/server.mjs api/dist/a.mjs    (the tree before; then the tree after as b.mjs)
//   node --import tsx scripts/profiling/alternate.ts run api/dist/a.mjs api/dist/b.mjs \
//     [--db ...] [--load dates|slots|bookings|moves] [--rounds 3] [--seconds 10] [--cache]
//   alternate.ts seed --mixed; alternate.ts run a.mjs b.mjs --load bookings20 [--companies 20]   (the
//     mixed benchmark's 1,000 companies, and its committed bookings over 20 of them, keys and cache on)
//
// Bundles must sit in api/dist (they import the packages installed beside it). Each line printed is
// one measured load as JSON: answers a second, p50/p99 ms, and the CPU ms an answer of the server
// and, on PostgreSQL, of the database's processes. The availability cache is off unless --cache.
// `--load bookings` posts staff bookings like the mixed benchmark's committed-bookings load (a new
// customer by contact, one employee, one service), each run on days of its own far ahead; they all
// queue on one company's lock, so compare the CPU an answer costs more than answers a second.
// `--load moves` moves the company's appointments (staff PATCH of start_time), likewise on days of
// its own, also one company's lock.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { DateTime } from 'luxon';
import pg from 'pg';
import { connect, migrateToLatest } from '@bookwell/db';
import { spawnBenchServer } from '../lib/bench-server.ts';
import { benchQuestions, seedBenchCompany, type World } from '../lib/bench-seed.ts';
import { bookingsOverCompanies, drive, seed as seedMixed, signInCompanies, type Company } from '../lib/bench-mixed.ts';
import { cpuSeconds, databaseCpuSeconds } from '../lib/proc-stats.ts';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: 'string' },
    load: { type: 'string', default: 'dates' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    cache: { type: 'boolean', default: false },
    mixed: { type: 'boolean', default: false },
    companies: { type: 'string', default: '20' },
  },
});
const [mode, ...bundles] = positionals;
// `--mixed` (seed) and `--load bookings20` (run) use the mixed benchmark's 1,000 companies instead.
const mixed = opts.mixed || opts.load === 'bookings20';
const KEPT = mixed ? 'bw_alternate_mixed' : 'bw_alternate';
const sqliteFile = path.join(os.tmpdir(), 'bookwell-alternate', mixed ? 'mixed.db' : 'bench.db');
const worldFile = path.join(os.tmpdir(), 'bookwell-alternate', `world-${mixed ? 'mixed-' : ''}${opts.db ? 'postgres' : 'sqlite'}.json`);
const url = opts.db ? Object.assign(new URL(opts.db), { pathname: `/${KEPT}` }).toString() : `file:${sqliteFile}`;

async function seed() {
  fs.mkdirSync(path.dirname(worldFile), { recursive: true });
  if (opts.db) {
    const admin = new pg.Client({ connectionString: opts.db });
    await admin.connect();
    await admin.query(`drop database if exists ${KEPT} with (force)`);
    await admin.query(`create database ${KEPT}`);
    await admin.end();
  } else {
    fs.rmSync(sqliteFile, { force: true });
  }
  const h = connect(url);
  await migrateToLatest(h);
  const world = mixed ? await seedMixed(h, 1000, new Date()) : await seedBenchCompany(h, 100_000, new Date(), { rules: true });
  fs.writeFileSync(worldFile, JSON.stringify(world));
  await h.close();
}

type Ask = () => { path: string; method?: autocannon.Request['method']; headers?: Record<string, string>; body?: string };

function measure(target: string, connections: number, seconds: number, ask: Ask) {
  return new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(
      {
        url: target,
        connections,
        duration: seconds,
        requests: [{ method: 'GET', setupRequest: (r: autocannon.Request) => ({ ...r, ...ask() }) }],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    ),
  );
}

/** Staff bookings at distinct times (each employee one after another) on days no other run uses. */
function bookings(world: World, after: number, run: number): Ask {
  const first = after + run * 60 * 86_400_000;
  let n = 0;
  return () => {
    const i = n++;
    const start = first + Math.floor(i / world.staffIds.length) * 15 * 60_000;
    return {
      method: 'POST',
      path: '/api/appointments',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.token}` },
      body: JSON.stringify({
        company_id: world.companyId,
        employee_id: world.staffIds[i % world.staffIds.length],
        service_type_ids: [world.throughputServiceId],
        start_time: new Date(start).toISOString(),
        end_time: new Date(start + 15 * 60_000).toISOString(),
        customer: { name: 'Walk In', email: `walkin${run}.${i}@alternate.test`, phone: '+442079460000' },
      }),
    };
  };
}

/**
 * `--load moves`: staff moves (PATCH start_time) of the bench company's appointments, each to a time
 * of its own on days no other run uses, so none is refused: the edit path's work under the company
 * lock, one move after another.
 */
function moves(world: World, ids: number[], after: number, run: number): Ask {
  const first = after + run * 60 * 86_400_000;
  let n = 0;
  return () => {
    const i = n++;
    return {
      method: 'PATCH',
      path: `/api/appointments/${ids[i % ids.length]}`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.token}` },
      body: JSON.stringify({ start_time: new Date(first + i * 15 * 60_000).toISOString() }),
    };
  };
}

/** `--load bookings20`: the mixed benchmark's committed bookings over 20 companies (`--companies`), bundle after bundle. */
async function alternateTwenty() {
  const companies = (JSON.parse(fs.readFileSync(worldFile, 'utf8')) as Company[]).slice(0, Number(opts.companies));
  const h = connect(url);
  // Tokens last hours, a seed may be older: the same staff signed in again.
  await signInCompanies(h, companies);
  // Each run (warm-up and measure) on 60 days of its own after every earlier run's, and at least
  // 200 days ahead as in the benchmark.
  const latest = await h.db
    .selectFrom('appointments')
    .select((eb) => eb.fn.max('start_time').as('at'))
    .executeTakeFirst();
  await h.close();
  const after = DateTime.fromJSDate(new Date(latest?.at ?? Date.now())).plus({ days: 1 });
  const first = DateTime.max(DateTime.now().plus({ days: 200 }), after);
  const withKey = (headers: Record<string, string>) => ({ ...headers, 'idempotency-key': crypto.randomUUID() });
  let runs = 0;
  const from = () => first.startOf('day').plus({ days: 60 * runs++ });
  for (let round = 0; round < Number(opts.rounds); round++) {
    for (const bundle of bundles) {
      const server = await spawnBenchServer(url, bundle, { TRUST_PROXY: 'true' });
      const pid = server.child.pid!;
      const base = new URL(server.url);
      await drive(base, 50, 2, bookingsOverCompanies(companies, from(), withKey));
      const before = cpuSeconds(pid);
      const run = await drive(base, 50, Number(opts.seconds), bookingsOverCompanies(companies, from(), withKey));
      const cpu = cpuSeconds(pid) - before;
      const ms = run.samples.map((x) => x.ms).sort((a, b) => a - b);
      console.log(
        JSON.stringify({
          bundle,
          round,
          committed_per_s: Math.round(run.samples.filter((x) => x.status === 201).length / Number(opts.seconds)),
          p50_ms: Math.round(ms[Math.floor(ms.length / 2)] * 10) / 10,
          p99_ms: Math.round(ms[Math.floor(ms.length * 0.99)] * 10) / 10,
          server_cpu_ms: Math.round((cpu * 100_000) / run.samples.length) / 100,
          errors: run.errors,
          first_errors: run.firstErrors,
        }),
      );
      await server.stop();
    }
  }
}

async function alternate() {
  const world = JSON.parse(fs.readFileSync(worldFile, 'utf8')) as World;
  // The same questions as scripts/bench.ts asks.
  const paths = benchQuestions(world, new Date());
  let runs = 0;
  // Bookings begin the day after the latest appointment, so an earlier `run` never gets in the way.
  const h = connect(url);
  const latest = await h.db
    .selectFrom('appointments')
    .select((eb) => eb.fn.max('start_time').as('at'))
    .executeTakeFirst();
  const movable =
    opts.load === 'moves'
      ? (
          await h.db
            .selectFrom('appointments')
            .select('id')
            .where('company_id', '=', world.companyId)
            .where('status', '=', 'booked')
            .orderBy('id')
            .limit(20_000)
            .execute()
        ).map((r) => r.id)
      : [];
  await h.close();
  const after = (Math.floor(new Date(latest?.at ?? Date.now()).getTime() / 86_400_000) + 1) * 86_400_000;
  const asker = (): Ask => {
    if (opts.load === 'bookings') return bookings(world, after, runs++);
    if (opts.load === 'moves') return moves(world, movable, after, runs++);
    const path = paths[opts.load as keyof typeof paths];
    if (!path) throw new Error(`--load is dates, slots, bookings or moves, not ${opts.load}`);
    return () => ({ path: path() });
  };
  for (let round = 0; round < Number(opts.rounds); round++) {
    for (const bundle of bundles) {
      const ask = asker();
      const server = await spawnBenchServer(url, bundle, opts.cache ? {} : { AVAILABILITY_CACHE: 'off' });
      const pid = server.child.pid!;
      await measure(server.url, 10, 2, ask);
      const serverBefore = cpuSeconds(pid);
      const databaseBefore = databaseCpuSeconds();
      const res = await measure(server.url, 50, Number(opts.seconds), ask);
      const perAnswer = (seconds: number) => Math.round((seconds * 100_000) / res.requests.total) / 100;
      console.log(
        JSON.stringify({
          bundle,
          round,
          answers_per_s: Math.round(res.requests.average),
          p50_ms: res.latency.p50,
          p99_ms: res.latency.p99,
          server_cpu_ms: perAnswer(cpuSeconds(pid) - serverBefore),
          database_cpu_ms: opts.db ? perAnswer(databaseCpuSeconds() - databaseBefore) : null,
          non_2xx: res.non2xx,
        }),
      );
      await server.stop();
    }
  }
}

if (mode === 'seed') await seed();
else if (mode === 'run' && bundles.length > 0) await (opts.load === 'bookings20' ? alternateTwenty() : alternate());
else throw new Error('usage: alternate.ts seed | run BUNDLE... (see the header)');
process.exit(0);
