// Checkout, billing portal and the Stripe webhook through real HTTP against a local fake Stripe, on every test dialect.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { createTestDatabase, testDialects, type TestDatabase } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, companyWithPeople, type TestCompany, type TestPerson } from '../../testing/company-people.ts';
import { databaseFingerprint } from '../../testing/fingerprint.ts';
import { startFakeStripe, type FakeStripe, type FakeSubscription } from './fake-stripe.ts';
import { subscriptionState } from './subscription.rules.ts';

const WEBHOOK_SECRET = 'whsec_test_bookwell';
const APP_URL = 'https://book.example';
const PRICES = { standard: 'price_standard_test', enterprise: 'price_enterprise_test' };
const PLAN_TEXT = 'Invalid plan selected or product ID not configured.';
const DAY = 86_400;

const stripeEnv = (fake: FakeStripe, extra: Record<string, string> = {}) => ({
  STRIPE_SECRET_KEY: 'sk_test_fake',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_PRICE_STANDARD: PRICES.standard,
  STRIPE_PRICE_ENTERPRISE: PRICES.enterprise,
  STRIPE_API_BASE: fake.url,
  APP_URL,
  ...extra,
});

let eventCounter = 0;
function stripeEvent(type: string, object: Record<string, unknown>, id = `evt_test_${process.pid}_${++eventCounter}`) {
  return { id, object: 'event', type, api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), data: { object } };
}

/** Sends an event the way Stripe does: the exact bytes, signed with the endpoint's secret. */
function postEvent(t: TestServer, event: unknown, opts: { secret?: string; payload?: string } = {}) {
  const payload = opts.payload ?? JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload: JSON.stringify(event), secret: opts.secret ?? WEBHOOK_SECRET });
  return t.call('POST', '/stripe/webhook', { raw: payload, headers: { 'stripe-signature': signature } });
}

const inDays = (days: number) => Math.floor(Date.now() / 1000) + days * DAY;
const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

