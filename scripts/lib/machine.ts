// What a benchmark result says about the machine it ran on (README, "Benchmark"). The machines are
// shared virtual ones whose speed differs from one session to the next by up to twice for the same
// tree, and drifts within a session: a figure is only comparable with another measured beside it. Two
// readings tell when results came from a different machine, or a slowed one:
// - `reference_ms`: how long a fixed piece of single-threaded JavaScript (objects, JSON, sorting,
//   hashing: the kinds of work a request does) takes here, the fastest of 7 runs (lower is faster).
//   Two results whose reference differs by more than its own spread (about 15% on one machine)
//   came from machines of different speed, whatever the tree.
// - `cpu` over the run (`busy_pct`, `steal_pct` from /proc/stat): how busy the machine's processors
//   were, and how much time the hypervisor gave to other guests while this one wanted to run. A run
//   with a few percent of steal measured a slower machine than the one before it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';

/** One run of the fixed work; answers a checksum so that nothing of it can be optimised away. */
function referenceWork(): number {
  const rows = [];
  for (let i = 0; i < 20_000; i++)
    rows.push({ id: i, start: new Date(1_700_000_000_000 + i * 900_000).toISOString(), name: `row ${i}`, n: (i * 7919) % 1000 });
  const parsed = JSON.parse(JSON.stringify(rows)) as typeof rows;
  parsed.sort((a, b) => a.n - b.n || a.start.localeCompare(b.start));
  const hash = crypto.createHash('sha256');
  for (const r of parsed) hash.update(r.name);
  return parsed[0].id + hash.digest()[0];
}

let reference: number | null = null;

/** Milliseconds the fixed work takes on this machine now (measured once per process). */
export function referenceMs(): number {
  if (reference !== null) return reference;
  referenceWork(); // warm-up: compiled code, not the first interpretation
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    referenceWork();
    times.push(performance.now() - t);
  }
  // The fastest run: whatever else the machine did only ever adds time (steal_pct reports that).
  reference = Math.round(Math.min(...times) * 10) / 10;
  return reference;
}

/** The machine as every result file describes it. */
export function machineInfo() {
  return {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    reference_ms: referenceMs(),
  };
}

interface CpuTicks {
  busy: number;
  steal: number;
  total: number;
}

/** The machine's processor time so far from /proc/stat's first line (Linux), or null elsewhere. */
function cpuTicks(): CpuTicks | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
    // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is counted in user)
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return { busy: user + nice + system + irq + softirq, steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
  } catch {
    return null;
  }
}

/** Starts watching the processors; `share()` answers how busy they were since, and how much was stolen. */
export function watchCpu(): { share(): { busy_pct: number; steal_pct: number } | null } {
  const from = cpuTicks();
  return {
    share() {
      const to = cpuTicks();
      if (!from || !to || to.total === from.total) return null;
      const pct = (x: number) => Math.round((x / (to.total - from.total)) * 1000) / 10;
      return { busy_pct: pct(to.busy - from.busy), steal_pct: pct(to.steal - from.steal) };
    },
  };
}

/** The 1, 5 and 15 minute load averages, rounded to `digits` decimals as the result files show them. */
export function loadAverage(digits = 2): number[] {
  const scale = 10 ** digits;
  return os.loadavg().map((l) => Math.round(l * scale) / scale);
}
