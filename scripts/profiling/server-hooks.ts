// Measuring hooks loaded into a server under load (README, "Profiling"):
//
//   BOOKWELL_HOOKS=sql,loop,requests,pg \
//   BENCH_SERVER_NODE_ARGS="--import tsx --import ./scripts/profiling/server-hooks.ts" npm run bench -- ...
//
// then `kill -USR2 <server pid>` (the bench prints it) writes what was seen since the last signal
// to /tmp/bookwell-hooks-<pid>-<n>.json and starts counting again: signal once when the load of
// interest starts, once before it ends, and read the second file.
// - sql: time per better-sqlite3 statement (its text, count, total, mean and longest µs), SQLite only;
// - pg: statements sent through node-postgres, named (prepared) or not, PostgreSQL only;
// - loop: event-loop turn lengths (the delay of a 2 ms timer), garbage collections by kind, memory;
// - requests: each request's time inside the server, from Node's 'request' event to its 'finish'.
// - alloc: bytes allocated by function (V8's sampling heap profiler, collected objects included), the
//   churn behind the young generation's collections; not in the default set (it slows the server).
// These patch library prototypes: for measuring only, never in a served process.
import fs from 'node:fs';
import inspector from 'node:inspector';
import http from 'node:http';
import { createRequire } from 'node:module';
import { PerformanceObserver, constants, monitorEventLoopDelay, type PerformanceEntry } from 'node:perf_hooks';

const enabled = new Set((process.env.BOOKWELL_HOOKS ?? 'sql,pg,loop,requests').split(','));

const requireFromDb = createRequire(new URL('../../db/package.json', import.meta.url));
const report: Record<string, () => unknown> = {};
const resets: (() => void)[] = [];

const sorted = (xs: number[]) => xs.slice().sort((a, b) => a - b);
const quantile = (s: number[], q: number) => (s.length ? Math.round(s[Math.floor(q * (s.length - 1))] * 100) / 100 : null);

if (enabled.has('sql')) {
  const stats = new Map<string, { count: number; ns: number; maxNs: number }>();
  const time = (sql: string, started: bigint) => {
    const s = stats.get(sql) ?? { count: 0, ns: 0, maxNs: 0 };
    const ns = Number(process.hrtime.bigint() - started);
    s.count++;
    s.ns += ns;
    s.maxNs = Math.max(s.maxNs, ns);
    stats.set(sql, s);
  };
  type Method = (this: { source: string }, ...args: unknown[]) => unknown;
  const Database = requireFromDb('better-sqlite3') as new (file: string) => {
    prepare(sql: string): object;
    close(): void;
  };
  const scratch = new Database(':memory:');
  const statement = Object.getPrototypeOf(scratch.prepare('select 1')) as Record<string, Method>;
  scratch.close();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = statement[method];
    statement[method] = function (this: { source: string }, ...args: unknown[]) {
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        time(this.source, started);
      }
    };
  }
  report.sql = () => {
    const rows = [...stats].sort((a, b) => b[1].ns - a[1].ns);
    return {
      total_ms: Math.round(rows.reduce((sum, [, s]) => sum + s.ns, 0) / 1e4) / 100,
      statements: rows.map(([sql, s]) => ({
        count: s.count,
        total_ms: Math.round(s.ns / 1e4) / 100,
        mean_us: Math.round(s.ns / s.count / 100) / 10,
        max_us: Math.round(s.maxNs / 100) / 10,
        sql,
      })),
    };
  };
  resets.push(() => stats.clear());
}

if (enabled.has('pg')) {
  const sent = new Map<string, number>();
  const pg = requireFromDb('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0] as string | { text?: string; name?: string } | undefined;
    const text = typeof config === 'string' ? config : (config?.text ?? '(query object)');
    const key = `${typeof config === 'object' && config?.name ? 'named' : 'unnamed'} ${text.replace(/\s+/g, ' ')}`;
    sent.set(key, (sent.get(key) ?? 0) + 1);
    return original.apply(this, args);
  };
  report.pg = () => [...sent].sort((a, b) => b[1] - a[1]).map(([statement, count]) => ({ count, statement }));
  resets.push(() => sent.clear());
}

