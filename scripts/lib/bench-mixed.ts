// `npm run bench -- --mixed`: a busy morning instead of a quiet read loop (issue 15, point 6).
// 1,000 companies, each with 3 staff, 3 services, opening hours and about 4 appointments a day over
// the next 4 weeks; requests are spread over the companies with a Zipf skew (a few popular booking
// pages, a long tail), 90% availability reads (slots and dates), 10% writes (public bookings and
// staff moving an appointment). Latencies are measured per request by our own client, so reads and
// writes get their own percentiles. The same load runs again with `Accept-Encoding: gzip, br`, as
// browsers send it, to show what compression costs on small JSON (docs/decisions/25-compression.md).
// Then the same mix at fixed rates (open loop, `--mixed-rate 500,1000`, the default) for the latency
// at each rate. Then 20 companies take staff bookings as fast as they commit (committed bookings/s), and the
// database is checked for double bookings over everything written.
//
// Every write carries an Idempotency-Key, as the PWA's do (the booking page, the staff calendar and
// the offline outbox alike): the server claims the key in a statement of its own before the write,
// and that is part of what a booking costs. Results before session 28 were measured without
// (`--no-idempotency-keys` measures that way again; `idempotency_keys` in the result says which).
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { DateTime } from 'luxon';
import { sql } from 'kysely';
import pg from 'pg';
import { connect, migrateToLatest, type DatabaseHandle } from '@bookwell/db';
import { hashPassword, issueToken, loadJwtKey } from '../../api/src/lib/auth.ts';
import { spawnBenchServer } from './bench-server.ts';
import { loadAverage, machineInfo, referenceMs, watchCpu } from './machine.ts';
import { cpuSeconds, peakRssMb } from './proc-stats.ts';
import { openLoop } from './open-loop.ts';

const TZ = 'America/New_York';
const STAFF = 3;
const SERVICES = [
  { duration: 30, capacity: 1 },
  { duration: 60, capacity: 1 },
  { duration: 45, capacity: 3 },
];
const PER_DAY = 4;
const DAYS = 28;
/**
 * Customers' addresses: each request comes from one of this many (through X-Forwarded-For, the
 * server trusting it as behind a proxy), as a busy morning's customers each come from their own.
 * From one address, every public booking would count all the others' hits in its rate-limit window
 * (thousands at these rates), a cost no real customer's request has.
 */
const CUSTOMER_ADDRESSES = 20_000;
const customerAddress = () => {
  const n = Math.floor(Math.random() * CUSTOMER_ADDRESSES);
  return `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`;
};

export interface Company {
  id: number;
  staffIds: number[];
  serviceIds: number[];
  token: string;
  /** Future appointments (30-minute service) staff may move. */
  movable: number[];
}

