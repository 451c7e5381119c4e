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
  /** The path of the next request (a GET)... */
  path?: () => string;
  /** ...or the whole next request; its `kind` gets latencies and statuses of its own in `by_kind`. */
  request?: () => OpenLoopRequest;
  /** Sockets at most (keep-alive); requests beyond wait for one, and their wait counts. */
  connections?: number;
  /**
   * A request not answered this long after it was due is given up and counted in `timeouts`, with
   * this as its latency (a lower bound), so a server far slower than the rate ends the load soon
   * after its `seconds` instead of draining a backlog for minutes.
   */
  timeoutMs?: number;
}

export interface OpenLoopRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  kind?: string;
}

export interface KindResult {
  count: number;
  latency_ms: { p50: number; p99: number; max: number };
  statuses: Record<string, number>;
}

export interface OpenLoopResult {
  target_rate: number;
  requests_per_s: number;
  latency_ms: { p50: number; p99: number; max: number };
  total: number;
  non_2xx: number;
  errors: number;
  timeouts: number;
  /**
   * How late this process put requests on their way (ms after due, p99 and max): the generator's own
   * stalls (its garbage collection, a core taken by the server), which the latencies above include.
   */
  send_late_ms: { p99: number; max: number };
  by_kind?: Record<string, KindResult>;
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
  const late: number[] = [];
  const timeoutMs = o.timeoutMs ?? 10_000;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let sent = 0;
  let done = 0;
  const kinds = new Map<string, { latencies: number[]; statuses: Record<string, number> }>();
  const next = (): OpenLoopRequest => (o.request ? o.request() : { method: 'GET', path: o.path!() });
  const start = performance.now();

  await new Promise<void>((resolve) => {
    const finish = () => {
      done++;
      if (done === total) resolve();
    };
    const send = (due: number) => {
      late.push(performance.now() - due);
      const r = next();
      let settled = false;
      const settle = (latency: number, outcome: 'ok' | 'non2xx' | 'error' | 'timeout', status?: number) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        latencies.push(latency);
        if (r.kind !== undefined) {
          let k = kinds.get(r.kind);
          if (!k) kinds.set(r.kind, (k = { latencies: [], statuses: {} }));
          k.latencies.push(latency);
          const key = status === undefined ? outcome : String(status);
          k.statuses[key] = (k.statuses[key] ?? 0) + 1;
        }
        if (outcome === 'non2xx') non2xx++;
        else if (outcome === 'error') errors++;
        else if (outcome === 'timeout') timeouts++;
        finish();
      };
      const headers: Record<string, string> = { accept: 'application/json', ...r.headers };
      if (r.body !== undefined) headers['content-type'] = 'application/json';
      const req = http.request({ host: base.hostname, port: base.port, path: r.path, method: r.method, agent, headers }, (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          const ok = res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300;
          settle(performance.now() - due, ok ? 'ok' : 'non2xx', res.statusCode);
        });
      });
      // Timed from when the request was due: a request still queued for a socket then is given up too.
      const timer = setTimeout(
        () => {
          settle(timeoutMs, 'timeout');
          req.destroy();
        },
        Math.max(0, due + timeoutMs - performance.now()),
      );
      req.on('error', () => settle(performance.now() - due, 'error'));
      req.end(r.body);
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
  late.sort((x, y) => x - y);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    target_rate: o.rate,
    // Answered requests only: a given-up one was not served.
    requests_per_s: Math.round((done - timeouts - errors) / elapsed),
    latency_ms: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), max: round(latencies.at(-1) ?? 0) },
    total: done,
    non_2xx: non2xx,
    errors,
    timeouts,
    send_late_ms: { p99: round(percentile(late, 99)), max: round(late.at(-1) ?? 0) },
    ...(kinds.size > 0 && {
      by_kind: Object.fromEntries(
        [...kinds].map(([kind, k]) => {
          k.latencies.sort((x, y) => x - y);
          const latency_ms = {
            p50: round(percentile(k.latencies, 50)),
            p99: round(percentile(k.latencies, 99)),
            max: round(k.latencies.at(-1) ?? 0),
          };
          return [kind, { count: k.latencies.length, latency_ms, statuses: k.statuses }];
        }),
      ),
    }),
  };
}