describe.each(testDialects())('billing on %s', (dialect) => {
  let database: TestDatabase;
  let fake: FakeStripe;
  /** Stripe fully configured. */
  let t: TestServer;
  /** Same database, no Stripe at all. */
  let bare: TestServer;
  /** Same database, no enterprise price. */
  let noEnterprise: TestServer;
  let a: TestCompany;
  let b: TestCompany;
  let global: TestPerson;

  const company = (id: number) => t.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const checkout = (server: TestServer, token: string | null, body: unknown) =>
    server.call('POST', '/create-checkout-session', { token, body });

  beforeAll(async () => {
    fake = await startFakeStripe();
    database = await createTestDatabase(dialect);
    t = await startTestServer(dialect, { database, env: stripeEnv(fake) });
    bare = await startTestServer(dialect, { database });
    noEnterprise = await startTestServer(dialect, { database, env: stripeEnv(fake, { STRIPE_PRICE_ENTERPRISE: '' }) });
    a = await companyWithPeople(t, 'Alpha Salon');
    b = await companyWithPeople(t, 'Beta Barbers');
    global = await addGlobalAdmin(t);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([t?.close(), bare?.close(), noEnterprise?.close()]);
    await fake?.close();
    await database?.drop();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  describe('POST /create-checkout-session', () => {
    it('answers 503 "Payments are not configured" without a Stripe key, and writes nothing', async () => {
      const before = await databaseFingerprint(t.db);
      const res = await checkout(bare, a.admin.token, { company_id: a.companyId, product_id: 'standard' });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'Payments are not configured', code: 'not_configured' });
      expect(await databaseFingerprint(t.db)).toBe(before);
      expect(fake.requests).toEqual([]);
    });

    it('answers 400 with the plan message for a plan whose price is not configured, or an unknown plan, before calling Stripe', async () => {
      const before = await databaseFingerprint(t.db);
      const unpriced = await checkout(noEnterprise, a.admin.token, { company_id: a.companyId, product_id: 'enterprise' });
      expect(unpriced.status).toBe(400);
      expect(unpriced.body).toMatchObject({ error: PLAN_TEXT, code: 'validation' });
      const unknown = await checkout(t, a.admin.token, { company_id: a.companyId, product_id: 'gold' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toBe(PLAN_TEXT);
      const missing = await checkout(t, a.admin.token, { company_id: a.companyId });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('product_id is required');
      expect(await databaseFingerprint(t.db)).toBe(before);
      expect(fake.requests).toEqual([]);
    });

    it('lets only the company admin (and global_admin) in: managers and other staff 403, another company 404', async () => {
      const body = { company_id: a.companyId, product_id: 'standard' };
      const before = await databaseFingerprint(t.db);
      expect((await checkout(t, null, body)).status).toBe(401);
      for (const who of [a.manager, a.employee, a.user, a.customer]) {
        const res = await checkout(t, who.token, body);
        expect(res.status, who.role).toBe(403);
        expect(res.body.code).toBe('forbidden');
      }
      const other = await checkout(t, b.admin.token, body);
      expect(other.status).toBe(404);
      expect(other.body.code).toBe('not_found');
      expect((await checkout(t, global.token, { company_id: 999_999, product_id: 'standard' })).status).toBe(404);
      expect(await databaseFingerprint(t.db)).toBe(before);
      expect(fake.requests).toEqual([]);
    });

    it('creates the Stripe customer once, then opens a subscription checkout for the company that reuses it', async () => {
      const first = await checkout(t, a.admin.token, { company_id: a.companyId, product_id: 'standard' });
      expect(first.status).toBe(200);
      expect(first.body.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_fake_\d+$/);
      expect(Object.keys(first.body)).toEqual(['url']);

      const [customer] = fake.requestsTo('POST', '/v1/customers');
      expect(customer.form).toMatchObject({ name: 'Alpha Salon', 'metadata[company_id]': String(a.companyId) });
      const stored = (await company(a.companyId)).stripe_customer_id;
      expect(stored).toMatch(/^cus_fake_\d+$/);

      const [session] = fake.requestsTo('POST', '/v1/checkout/sessions');
      expect(session.form).toMatchObject({
        mode: 'subscription',
        customer: stored,
        client_reference_id: String(a.companyId),
        'metadata[company_id]': String(a.companyId),
        'subscription_data[metadata][company_id]': String(a.companyId),
        'line_items[0][price]': PRICES.standard,
        'line_items[0][quantity]': '1',
        success_url: `${APP_URL}/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${APP_URL}/cancel`,
      });

      fake.requests.length = 0;
      const second = await checkout(t, a.admin.token, { company_id: a.companyId, product_id: 'enterprise' });
      expect(second.status).toBe(200);
      expect(fake.requestsTo('POST', '/v1/customers')).toEqual([]);
      const [again] = fake.requestsTo('POST', '/v1/checkout/sessions');
      expect(again.form).toMatchObject({ customer: stored, 'line_items[0][price]': PRICES.enterprise });
      expect((await company(a.companyId)).stripe_customer_id).toBe(stored);
    });

    it('answers 502 when Stripe cannot be reached, and stores nothing', async () => {
      const unreachable = await startTestServer(dialect, { database, env: stripeEnv(fake, { STRIPE_API_BASE: 'http://127.0.0.1:9' }) });
      try {
        const before = await databaseFingerprint(t.db);
        const res = await checkout(unreachable, a.admin.token, { company_id: a.companyId, product_id: 'standard' });
        expect(res.status).toBe(502);
        expect(res.body).toMatchObject({ error: 'The payment provider could not be reached. Please try again.' });
        expect(await databaseFingerprint(t.db)).toBe(before);
      } finally {
        await unreachable.close();
      }
    }, 20_000);

    it('lets global_admin start a checkout for any company', async () => {
      const res = await checkout(t, global.token, { company_id: b.companyId, product_id: 'standard' });
      expect(res.status).toBe(200);
      expect(fake.requestsTo('POST', '/v1/checkout/sessions')[0].form.client_reference_id).toBe(String(b.companyId));
    });

    it('starts a company whose Stripe customer was deleted on a fresh customer', async () => {
      const c = await companyWithPeople(t, 'Gamma Spa');
      await t.db.updateTable('companies').set({ stripe_customer_id: 'cus_deleted_gamma' }).where('id', '=', c.companyId).execute();
      fake.deletedCustomers.add('cus_deleted_gamma');
      const res = await checkout(t, c.admin.token, { company_id: c.companyId, product_id: 'standard' });
      expect(res.status).toBe(200);
      const fresh = (await company(c.companyId)).stripe_customer_id;
      expect(fresh).toMatch(/^cus_fake_\d+$/);
      expect(fake.requestsTo('POST', '/v1/checkout/sessions').map((r) => r.form.customer)).toEqual(['cus_deleted_gamma', fresh]);
    });

    it('sends a company with an active paid subscription to the billing portal instead of a second checkout', async () => {
      const c = await companyWithPeople(t, 'Delta Dental');
      await t.db
        .updateTable('companies')
        .set({
          subscription_plan: 'standard',
          subscription_expires_at: isoOf(inDays(20)),
          stripe_customer_id: 'cus_delta',
          stripe_subscription_id: 'sub_delta',
        })
        .where('id', '=', c.companyId)
        .execute();
      const res = await checkout(t, c.admin.token, { company_id: c.companyId, product_id: 'enterprise' });
      expect(res.status).toBe(200);
      expect(res.body.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
      expect(fake.requestsTo('POST', '/v1/checkout/sessions')).toEqual([]);
      expect(fake.requestsTo('POST', '/v1/billing_portal/sessions')[0].form).toEqual({
        customer: 'cus_delta',
        return_url: `${APP_URL}/upgrade`,
      });

      // Once it has expired, subscribing is a checkout again.
      await t.db
        .updateTable('companies')
        .set({ subscription_expires_at: isoOf(inDays(-1)) })
        .where('id', '=', c.companyId)
        .execute();
      fake.requests.length = 0;
      expect((await checkout(t, c.admin.token, { company_id: c.companyId, product_id: 'enterprise' })).status).toBe(200);
      expect(fake.requestsTo('POST', '/v1/checkout/sessions')[0].form.customer).toBe('cus_delta');
    });
  });

  describe('POST /billing/portal', () => {
    const portal = (server: TestServer, token: string | null, body: unknown) => server.call('POST', '/billing/portal', { token, body });

    it("opens the portal on the company's Stripe customer, coming back to Company settings; global_admin may too", async () => {
      const c = await companyWithPeople(t, 'Kappa Clinic');
      await t.db.updateTable('companies').set({ stripe_customer_id: 'cus_kappa' }).where('id', '=', c.companyId).execute();
      const res = await portal(t, c.admin.token, { company_id: c.companyId });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ url: expect.stringMatching(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_fake_\d+$/) });
      expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/billing_portal/sessions']);
      expect(fake.requests[0].form).toEqual({ customer: 'cus_kappa', return_url: `${APP_URL}/company-settings` });
      expect((await portal(t, global.token, { company_id: c.companyId })).status).toBe(200);
    });

    it('answers 409 for a company without a Stripe customer (or one Stripe deleted), creating nothing in Stripe', async () => {
      const c = await companyWithPeople(t, 'Lambda Lounge');
      const before = await databaseFingerprint(t.db);
      const none = await portal(t, c.admin.token, { company_id: c.companyId });
      expect(none.status).toBe(409);
      expect(none.body).toEqual({ error: 'This company has no billing account yet. Choose a plan first.', code: 'conflict' });
      expect(fake.requests).toEqual([]);
      expect(await databaseFingerprint(t.db)).toBe(before);

      await t.db.updateTable('companies').set({ stripe_customer_id: 'cus_lambda_gone' }).where('id', '=', c.companyId).execute();
      fake.deletedCustomers.add('cus_lambda_gone');
      const gone = await portal(t, c.admin.token, { company_id: c.companyId });
      expect(gone.status).toBe(409);
      expect(gone.body.code).toBe('conflict');
    });

    it('lets only the company admin and global_admin in, and answers 503 without Stripe, calling nobody', async () => {
      const c = await companyWithPeople(t, 'Mu Massage');
      await t.db.updateTable('companies').set({ stripe_customer_id: 'cus_mu' }).where('id', '=', c.companyId).execute();
      const body = { company_id: c.companyId };
      expect((await portal(t, null, body)).status).toBe(401);
      for (const who of [c.manager, c.employee, c.user, c.customer]) expect((await portal(t, who.token, body)).status, who.role).toBe(403);
      expect((await portal(t, a.admin.token, body)).status).toBe(404);
      expect((await portal(t, global.token, { company_id: 999_999 })).status).toBe(404);
      expect((await portal(t, c.admin.token, { company_id: 'x' })).status).toBe(400);
      const bareRes = await portal(bare, c.admin.token, body);
      expect(bareRes.status).toBe(503);
      expect(bareRes.body.code).toBe('not_configured');
      expect(fake.requests).toEqual([]);
    });
  });

  describe('the whole checkout round trip through the fake Stripe pages', () => {
    let hosted: FakeStripe;
    let app: TestServer;
    beforeAll(async () => {
      // `app` talks to this fake, and the fake posts its events to `app` (read when a checkout completes).
      const pages = { webhookUrl: '', webhookSecret: WEBHOOK_SECRET };
      hosted = await startFakeStripe({ hosted: pages });
      app = await startTestServer(dialect, { database, env: stripeEnv(hosted) });
      pages.webhookUrl = `${app.url}/api/stripe/webhook`;
    });
    afterAll(async () => {
      await app?.close();
      await hosted?.close();
    });

    it('checkout, pay, the signed webhook, and the plan is on the company before the customer is back on /success', async () => {
      const c = await companyWithPeople(t, 'Nu Nails');
      const started = await checkout(app, c.admin.token, { company_id: c.companyId, product_id: 'standard' });
      expect(started.status, started.text).toBe(200);
      expect(started.body.url).toMatch(new RegExp(`^${hosted.url}/c/pay/cs_fake_\\d+$`));
      const pageRes = await fetch(started.body.url);
      expect(pageRes.status).toBe(200);
      expect(await pageRes.text()).toContain(PRICES.standard);
      expect((await company(c.companyId)).subscription_plan).toBe('trial');

      const paid = await fetch(`${started.body.url}/complete`, { method: 'POST', redirect: 'manual' });
      expect(paid.status).toBe(303);
      expect(paid.headers.get('location')).toMatch(new RegExp(`^${APP_URL}/success\\?session_id=cs_fake_\\d+$`));
      const row = await company(c.companyId);
      const [sub] = [...hosted.subscriptions.values()];
      expect(row).toMatchObject({ subscription_plan: 'standard', stripe_subscription_id: sub.id, stripe_customer_id: sub.customer });
      expect(Date.parse(row.subscription_expires_at!)).toBeGreaterThan(Date.now() + 29 * DAY * 1000);

      // Paying again (a double click) sends no second event; the portal is now the way in.
      const again = await fetch(`${started.body.url}/complete`, { method: 'POST', redirect: 'manual' });
      expect(again.status).toBe(303);
      expect(hosted.subscriptions.size).toBe(1);
      const portalRes = await app.call('POST', '/billing/portal', { token: c.admin.token, body: { company_id: c.companyId } });
      expect(portalRes.status).toBe(200);
      const portalPage = await fetch(portalRes.body.url);
      expect(await portalPage.text()).toContain(`${APP_URL}/company-settings`);
    });
  });

  describe('POST /stripe/webhook', () => {
    let sub: FakeSubscription;
    let subscriber: TestCompany;
    beforeAll(async () => {
      subscriber = await companyWithPeople(t, 'Epsilon Nails');
      await t.db.updateTable('companies').set({ stripe_customer_id: 'cus_epsilon' }).where('id', '=', subscriber.companyId).execute();
      sub = {
        id: `sub_epsilon_${dialect}`,
        customer: 'cus_epsilon',
        status: 'active',
        metadata: { company_id: String(subscriber.companyId) },
        // The top-level field disagrees on purpose: the items' period is the one that counts.
        current_period_end: inDays(3),
        items: [{ price: PRICES.enterprise, current_period_end: inDays(31) }],
      };
      fake.subscriptions.set(sub.id, sub);
    });

    it('answers 503 without a webhook secret, and writes nothing', async () => {
      const before = await databaseFingerprint(t.db);
      const res = await postEvent(bare, stripeEvent('invoice.paid', {}));
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: 'Payments are not configured', code: 'not_configured' });
      expect(await databaseFingerprint(t.db)).toBe(before);
    });

    it('refuses unsigned, badly signed and tampered events with 400, changing nothing and calling nobody', async () => {
      const event = stripeEvent('checkout.session.completed', {
        object: 'checkout.session',
        mode: 'subscription',
        client_reference_id: String(subscriber.companyId),
        customer: 'cus_epsilon',
        subscription: sub.id,
      });
      const before = await databaseFingerprint(t.db);
      const unsigned = await t.call('POST', '/stripe/webhook', { raw: JSON.stringify(event) });
      expect(unsigned.status).toBe(400);
      expect(unsigned.body.code).toBe('validation');
      expect((await postEvent(t, event, { secret: 'whsec_someone_else' })).status).toBe(400);
      const tampered = JSON.stringify({ ...event, data: { object: { ...event.data.object, client_reference_id: String(b.companyId) } } });
      expect((await postEvent(t, event, { payload: tampered })).status).toBe(400);
      // Re-serialised JSON (other spacing) is not what was signed either.
      expect((await postEvent(t, event, { payload: JSON.stringify(event, null, 2) })).status).toBe(400);
      expect((await t.call('POST', '/stripe/webhook', { raw: 'not json', headers: { 'stripe-signature': 't=1,v1=abc' } })).status).toBe(
        400,
      );
      expect(await databaseFingerprint(t.db)).toBe(before);
      expect(fake.requests).toEqual([]);
    });

    it('applies a completed checkout from the re-fetched subscription: plan from its price, expiry from its items', async () => {
      const event = stripeEvent('checkout.session.completed', {
        object: 'checkout.session',
        mode: 'subscription',
        client_reference_id: String(subscriber.companyId),
        customer: 'cus_epsilon',
        subscription: sub.id,
      });
      const res = await postEvent(t, event);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true });
      expect(fake.requestsTo('GET', `/v1/subscriptions/${sub.id}`)).toHaveLength(1);
      const row = await company(subscriber.companyId);
      expect(row).toMatchObject({
        subscription_plan: 'enterprise',
        subscription_expires_at: isoOf(sub.items[0].current_period_end!),
        stripe_subscription_id: sub.id,
        stripe_customer_id: 'cus_epsilon',
      });
      const recorded = await t.db.selectFrom('stripe_events').selectAll().where('id', '=', event.id).executeTakeFirstOrThrow();
      expect(recorded.type).toBe('checkout.session.completed');

      // Replayed later, after Stripe's state moved on: 200, and nothing changes (not even a call to Stripe).
      sub.items = [{ price: PRICES.standard, current_period_end: inDays(90) }];
      fake.requests.length = 0;
      const before = await databaseFingerprint(t.db);
      const replay = await postEvent(t, event);
      expect(replay.status).toBe(200);
      expect(await databaseFingerprint(t.db)).toBe(before);
      expect(fake.requests).toEqual([]);
      sub.items = [{ price: PRICES.enterprise, current_period_end: inDays(31) }];
    });

    it('reads the period end from the subscription itself when its items carry none (older API versions)', async () => {
      const old: FakeSubscription = { ...sub, current_period_end: inDays(45), items: [{ price: PRICES.enterprise }] };
      fake.subscriptions.set(old.id, old);
      try {
        expect(
          (
            await postEvent(
              t,
              stripeEvent('customer.subscription.updated', { object: 'subscription', id: sub.id, customer: 'cus_epsilon' }),
            )
          ).status,
        ).toBe(200);
        expect((await company(subscriber.companyId)).subscription_expires_at).toBe(isoOf(old.current_period_end!));
      } finally {
        fake.subscriptions.set(sub.id, sub);
      }
    });

    it('applies events in any order, since each re-reads the subscription; invoice.paid finds the company by its Stripe customer', async () => {
      // An invoice of the current API shape, without our metadata: the customer identifies the company.
      const invoice = stripeEvent('invoice.paid', {
        object: 'invoice',
        customer: 'cus_epsilon',
        parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: null } },
      });
      const periodEnd = inDays(62);
      sub.items = [{ price: PRICES.standard, current_period_end: periodEnd }];
      expect((await postEvent(t, invoice)).status).toBe(200);
      expect(await company(subscriber.companyId)).toMatchObject({
        subscription_plan: 'standard',
        subscription_expires_at: isoOf(periodEnd),
      });
      // An older "created" event arriving afterwards still applies today's state, not its own snapshot.
      const stale = stripeEvent('customer.subscription.created', {
        object: 'subscription',
        id: sub.id,
        customer: 'cus_epsilon',
        status: 'incomplete',
      });
      expect((await postEvent(t, stale)).status).toBe(200);
      expect(await company(subscriber.companyId)).toMatchObject({
        subscription_plan: 'standard',
        subscription_expires_at: isoOf(periodEnd),
      });
    });

    it('ignores the ending of a subscription the company no longer runs on, and events about nothing we sell', async () => {
      const oldSub: FakeSubscription = {
        id: `sub_epsilon_old_${dialect}`,
        customer: 'cus_epsilon',
        status: 'canceled',
        items: [{ price: PRICES.standard, current_period_end: inDays(-3) }],
      };
      fake.subscriptions.set(oldSub.id, oldSub);
      const before = (await company(subscriber.companyId)).subscription_expires_at;
      expect(
        (
          await postEvent(
            t,
            stripeEvent('customer.subscription.deleted', { object: 'subscription', id: oldSub.id, customer: 'cus_epsilon' }),
          )
        ).status,
      ).toBe(200);
      expect((await company(subscriber.companyId)).subscription_expires_at).toBe(before);

      const row = await company(subscriber.companyId);
      fake.requests.length = 0;
      const charge = stripeEvent('charge.succeeded', { object: 'charge', customer: 'cus_epsilon' });
      const payment = stripeEvent('checkout.session.completed', { object: 'checkout.session', mode: 'payment', customer: 'cus_epsilon' });
      expect((await postEvent(t, charge)).status).toBe(200);
      expect((await postEvent(t, payment)).status).toBe(200);
      expect(fake.requests).toEqual([]);
      expect(await company(subscriber.companyId)).toEqual(row);
      // Only the kinds of event that can touch a subscription are recorded as applied.
      const seen = await t.db.selectFrom('stripe_events').select('id').where('id', 'in', [charge.id, payment.id]).execute();
      expect(seen.map((e) => e.id)).toEqual([payment.id]);
    });

    it('ends the plan at once when Stripe cancels the subscription (and a trial is not ended by a checkout that never started)', async () => {
      sub.status = 'canceled';
      const beforeCall = Date.now();
      const res = await postEvent(
        t,
        stripeEvent('customer.subscription.deleted', { object: 'subscription', id: sub.id, customer: 'cus_epsilon' }),
      );
      expect(res.status).toBe(200);
      const row = await company(subscriber.companyId);
      const expires = Date.parse(row.subscription_expires_at!);
      expect(expires).toBeGreaterThanOrEqual(beforeCall - 1000);
      expect(expires).toBeLessThanOrEqual(Date.now());
      expect(row.stripe_subscription_id).toBe(sub.id);
      // No longer active: subscribing again is a checkout, not the portal.
      fake.requests.length = 0;
      expect((await checkout(t, subscriber.admin.token, { company_id: subscriber.companyId, product_id: 'standard' })).status).toBe(200);
      expect(fake.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(1);

      const trial = await companyWithPeople(t, 'Zeta Yoga');
      const trialEnds = (await company(trial.companyId)).subscription_expires_at;
      const abandoned: FakeSubscription = {
        id: `sub_zeta_${dialect}`,
        customer: 'cus_zeta',
        status: 'incomplete_expired',
        metadata: { company_id: String(trial.companyId) },
        items: [{ price: PRICES.standard, current_period_end: inDays(30) }],
      };
      fake.subscriptions.set(abandoned.id, abandoned);
      expect(
        (
          await postEvent(
            t,
            stripeEvent('customer.subscription.updated', { object: 'subscription', id: abandoned.id, customer: 'cus_zeta' }),
          )
        ).status,
      ).toBe(200);
      expect(await company(trial.companyId)).toMatchObject({ subscription_plan: 'trial', subscription_expires_at: trialEnds });
    });
  });
});

