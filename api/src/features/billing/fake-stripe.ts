// A local stand-in for the few Stripe endpoints billing calls, for tests: canned answers, every request recorded.
// With `hosted`, it also serves the pages Stripe hosts, for browser tests: a checkout page whose Pay button
// starts the subscription and posts Stripe's signed checkout.session.completed webhook to the app (as the
// real Stripe does, before the customer is sent back to the success URL), and a billing portal page.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

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

export interface HostedPagesOptions {
  /** Where the "completed" checkout's event goes: the app's POST /api/stripe/webhook (read at each completion, so it may be set after the app starts). */
  webhookUrl: string;
  /** The endpoint's signing secret (STRIPE_WEBHOOK_SECRET), so the event is signed as the real one. */
  webhookSecret: string;
  /** The paid period a completed checkout starts (default 30 days). */
  periodDays?: number;
}

interface CheckoutSessionRecord {
  id: string;
  customer: string;
  price: string;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  subscriptionMetadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  subscription: string | null;
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

/** The form fields under `prefix[...]` (Stripe's encoding of a nested object), keyed by the inner name. */
function nested(form: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  const head = `${prefix}[`;
  for (const [k, v] of Object.entries(form)) {
    if (k.startsWith(head) && k.endsWith(']') && !k.slice(head.length, -1).includes('[')) out[k.slice(head.length, -1)] = v;
  }
  return out;
}

const escapeHtml = (v: string) => v.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family: sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem"><main>${body}</main></body></html>`;
}

function missing(param: string, message: string) {
  return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param, message } } };
}