if (enabled.has('loop')) {
  const delay = monitorEventLoopDelay({ resolution: 2 });
  delay.enable();
  const gc = new Map<number, { count: number; ms: number; max_ms: number }>();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0;
      const g = gc.get(kind) ?? { count: 0, ms: 0, max_ms: 0 };
      g.count++;
      g.ms += e.duration;
      g.max_ms = Math.max(g.max_ms, e.duration);
      gc.set(kind, g);
    }
  }).observe({ entryTypes: ['gc'] });
  // Node's gc kinds (perf_hooks.constants.NODE_PERFORMANCE_GC_*): 1 minor (a scavenge of the young
  // generation), 4 major (mark-compact of the whole heap, the pause that matters), 8 incremental
  // marking steps, 16 weak callbacks. Sessions before 34 labelled 4 as incremental and 8 as weak
  // callbacks (docs/benchmarks.md, session 34).
  const kinds: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak_callbacks',
  };
  report.loop = () => ({
    turn_ms: { p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 },
    gc: Object.fromEntries([...gc].map(([k, g]) => [kinds[k] ?? String(k), { ...g, ms: Math.round(g.ms) }])),
    memory_mb: Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 1e6)])),
  });
  resets.push(() => {
    delay.reset();
    gc.clear();
  });
}

if (enabled.has('requests')) {
  let times: number[] = [];
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const started = performance.now();
      (args[1] as http.ServerResponse).once('finish', () => times.push(performance.now() - started));
    }
    return (emit as (this: http.Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
  } as typeof emit;
  report.requests = () => {
    const s = sorted(times);
    return { count: s.length, in_server_ms: { p50: quantile(s, 0.5), p90: quantile(s, 0.9), p99: quantile(s, 0.99), max: quantile(s, 1) } };
  };
  resets.push(() => {
    times = [];
  });
}

if (enabled.has('alloc')) {
  interface SampleNode {
    callFrame: { functionName: string; url: string; lineNumber: number };
    selfSize: number;
    children: SampleNode[];
  }
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
  const start = () =>
    post('HeapProfiler.startSampling', {
      samplingInterval: 32768,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  let latest: unknown = null;
  let sampling = false;
  // Sampling starts at the first signal (its records grow with the load). The profile is read
  // asynchronously: each signal reports the one taken up to the signal before.
  const take = async () => {
    if (!sampling) {
      sampling = true;
      return start();
    }
    const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: { head: SampleNode } };
    await start();
    const byFunction = new Map<string, number>();
    const walk = (n: SampleNode) => {
      const f = n.callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\//, '')}:${f.lineNumber + 1}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + n.selfSize);
      for (const c of n.children) walk(c);
    };
    walk(profile.head);
    const total = [...byFunction.values()].reduce((a, b) => a + b, 0);
    latest = {
      total_mb: Math.round(total / 1e5) / 10,
      top: [...byFunction]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 60)
        .map(([where, bytes]) => ({ kb: Math.round(bytes / 1024), pct: Math.round((bytes * 1000) / total) / 10, where })),
    };
  };
  report.alloc = () => latest;
  resets.push(() => void take());
}

let dumps = 0;
let since = Date.now();
process.on('SIGUSR2', () => {
  const file = `/tmp/bookwell-hooks-${process.pid}-${dumps++}.json`;
  const seconds = (Date.now() - since) / 1000;
  const out = Object.fromEntries(Object.entries(report).map(([k, f]) => [k, f()]));
  fs.writeFileSync(file, `${JSON.stringify({ seconds, ...out }, null, 2)}\n`);
  for (const reset of resets) reset();
  since = Date.now();
});
