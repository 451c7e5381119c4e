// A local stand-in for the few Stripe endpoints billing calls, for tests: canned answers, every request recorded.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedStripeRequest {
  method: string;
  path: string;
  /** The form fields as Stripe's library sends them: `metadata[company_id]`, `line_items[0][price]`. */
  form: Record<string, string>;
}

export interface FakeSubscription {
  id: string;
  customer: string;
  status: string;
  metadata?: Record<string, string>;
  /** Old API versions kept the period here; current ones keep it on each item. */
  current_period_end?: number;
  items: { price: string; current_period_end?: number }[];
}

export interface FakeStripe {
  /** For STRIPE_API_BASE. */
  url: string;
  requests: RecordedStripeRequest[];
  subscriptions: Map<string, FakeSubscription>;
  /** Customers Stripe answers "No such customer" for (deleted in the dashboard). */
  deletedCustomers: Set<string>;
  requestsTo(method: string, path: string): RecordedStripeRequest[];
  close(): Promise<void>;
}

function subscriptionJson(s: FakeSubscription) {
  return {
    id: s.id,
    object: 'subscription',
    customer: s.customer,
    status: s.status,
    metadata: s.metadata ?? {},
    ...(s.current_period_end !== undefined ? { current_period_end: s.current_period_end } : {}),
    items: {
      object: 'list',
      data: s.items.map((item, i) => ({
        id: `si_${s.id}_${i}`,
        object: 'subscription_item',
        price: { id: item.price, object: 'price' },
        quantity: 1,
        ...(item.current_period_end !== undefined ? { current_period_end: item.current_period_end } : {}),
      })),
    },
  };
}

function missing(param: string, message: string) {
  return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param, message } } };
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedStripeRequest[] = [];
  const subscriptions = new Map<string, FakeSubscription>();
  const deletedCustomers = new Set<string>();
  let counter = 0;

  const answer = (req: RecordedStripeRequest): { status: number; body: unknown } => {
    const n = ++counter;
    if (req.method === 'POST' && req.path === '/v1/customers') {
      return { status: 200, body: { id: `cus_fake_${n}`, object: 'customer', name: req.form.name ?? null, email: req.form.email ?? null } };
    }
    if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
      if (deletedCustomers.has(req.form.customer)) return missing('customer', `No such customer: '${req.form.customer}'`);
      return {
        status: 200,
        body: {
          id: `cs_fake_${n}`,
          object: 'checkout.session',
          mode: req.form.mode,
          url: `https://checkout.stripe.test/c/pay/cs_fake_${n}`,
        },
      };
    }
    if (req.method === 'POST' && req.path === '/v1/billing_portal/sessions') {
      return {
        status: 200,
        body: {
          id: `bps_fake_${n}`,
          object: 'billing_portal.session',
          customer: req.form.customer,
          url: `https://billing.stripe.test/p/session/bps_fake_${n}`,
        },
      };
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && sub) {
      const found = subscriptions.get(decodeURIComponent(sub[1]));
      return found ? { status: 200, body: subscriptionJson(found) } : missing('id', `No such subscription: '${sub[1]}'`);
    }
    return {
      status: 404,
      body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.path})` } },
    };
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake-stripe');
      const recorded: RecordedStripeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        form: Object.fromEntries(new URLSearchParams(raw)),
      };
      requests.push(recorded);
      const { status, body } = answer(recorded);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_fake_${counter}` });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    subscriptions,
    deletedCustomers,
    requestsTo: (method, path) => requests.filter((r) => r.method === method && r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