export async function startFakeStripe(options: { hosted?: HostedPagesOptions } = {}): Promise<FakeStripe> {
  const requests: RecordedStripeRequest[] = [];
  const subscriptions = new Map<string, FakeSubscription>();
  const deletedCustomers = new Set<string>();
  const sessions = new Map<string, CheckoutSessionRecord>();
  const portals = new Map<string, { customer: string; returnUrl: string }>();
  const hosted = options.hosted;
  let counter = 0;
  let base = '';

  const answer = (req: RecordedStripeRequest): { status: number; body: unknown } => {
    const n = ++counter;
    if (req.method === 'POST' && req.path === '/v1/customers') {
      return { status: 200, body: { id: `cus_fake_${n}`, object: 'customer', name: req.form.name ?? null, email: req.form.email ?? null } };
    }
    if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
      if (deletedCustomers.has(req.form.customer)) return missing('customer', `No such customer: '${req.form.customer}'`);
      const id = `cs_fake_${n}`;
      sessions.set(id, {
        id,
        customer: req.form.customer,
        price: req.form['line_items[0][price]'],
        clientReferenceId: req.form.client_reference_id ?? null,
        metadata: nested(req.form, 'metadata'),
        subscriptionMetadata: nested(req.form, 'subscription_data[metadata]'),
        successUrl: req.form.success_url,
        cancelUrl: req.form.cancel_url,
        subscription: null,
      });
      return {
        status: 200,
        body: {
          id,
          object: 'checkout.session',
          mode: req.form.mode,
          url: hosted ? `${base}/c/pay/${id}` : `https://checkout.stripe.test/c/pay/${id}`,
        },
      };
    }
    if (req.method === 'POST' && req.path === '/v1/billing_portal/sessions') {
      if (deletedCustomers.has(req.form.customer)) return missing('customer', `No such customer: '${req.form.customer}'`);
      portals.set(`bps_fake_${n}`, { customer: req.form.customer, returnUrl: req.form.return_url });
      return {
        status: 200,
        body: {
          id: `bps_fake_${n}`,
          object: 'billing_portal.session',
          customer: req.form.customer,
          url: hosted ? `${base}/p/session/bps_fake_${n}` : `https://billing.stripe.test/p/session/bps_fake_${n}`,
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

  /** The customer paid: the subscription starts, and Stripe tells the app before sending the customer back. */
  async function completeCheckout(session: CheckoutSessionRecord, to: HostedPagesOptions): Promise<{ status: number; text: string }> {
    const n = ++counter;
    const periodEnd = Math.floor(Date.now() / 1000) + (to.periodDays ?? 30) * 86_400;
    const subscription: FakeSubscription = {
      id: `sub_fake_${n}`,
      customer: session.customer,
      status: 'active',
      metadata: session.subscriptionMetadata,
      items: [{ price: session.price, current_period_end: periodEnd }],
    };
    subscriptions.set(subscription.id, subscription);
    session.subscription = subscription.id;
    const event = {
      id: `evt_fake_${n}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: session.id,
          object: 'checkout.session',
          mode: 'subscription',
          status: 'complete',
          payment_status: 'paid',
          client_reference_id: session.clientReferenceId,
          customer: session.customer,
          subscription: subscription.id,
          metadata: session.metadata,
        },
      },
    };
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: to.webhookSecret });
    const res = await fetch(to.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
    return { status: res.status, text: await res.text() };
  }

  type HostedAnswer = { status: number; html?: string; location?: string };
  /** The pages Stripe hosts; null for any other path. */
  async function hostedPage(method: string, path: string, to: HostedPagesOptions): Promise<HostedAnswer | null> {
    const pay = /^\/c\/pay\/([^/]+)(\/complete)?$/.exec(path);
    if (pay) {
      const session = sessions.get(decodeURIComponent(pay[1]));
      if (!session) return { status: 404, html: page('Not found', '<h1>This checkout link is not valid</h1>') };
      if (method === 'POST' && pay[2]) {
        if (!session.subscription) {
          const delivered = await completeCheckout(session, to);
          if (delivered.status !== 200) {
            session.subscription = null;
            return {
              status: 502,
              html: page('Webhook failed', `<h1>The webhook answered ${delivered.status}</h1><pre>${escapeHtml(delivered.text)}</pre>`),
            };
          }
        }
        return { status: 303, location: session.successUrl.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id)) };
      }
      if (method !== 'GET' || pay[2]) return { status: 405, html: page('Not allowed', '<h1>Not allowed</h1>') };
      return {
        status: 200,
        html: page(
          'Fake Stripe Checkout',
          `<h1>Fake Stripe Checkout</h1><p>Subscribe to <strong data-price="${escapeHtml(session.price)}">${escapeHtml(session.price)}</strong> as ${escapeHtml(session.customer)}.</p>` +
            `<form method="post" action="/c/pay/${encodeURIComponent(session.id)}/complete"><button type="submit">Pay and subscribe</button></form>` +
            `<p><a href="${escapeHtml(session.cancelUrl)}">Cancel</a></p>`,
        ),
      };
    }
    const portal = /^\/p\/session\/([^/]+)$/.exec(path);
    if (portal && method === 'GET') {
      const found = portals.get(decodeURIComponent(portal[1]));
      if (!found) return { status: 404, html: page('Not found', '<h1>This billing link is not valid</h1>') };
      return {
        status: 200,
        html: page(
          'Fake Stripe billing portal',
          `<h1>Fake Stripe billing portal</h1><p>Customer <strong data-customer="${escapeHtml(found.customer)}">${escapeHtml(found.customer)}</strong></p>` +
            `<p><a href="${escapeHtml(found.returnUrl)}">Return to the app</a></p>`,
        ),
      };
    }
    return null;
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fake-stripe');
      if (hosted && !url.pathname.startsWith('/v1/')) {
        // Browser pages are not API calls: not recorded.
        const answer: HostedAnswer | null = await hostedPage(req.method ?? 'GET', url.pathname, hosted).catch((err: unknown) => ({
          status: 500,
          html: page('Error', `<h1>Fake Stripe failed</h1><pre>${escapeHtml(String(err))}</pre>`),
        }));
        if (!answer) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('Not found');
        } else if (answer.location) {
          res.writeHead(answer.status, { location: answer.location });
          res.end();
        } else {
          res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' });
          res.end(answer.html);
        }
        return;
      }
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
  base = `http://127.0.0.1:${port}`;

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