/** Zipf(s) over ranks 1..n: the chance of rank k is proportional to 1/k^s. */
function zipf(n: number, s: number): () => number {
  const cdf: number[] = [];
  let sum = 0;
  for (let k = 1; k <= n; k++) cdf.push((sum += 1 / k ** s));
  for (let k = 0; k < n; k++) cdf[k] /= sum;
  return () => {
    const u = Math.random();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function percentiles(xs: number[]) {
  if (xs.length === 0) return { count: 0 };
  const s = Float64Array.from(xs).sort();
  const at = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 100) / 100;
  return { count: s.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: Math.round(s[s.length - 1] * 100) / 100 };
}

async function chunked<T>(rows: T[], size: number, insert: (part: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

export async function seed(h: DatabaseHandle, companies: number, now: Date): Promise<Company[]> {
  const iso = now.toISOString();
  const tag = crypto.randomBytes(3).toString('hex');
  const companyRows = Array.from({ length: companies }, (_, i) => ({
    name: `Mixed ${i}`,
    slug: `mixed-${tag}-${i}`,
    email: null,
    logo_url: null,
    timezone: TZ,
    enable_employee_booking: 1,
    time_increment_minutes: 30,
    listed_publicly: 0,
    hide_customer_names_in_feeds: 0,
    subscription_plan: 'enterprise' as const,
    subscription_expires_at: null,
    stripe_customer_id: null,
    stripe_subscription_id: null,
    created_at: iso,
    updated_at: iso,
  }));
  const companyIds: number[] = [];
  await chunked(companyRows, 200, async (part) => {
    for (const r of await h.db.insertInto('companies').values(part).returning('id').execute()) companyIds.push(r.id);
  });
  // Sessions need a password on the account (lib/auth.ts); one hash serves every seeded person.
  const passwordHash = await hashPassword('mixed-bench-password');
  const users = companyIds.flatMap((companyId) =>
    Array.from({ length: STAFF }, (_, i) => ({
      company_id: companyId,
      name: `Staff ${i}`,
      email: `staff${i}.${companyId}.${tag}@mixed.test`,
      phone: null,
      role: i === 0 ? ('admin' as const) : ('employee' as const),
      password_hash: passwordHash,
      token_version: 0,
      archived_at: null,
      created_at: iso,
      updated_at: iso,
    })),
  );
  const userIds: number[] = [];
  await chunked(users, 500, async (part) => {
    for (const r of await h.db.insertInto('users').values(part).returning('id').execute()) userIds.push(r.id);
  });
  const services = companyIds.flatMap((companyId) =>
    SERVICES.map((s, i) => ({
      company_id: companyId,
      name: `Service ${i}`,
      duration_minutes: s.duration,
      price: 20,
      hide_price: 0,
      available_slots: s.capacity,
      archived_at: null,
      created_at: iso,
      updated_at: iso,
    })),
  );
  const serviceIds: number[] = [];
  await chunked(services, 500, async (part) => {
    for (const r of await h.db.insertInto('service_types').values(part).returning('id').execute()) serviceIds.push(r.id);
  });
  const hours = companyIds.flatMap((companyId) =>
    Array.from({ length: 7 }, (_, d) => ({
      company_id: companyId,
      user_id: null,
      day_of_week: d + 1,
      is_closed: 0,
      open_time: '09:00:00',
      close_time: '17:00:00',
    })),
  );
  await chunked(hours, 1000, (part) => h.db.insertInto('operating_hours').values(part).execute());

  const today = DateTime.fromJSDate(now, { zone: TZ }).startOf('day');
  const out: Company[] = companyIds.map((id, c) => ({
    id,
    staffIds: userIds.slice(c * STAFF, (c + 1) * STAFF),
    serviceIds: serviceIds.slice(c * SERVICES.length, (c + 1) * SERVICES.length),
    token: '',
    movable: [],
  }));
  // PER_DAY appointments a day per company, each staff member on their own hour: no overlaps.
  const appts: Record<string, unknown>[] = [];
  const links: { company: number; service: number }[] = [];
  out.forEach((co, c) => {
    for (let d = 1; d <= DAYS; d++)
      for (let k = 0; k < PER_DAY; k++) {
        const start = today.plus({ days: d }).set({ hour: 9 + 2 * k + (c % 2) });
        appts.push({
          company_id: co.id,
          user_id: null,
          employee_id: co.staffIds[k % STAFF],
          start_time: start.toUTC().toISO(),
          end_time: start.plus({ minutes: 30 }).toUTC().toISO(),
          description: null,
          appointment_duration_option_id: null,
          status: 'booked',
          version: 1,
          customer_name: 'Seeded Customer',
          customer_email: null,
          customer_phone: null,
          sms_consent: 0,
          created_by: co.staffIds[0],
          created_at: iso,
          updated_at: iso,
        });
        links.push({ company: c, service: co.serviceIds[0] });
      }
  });
  for (let i = 0; i < appts.length; i += 400) {
    const part = appts.slice(i, i + 400);
    await h.db.transaction().execute(async (trx) => {
      const ids = (
        await trx
          .insertInto('appointments')
          .values(part as never)
          .returning('id')
          .execute()
      ).map((r) => r.id);
      await trx
        .insertInto('appointment_service_types')
        .values(ids.map((id, j) => ({ appointment_id: id, service_type_id: links[i + j].service })))
        .execute();
      ids.forEach((id, j) => out[links[i + j].company].movable.push(id));
    });
  }
  if (h.dialect === 'postgres') await sql`analyze`.execute(h.db);
  await signInCompanies(h, out, now);
  return out;
}

/** Each company's first staff member signed in as its admin; the token goes on the company. */
export async function signInCompanies(h: DatabaseHandle, companies: Company[], now?: Date): Promise<void> {
  const key = await loadJwtKey(h.db, process.env.JWT_SECRET);
  for (const co of companies)
    co.token = await issueToken(key, { id: co.staffIds[0], role: 'admin', company_id: co.id, token_version: 0 }, now);
}

interface Sample {
  kind: 'read' | 'write';
  ms: number;
  status: number;
}

/** One request on a keep-alive agent; the body is read to its end. */
function request(agent: http.Agent, base: URL, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; bytes: number; text: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path: `/api${path}`,
        agent,
        headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
      },
      (res) => {
        let bytes = 0;
        let text = '';
        res.on('data', (d: Buffer) => {
          bytes += d.length;
          if ((res.statusCode ?? 0) >= 400 && text.length < 300) text += d.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Workers that each send one request after another until `seconds` have passed. */
export async function drive(
  base: URL,
  connections: number,
  seconds: number,
  next: () => { kind: 'read' | 'write'; method: string; path: string; headers: Record<string, string>; body?: string },
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const samples: Sample[] = [];
  let bytes = 0;
  let errors = 0;
  /** The first answer of each error status, to say what the refusals were. */
  const firstErrors: Record<string, string> = {};
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const r = next();
        const t0 = performance.now();
        try {
          const res = await request(agent, base, r.method, r.path, r.headers, r.body);
          samples.push({ kind: r.kind, ms: performance.now() - t0, status: res.status });
          bytes += res.bytes;
          if (res.status >= 400) firstErrors[`${r.method} ${res.status}`] ??= res.text.slice(0, 200);
        } catch {
          errors++;
        }
      }
    }),
  );
  agent.destroy();
  return { samples, bytes, errors, firstErrors };
}

function statuses(samples: Sample[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of samples) out[s.status] = (out[s.status] ?? 0) + 1;
  return out;
}

/** An employee in two overlapping booked appointments that are not one group session, or a service over its capacity. */
async function doubleBookings(h: DatabaseHandle, since: string): Promise<number> {
  const overlaps = await h.db
    .selectFrom('appointments as a')
    .innerJoin('appointments as b', (j) => j.onRef('a.employee_id', '=', 'b.employee_id').onRef('a.id', '<', 'b.id'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('a.status', '=', 'booked')
    .where('b.status', '=', 'booked')
    .where('a.start_time', '>=', since)
    .where('b.start_time', '>=', since)
    .whereRef('a.start_time', '<', 'b.end_time')
    .whereRef('b.start_time', '<', 'a.end_time')
    .whereRef('a.start_time', '<>', 'b.start_time')
    .executeTakeFirstOrThrow();
  const over = await h.db
    .selectFrom('service_bookings as a')
    .innerJoin('service_types as s', 's.id', 'a.service_type_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('a.status', '=', 'booked')
    .where('a.start_time', '>=', since)
    .where((eb) =>
      eb(
        eb
          .selectFrom('service_bookings as b')
          .select((e2) => e2.fn.countAll<number>().as('c'))
          .whereRef('b.service_type_id', '=', 'a.service_type_id')
          .where('b.status', '=', 'booked')
          .where('b.start_time', '>=', since)
          .whereRef('b.start_time', '<=', 'a.start_time')
          .whereRef('b.end_time', '>', 'a.start_time'),
        '>',
        eb.ref('s.available_slots'),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(overlaps.n) + Number(over.n);
}

/**
 * Staff bookings over `companies` in turn, each company's one after another from `from` (the
 * service takes one booking at a time, capacity 1, whichever employee): committed bookings/s.
 */
export function bookingsOverCompanies(
  companies: Company[],
  from: DateTime,
  writeHeaders: (headers: Record<string, string>) => Record<string, string>,
) {
  const counters = companies.map(() => 0);
  let rr = 0;
  return () => {
    const c = rr++ % companies.length;
    const n = counters[c]++;
    const co = companies[c];
    const start = from.plus({ minutes: n * 30 });
    return {
      kind: 'write' as const,
      method: 'POST',
      path: '/appointments',
      headers: writeHeaders({ authorization: `Bearer ${co.token}` }),
      body: JSON.stringify({
        company_id: co.id,
        employee_id: co.staffIds[n % STAFF],
        service_type_ids: [co.serviceIds[0]],
        start_time: start.toUTC().toISO(),
        customer: { name: 'Walk In', email: `walkin${n}.${co.id}.${from.toMillis()}@mixed.test`, phone: '+442079460000' },
      }),
    };
  };
}

export async function benchMixed(
  h: DatabaseHandle,
  url: string,
  bundle: string,
  opts: { seconds: number; companies?: number; connections?: number; rates?: number[]; idempotencyKeys?: boolean },
) {
  const companiesN = opts.companies ?? 1000;
  const connections = opts.connections ?? 50;
  const now = new Date();
  const t0 = Date.now();
  console.error(`mixed: seeding ${companiesN} companies on ${h.dialect}...`);
  const companies = await seed(h, companiesN, now);
  const seedSeconds = (Date.now() - t0) / 1000;
  const server = await spawnBenchServer(url, bundle, { TRUST_PROXY: 'true' });
  const pid = server.child.pid!;
  const base = new URL(server.url);
  const today = DateTime.fromJSDate(now, { zone: TZ }).startOf('day');
  const dates = Array.from({ length: DAYS }, (_, i) => today.plus({ days: i + 1 }).toISODate()!);
  const pick = zipf(companiesN, 1);
  // Nearer dates are asked more: a customer looks at this week before next month.
  const nearDate = zipf(DAYS, 0.7);
  let seq = 0;
  const keys = opts.idempotencyKeys ?? true;
  /** A write's headers, with a fresh Idempotency-Key as the PWA sends (one per submission). */
  const writeHeaders = (headers: Record<string, string>) => (keys ? { ...headers, 'idempotency-key': crypto.randomUUID() } : headers);

  const mixedRequest = (acceptEncoding: boolean) => () => {
    const co = companies[pick()];
    const headers: Record<string, string> = { 'x-forwarded-for': customerAddress() };
    if (acceptEncoding) headers['accept-encoding'] = 'gzip, br';
    const r = Math.random();
    const svc = co.serviceIds[Math.floor(Math.random() * SERVICES.length)];
    const emp = Math.random() < 1 / 3 ? `&employee_id=${co.staffIds[Math.floor(Math.random() * STAFF)]}` : '';
    if (r < 0.45)
      return {
        kind: 'read' as const,
        method: 'GET',
        path: `/appointments/available-slots?company_id=${co.id}&service_type_id=${svc}&date=${dates[nearDate()]}${emp}`,
        headers,
      };
    if (r < 0.9)
      return {
        kind: 'read' as const,
        method: 'GET',
        path: `/appointments/available-dates?company_id=${co.id}&service_type_id=${svc}${emp}`,
        headers,
      };
    const start = today
      .plus({ days: 1 + nearDate() })
      .set({ hour: 9 })
      .plus({ minutes: 30 * Math.floor(Math.random() * 15) })
      .toUTC()
      .toISO();
    if (r < 0.96) {
      seq++;
      return {
        kind: 'write' as const,
        method: 'POST',
        path: '/appointments',
        headers: writeHeaders(headers),
        body: JSON.stringify({
          company_id: co.id,
          service_type_ids: [svc],
          start_time: start,
          customer: { name: 'Mixed Booker', email: `booker${seq}@mixed.test`, phone: '+442079460000' },
        }),
      };
    }
    const id = co.movable[Math.floor(Math.random() * co.movable.length)];
    return {
      kind: 'write' as const,
      method: 'PATCH',
      path: `/appointments/${id}`,
      headers: writeHeaders({ ...headers, authorization: `Bearer ${co.token}` }),
      body: JSON.stringify({ start_time: start }),
    };
  };

  const summary = (run: Awaited<ReturnType<typeof drive>>, seconds: number, cpu: number) => {
    const reads = run.samples.filter((s) => s.kind === 'read');
    const writes = run.samples.filter((s) => s.kind === 'write');
    return {
      requests_per_s: Math.round(run.samples.length / seconds),
      reads: { ...percentiles(reads.map((s) => s.ms)), statuses: statuses(reads) },
      writes: { ...percentiles(writes.map((s) => s.ms)), statuses: statuses(writes) },
      bytes_per_response: Math.round(run.bytes / Math.max(1, run.samples.length)),
      server_cpu_ms_per_request: Math.round((cpu * 1000 * 100) / Math.max(1, run.samples.length)) / 100,
      client_errors: run.errors,
      first_errors: run.firstErrors,
    };
  };

  console.error(`mixed: server up (pid ${pid}); warming up`);
  await drive(base, connections, 3, mixedRequest(false));
  console.error('mixed: measuring (no Accept-Encoding)');
  let cpu0 = cpuSeconds(pid);
  const plainRun = await drive(base, connections, opts.seconds, mixedRequest(false));
  const plain = summary(plainRun, opts.seconds, cpuSeconds(pid) - cpu0);
  console.error('mixed: measuring (Accept-Encoding: gzip, br)');
  cpu0 = cpuSeconds(pid);
  const compressedRun = await drive(base, connections, opts.seconds, mixedRequest(true));
  const compressed = summary(compressedRun, opts.seconds, cpuSeconds(pid) - cpu0);
  // The same mix on a fixed schedule, as browsers send it (Accept-Encoding): the latency customers
  // and staff see while the server takes that many requests a second (scripts/lib/open-loop.ts). The
  // closed loops above keep 50 requests in flight and so measure a saturated server.
  const asBrowsers = mixedRequest(true);
  const atRates = [];
  for (const rate of opts.rates ?? [500, 1000]) {
    console.error(`mixed: measuring at ${rate} req/s (open loop, Accept-Encoding: gzip, br)`);
    cpu0 = cpuSeconds(pid);
    const r = await openLoop({
      url: server.url,
      rate,
      seconds: opts.seconds,
      request: () => {
        const next = asBrowsers();
        return { ...next, path: `/api${next.path}` };
      },
    });
    const cpu = cpuSeconds(pid) - cpu0;
    atRates.push({
      target_rate: r.target_rate,
      requests_per_s: r.requests_per_s,
      reads: r.by_kind?.read,
      writes: r.by_kind?.write,
      timeouts: r.timeouts,
      errors: r.errors,
      send_late_ms: r.send_late_ms,
      server_cpu_ms_per_request: Math.round((cpu * 1000 * 100) / Math.max(1, r.total)) / 100,
    });
  }
  cpu0 = cpuSeconds(pid);

  // Committed bookings/s over 20 companies: staff bookings at distinct times far from everything else.
  const twenty = companies.slice(0, 20);
  const far = today.plus({ days: 200 });
  console.error('mixed: measuring bookings over 20 companies');
  const bookingsRun = await drive(base, connections, opts.seconds, bookingsOverCompanies(twenty, far, writeHeaders));
  const committed = bookingsRun.samples.filter((s) => s.status === 201).length;
  const bookingsCpu = cpuSeconds(pid) - cpu0;
  const peak = peakRssMb(pid);
  await server.stop();
  const doubles = await doubleBookings(h, today.toUTC().toISO()!);

  return {
    companies: companiesN,
    zipf_s: 1,
    idempotency_keys: keys,
    connections,
    seed_seconds: Math.round(seedSeconds * 10) / 10,
    seeded_appointments: companiesN * DAYS * PER_DAY,
    mixed: plain,
    mixed_accept_encoding: compressed,
    mixed_open_loop: atRates,
    compression_cost: {
      throughput_change_pct: Math.round(((compressed.requests_per_s - plain.requests_per_s) / plain.requests_per_s) * 1000) / 10,
      reads_p99_ms: [plain.reads.p99, compressed.reads.p99],
      server_cpu_ms_per_request: [plain.server_cpu_ms_per_request, compressed.server_cpu_ms_per_request],
      bytes_per_response: [plain.bytes_per_response, compressed.bytes_per_response],
    },
    bookings_20_companies: {
      committed_per_s: Math.round(committed / opts.seconds),
      ...percentiles(bookingsRun.samples.map((s) => s.ms)),
      statuses: statuses(bookingsRun.samples),
      server_cpu_ms_per_request: Math.round((bookingsCpu * 1000 * 100) / Math.max(1, bookingsRun.samples.length)) / 100,
      first_errors: bookingsRun.firstErrors,
    },
    double_bookings: doubles,
    server_peak_rss_mb: peak,
  };
}

/** Runs the mixed load on a fresh database (SQLite file, or a new database on BENCH_DATABASE_URL's server) and writes bench/results/. */
export async function runMixed(bundle: string, seconds: number) {
  // The machine's speed before the load, and its processors' time over the run, seeding included.
  referenceMs();
  const cpu = watchCpu();
  const pgAdmin = process.env.BENCH_DATABASE_URL;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-mixed-'));
  let url = `file:${path.join(dir, 'mixed.db')}`;
  let name: string | null = null;
  if (pgAdmin) {
    name = `bw_mixed_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
    const c = new pg.Client({ connectionString: pgAdmin });
    await c.connect();
    await c.query(`create database ${name}`);
    await c.end();
    const u = new URL(pgAdmin);
    u.pathname = `/${name}`;
    url = u.toString();
  }
  const h = connect(url);
  try {
    await migrateToLatest(h);
    const i = process.argv.indexOf('--companies');
    const r = process.argv.indexOf('--mixed-rate');
    const result = await benchMixed(h, url, bundle, {
      seconds,
      companies: i > 0 ? Number(process.argv[i + 1]) : undefined,
      rates: r > 0 ? process.argv[r + 1].split(',').map(Number) : undefined,
      idempotencyKeys: !process.argv.includes('--no-idempotency-keys'),
    });
    const report = {
      at: new Date().toISOString(),
      machine: { ...machineInfo(), cpu_during_run: cpu.share() },
      load_average_at_end: loadAverage(1),
      duration_seconds_per_load: seconds,
      database: h.dialect,
      availability_cache: !['off', '0', 'false', 'no'].includes(process.env.AVAILABILITY_CACHE ?? 'on'),
      settings_memo: !['off', '0', 'false', 'no'].includes(process.env.SETTINGS_MEMO ?? 'on'),
      ...result,
    };
    const json = JSON.stringify(report, null, 2);
    console.log(json);
    const out = path.join(import.meta.dirname, '..', '..', 'bench', 'results');
    fs.mkdirSync(out, { recursive: true });
    const file = path.join(out, `${report.at.replace(/[:.]/g, '-')}-${h.dialect}-mixed.json`);
    fs.writeFileSync(file, json + '\n');
    console.error(`written to ${path.relative(process.cwd(), file)}`);
  } finally {
    await h.close();
    if (name) {
      const c = new pg.Client({ connectionString: pgAdmin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
