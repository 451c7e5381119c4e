// Reads a V8 CPU profile (`node --cpu-prof`, e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof")
// and prints where the time went: by function (self and inclusive) and by part of the stack (SQLite,
// Kysely, Hono, zod, our bundle, garbage collection, the kernel's socket calls). A window of the
// run can be kept, which is how one phase of a benchmark (the bookings at the end of `--mixed`) is
// read on its own. README, "Profiling".
//
//   node --import tsx scripts/profiling/cpuprofile.ts FILE [--top 40] [--filter server.mjs] [--from S] [--to S]
//   node --import tsx scripts/profiling/cpuprofile.ts FILE --stalls 20 [--from S] [--to S]
//
// --stalls MS lists instead each stretch of at least MS milliseconds in which the thread never went
// idle (what holds a request back in an open-loop load's tail), with what ran in it.
//
// --from/--to are seconds from the start of the profile, or from its end when negative, written
// with an equals sign (--from=-11 --to=-1: the last ten seconds but one).
import fs from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The window's bounds in the profile's µs: seconds from its start, or from its end when negative. */
function windowOf(p: Profile, fromS: number | undefined, toS: number | undefined): [from: number, to: number] {
  const at = (s: number) => (s < 0 ? p.endTime + s * 1e6 : p.startTime + s * 1e6);
  return [fromS === undefined ? -Infinity : at(fromS), toS === undefined ? Infinity : at(toS)];
}

/** Self time (µs) per sampled node, inside the window. */
function sampledTime(p: Profile, fromS: number | undefined, toS: number | undefined): Map<number, number> {
  const [from, to] = windowOf(p, fromS, toS);
  const self = new Map<number, number>();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    const delta = p.timeDeltas[i] ?? 0;
    t += delta;
    if (t < from || t >= to) continue;
    self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + delta);
  }
  return self;
}

const name = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;

/** Which part of the process a sampled function belongs to. */
function partOf(n: ProfileNode): string {
  const { functionName: f, url } = n.callFrame;
  if (f === '(idle)') return 'idle';
  if (f === '(garbage collector)') return 'garbage collection';
  if (f === '(program)') return 'V8 (program)';
  if (f === 'writev' || f === 'writeUtf8String' || f === 'writeBuffer') return 'kernel: socket writes';
  // A statement's native call is sampled in its JavaScript caller: Kysely's SQLite connection, or
  // db/src/sqlite-direct.ts for a transaction's.
  if (url.includes('better-sqlite3') || (f === 'executeQuery' && url.includes('sqlite-driver')) || f === 'rowsInTransaction')
    return 'SQLite statements';
  if (url.includes('/pg/') || url.includes('pg-protocol')) return 'node-postgres';
  if (url.includes('node_modules/kysely')) return 'Kysely';
  if (url.includes('@hono/node-server')) return 'Hono Node adapter';
  if (url.includes('node_modules/hono')) return 'Hono';
  if (url.includes('zod')) return 'zod';
  if (url.includes('undici')) return 'undici (Headers, Request)';
  if (url.includes('server.mjs') || url.includes('/api/src/') || url.includes('/db/src/')) return 'Bookwell';
  if (f.startsWith('RegExp:')) return 'regular expressions';
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url === '') return `Node: ${f}`;
  if (url.startsWith('node:')) return `Node: ${url.slice('node:'.length).split('/').slice(0, 2).join('/')}`;
  return url.split('/').slice(-2).join('/');
}

/** Stretches of at least `minMs` without an idle sample, each with its parts and functions by self time. */
function stalls(p: Profile, byId: Map<number, ProfileNode>, minMs: number, fromS?: number, toS?: number) {
  const [from, to] = windowOf(p, fromS, toS);
  let t = p.startTime;
  let begin = -1;
  let stretch: [number, number][] = [];
  const report = (end: number) => {
    if (begin >= 0 && end - begin >= minMs * 1000) {
      const parts = new Map<string, number>();
      const fns = new Map<string, number>();
      for (const [id, us] of stretch) {
        const n = byId.get(id)!;
        parts.set(partOf(n), (parts.get(partOf(n)) ?? 0) + us);
        fns.set(name(n), (fns.get(name(n)) ?? 0) + us);
      }
      const top = (m: Map<string, number>, k: number) =>
        [...m]
          .sort((a, b) => b[1] - a[1])
          .slice(0, k)
          .map(([x, us]) => `${(us / 1000).toFixed(1)} ms ${x}`)
          .join('; ');
      console.log(`${((begin - p.startTime) / 1e6).toFixed(3)} s: ${((end - begin) / 1000).toFixed(1)} ms busy`);
      console.log(`   parts: ${top(parts, 5)}`);
      console.log(`   self:  ${top(fns, 6)}`);
    }
    begin = -1;
    stretch = [];
  };
  for (let i = 0; i < p.samples.length; i++) {
    const delta = p.timeDeltas[i] ?? 0;
    t += delta;
    if (t < from || t >= to) continue;
    const node = byId.get(p.samples[i])!;
    if (node.callFrame.functionName === '(idle)') report(t - delta);
    else {
      if (begin < 0) begin = t - delta;
      stretch.push([p.samples[i], delta]);
    }
  }
  report(t);
}

function percent(part: number, whole: number) {
  return ((100 * part) / whole).toFixed(1).padStart(5);
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      top: { type: 'string', default: '40' },
      filter: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      stalls: { type: 'string' },
    },
  });
  if (positionals.length !== 1) {
    console.error('usage: cpuprofile.ts FILE [--top N] [--filter TEXT] [--from S] [--to S] [--stalls MS]');
    process.exit(2);
  }
  const p = JSON.parse(fs.readFileSync(positionals[0], 'utf8')) as Profile;
  const fromS = values.from === undefined ? undefined : Number(values.from);
  const toS = values.to === undefined ? undefined : Number(values.to);
  if (values.stalls !== undefined) {
    stalls(p, new Map(p.nodes.map((n) => [n.id, n])), Number(values.stalls), fromS, toS);
    return;
  }
  const top = Number(values.top);
  const self = sampledTime(p, fromS, toS);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const selfByName = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const parts = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    total += us;
    selfByName.set(name(node), (selfByName.get(name(node)) ?? 0) + us);
    parts.set(partOf(node), (parts.get(partOf(node)) ?? 0) + us);
    // Each function once per sample, however often it recurses.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const key = name(byId.get(cur)!);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const busy = total - (parts.get('idle') ?? 0);
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  console.log(`${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy; percentages of the busy time`);
  console.log('--- by part');
  for (const [k, us] of sorted(parts)
    .filter(([k]) => k !== 'idle')
    .slice(0, top))
    console.log(percent(us, busy), k);
  console.log('--- self');
  for (const [k, us] of sorted(selfByName).slice(0, top)) console.log(percent(us, busy), k);
  console.log(`--- inclusive (synchronous callers only: an await starts a new stack)${values.filter ? `, matching ${values.filter}` : ''}`);
  for (const [k, us] of sorted(inclusive)
    .filter(([k]) => !values.filter || k.includes(values.filter))
    .slice(0, top))
    console.log(percent(us, busy), k);
}

main();
