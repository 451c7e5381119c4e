// Prometheus metrics of one API process (prom-client; docs/decisions/32-privacy-and-operations.md):
// requests by route template and status, their latency, bookings made, the outbox by state and
// the process's own figures. The request hook runs on every request, so it does the least it can:
// one Map lookup and a few additions into plain numbers; the Prometheus series are built from them
// only when scraped (prom-client's labelled histogram costs microseconds per observation: it hashes
// the labels every time).
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

export interface OutboxCount {
  channel: string;
  state: string;
  count: number;
}

export interface Metrics {
  readonly contentType: string;
  /** Records one answered request; `route` is the matched template (`/api/users/:id`), never the raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  bookingMade(): void;
  /** The exposition text; reads the outbox counts from the database. */
  render(): Promise<string>;
}

/** Latency buckets (seconds): the booking page's reads answer in milliseconds, exports and bookings in tens of them. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface RouteStats {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Observations per bucket, not cumulative (the last slot is above the largest bound). */
  buckets: Float64Array;
}

type Sample = { value: number; labels: Record<string, string | number>; metricName?: string };

/** A metric prom-client's registry renders from what `values()` answers at scrape time. */
function scrapedMetric(name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]) {
  return {
    name,
    help,
    type,
    aggregator: 'sum' as const,
    get: async () => ({ name, help, type, aggregator: 'sum' as const, values: values() }),
    reset() {},
  };
}

export function createMetrics(opts: { outboxCounts: () => Promise<OutboxCount[]> }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  // Route templates, methods and statuses are few, so this stays small.
  const stats = new Map<string, RouteStats>();
  const requestsName = 'bookwell_http_requests_total';
  const durationName = 'bookwell_http_request_duration_seconds';
  registry.registerMetric(
    scrapedMetric(requestsName, 'HTTP requests answered, by method, route template and status', 'counter', () =>
      [...stats.values()].map((s) => ({ value: s.count, labels: s.labels })),
    ) as never,
  );
  registry.registerMetric(
    scrapedMetric(durationName, 'Time to answer an HTTP request, by method, route template and status', 'histogram', () =>
      [...stats.values()].flatMap((s) => {
        const out: Sample[] = [];
        let cumulative = 0;
        BUCKETS.forEach((le, i) => {
          cumulative += s.buckets[i]!;
          out.push({ metricName: `${durationName}_bucket`, value: cumulative, labels: { le, ...s.labels } });
        });
        out.push({ metricName: `${durationName}_bucket`, value: s.count, labels: { le: '+Inf', ...s.labels } });
        out.push({ metricName: `${durationName}_sum`, value: s.sum, labels: s.labels });
        out.push({ metricName: `${durationName}_count`, value: s.count, labels: s.labels });
        return out;
      }),
    ) as never,
  );
  const bookings = new Counter({
    name: 'bookwell_bookings_total',
    help: 'Appointments booked (201 answers to POST /api/appointments, replays excluded)',
    registers: [registry],
  });
  new Gauge<'channel' | 'state'>({
    name: 'bookwell_outbox_messages',
    help: 'Outbox messages by channel and state (read from the database at each scrape: the whole deployment, not this process)',
    labelNames: ['channel', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await opts.outboxCounts()) this.set({ channel: row.channel, state: row.state }, row.count);
    },
  });

  return {
    contentType: registry.contentType,
    observeRequest(method, route, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let s = stats.get(key);
      if (!s) {
        s = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(BUCKETS.length + 1) };
        stats.set(key, s);
      }
      s.count++;
      s.sum += seconds;
      let i = 0;
      while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
      s.buckets[i]!++;
    },
    bookingMade() {
      bookings.inc();
    },
    render: () => registry.metrics(),
  };
}
