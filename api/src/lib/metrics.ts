// Prometheus metrics of one API process (prom-client; docs/decisions/32-privacy-and-operations.md):
// requests by route template and status, their latency, bookings made, the outbox by state and
// the process's own figures. The request hook runs on every request, so it does the least it can:
// one Map lookup for label-bound children (no label hashing per request) and two increments.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type LabelValues } from 'prom-client';

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

type RequestLabels = 'method' | 'route' | 'status';

/** Latency buckets (seconds): the booking page's reads answer in milliseconds, exports and bookings in tens of them. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(opts: { outboxCounts: () => Promise<OutboxCount[]> }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter<RequestLabels>({
    name: 'bookwell_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram<RequestLabels>({
    name: 'bookwell_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: BUCKETS,
    registers: [registry],
  });
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

  // Route templates and statuses are few, so this stays small; each entry holds the bound children.
  const children = new Map<string, { count: Counter.Internal; time: Histogram.Internal<RequestLabels> }>();
  return {
    contentType: registry.contentType,
    observeRequest(method, route, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let child = children.get(key);
      if (!child) {
        const labels: LabelValues<RequestLabels> = { method, route, status: String(status) };
        child = { count: requests.labels(labels), time: duration.labels(labels) };
        children.set(key, child);
      }
      child.count.inc();
      child.time.observe(seconds);
    },
    bookingMade() {
      bookings.inc();
    },
    render: () => registry.metrics(),
  };
}