describe('subscriptionState', () => {
  const base = { id: 'sub_1', object: 'subscription', customer: 'cus_1', metadata: {} } as const;
  const withItems = (status: string, items: { price: string; current_period_end?: number }[], top?: number) =>
    ({
      ...base,
      status,
      current_period_end: top,
      items: { object: 'list', data: items.map((i) => ({ price: { id: i.price }, current_period_end: i.current_period_end })) },
    }) as unknown as Stripe.Subscription;

  it('maps running, ended and pending statuses', () => {
    const end = 2_000_000_000;
    expect(subscriptionState(withItems('active', [{ price: PRICES.standard, current_period_end: end }]), PRICES)).toEqual({
      kind: 'running',
      plan: 'standard',
      expiresAt: isoOf(end),
    });
    expect(subscriptionState(withItems('trialing', [{ price: PRICES.enterprise, current_period_end: end }]), PRICES)).toMatchObject({
      plan: 'enterprise',
    });
    expect(subscriptionState(withItems('past_due', [{ price: PRICES.standard, current_period_end: end }]), PRICES).kind).toBe('running');
    for (const status of ['canceled', 'unpaid', 'incomplete_expired', 'paused']) {
      expect(subscriptionState(withItems(status, [{ price: PRICES.standard, current_period_end: end }]), PRICES)).toEqual({
        kind: 'ended',
      });
    }
    expect(subscriptionState(withItems('incomplete', [{ price: PRICES.standard, current_period_end: end }]), PRICES)).toEqual({
      kind: 'pending',
    });
  });

  it("takes the plan item's period, falls back to the top-level one, and leaves an unknown price unnamed", () => {
    const s = withItems(
      'active',
      [
        { price: 'price_addon', current_period_end: 1_900_000_000 },
        { price: PRICES.enterprise, current_period_end: 2_000_000_000 },
      ],
      1_800_000_000,
    );
    expect(subscriptionState(s, PRICES)).toEqual({ kind: 'running', plan: 'enterprise', expiresAt: isoOf(2_000_000_000) });
    expect(subscriptionState(withItems('active', [{ price: PRICES.standard }], 1_800_000_000), PRICES)).toMatchObject({
      expiresAt: isoOf(1_800_000_000),
    });
    expect(subscriptionState(withItems('active', [{ price: 'price_other', current_period_end: 1_900_000_000 }]), PRICES)).toMatchObject({
      plan: null,
    });
    expect(subscriptionState(withItems('active', [{ price: PRICES.standard }]), PRICES)).toEqual({ kind: 'pending' });
  });
});
