// An open-loop load: requests sent on a fixed schedule (`rate` a second, evenly spaced), whatever the
// server's answers, each one's latency measured from the moment it was due, not from when it could
// be sent. This is what "p99 at N req/s" means: autocannon's closed loop (each connection waits for
// its answer) measures the latency of a saturated server, set by how many connections are open, and
// its `overallRate` releases each second's requests in a burst at the start of the second. A request
// the client could not send on time (every socket busy) counts its wait, so a server that falls
// behind shows it instead of slowing the schedule down (no coordinated omission).
import http from 'node:http';

export interface OpenLoopOptions {
  /** Base URL of the server (http://127.0.0.1:port). */
  url: string;
  /** Requests a second. */
  rate: number;
  seconds: number;
  /** The path of the next request. */
  path: () => string;
  /** Sockets at most (keep-alive); requests beyond wait for one, and their wait counts. */
  connections?: number;
}

export interface OpenLoopResult {
  target_rate: number;
  requests_per_s: number;
  latency_ms: { p50: number; p99: number; max: number };
  total: number;
  non_2xx: number;
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function openLoop(o: OpenLoopOptions): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections ?? 100 });
  const base = new URL(o.url);
  const interval = 1000 / o.rate;
  const total = Math.round(o.rate * o.seconds);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let done = 0;
  const start = performance.now();

  await new Promise<void>((resolve) => {
    const finish = () => {
      done++;
      if (done === total) resolve();
    };
    const send = (due: number) => {
      const req = http.request(
        { host: base.hostname, port: base.port, path: o.path(), method: 'GET', agent, headers: { accept: 'application/json' } },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => {
            latencies.push(performance.now() - due);
            if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) non2xx++;
            finish();
          });
        },
      );
      req.on('error', () => {
        errors++;
        finish();
      });
      req.end();
    };
    // Each tick sends every request that has come due; a late tick sends the backlog at once, and
    // each of those requests is still timed from when it was due.
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        send(start + sent * interval);
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, Math.min(1, start + sent * interval - performance.now())));
    };
    tick();
  });
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((x, y) => x - y);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    target_rate: o.rate,
    requests_per_s: Math.round(done / elapsed),
    latency_ms: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), max: round(latencies.at(-1) ?? 0) },
    total: done,
    non_2xx: non2xx,
    errors,
  };
}
