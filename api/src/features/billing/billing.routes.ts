// Subscribing: the checkout (or billing portal) link for a company's admin, and Stripe's webhook that applies subscription changes.
import type Stripe from 'stripe';
import { assertCompanyAccess, currentActor, GLOBAL_ADMIN, OWNERS } from '../../lib/authorize.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { ErrorSchema } from '../../lib/validation.ts';
import { findCompanyById } from '../companies/company.repository.ts';
import {
  applySubscriptionState, claimEvent, eventApplied, findBillingCompany, hasActivePaidSubscription, keepCustomerId, replaceCustomerId,
} from './billing.repository.ts';
import { CheckoutBody, CheckoutUrlSchema, StripeEventDoc, WebhookAckSchema } from './billing.schema.ts';
import {
  isMissingResource, notConfigured, paymentProviderError, planPrices, PLAN_NOT_CONFIGURED, priceFor, stripeClient,
} from './stripe-client.ts';
import { stripeId, subscriptionState } from './subscription-state.ts';

const errorJson = (description: string) => jsonResponse(ErrorSchema, description);

const checkout = defineRoute({
  method: 'post', path: '/create-checkout-session', access: [...OWNERS, ...GLOBAL_ADMIN], tags: ['billing'],
  summary: 'A Stripe Checkout link for a paid plan (subscription mode); a company already paying gets its billing portal link instead',
  request: { body: jsonBody(CheckoutBody) },
  responses: {
    200: jsonResponse(CheckoutUrlSchema, 'Where to send the browser'),
    502: errorJson('Stripe could not be reached or refused the call'),
    503: errorJson('Payments are not configured'),
  },
});

const webhook = defineRoute({
  method: 'post', path: '/stripe/webhook', access: 'public', tags: ['billing'],
  summary: 'Stripe events (signature checked on the raw body; each event applied once; the subscription is re-read from Stripe)',
  request: { body: { content: { 'application/json': { schema: StripeEventDoc } }, required: true, description: 'A Stripe event' } },
  responses: {
    200: jsonResponse(WebhookAckSchema, 'Applied, already applied, or not about a subscription'),
    502: errorJson('Stripe could not be reached: the event is not recorded, so Stripe sends it again'),
    503: errorJson('Payments are not configured'),
  },
});

/** The events that can change a subscription; each is applied by re-reading the subscription. */
const SUBSCRIPTION_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
]);

interface EventReference {
  subscriptionId: string;
  companyId: number | null;
  customerId: string | null;
}

function companyIdFrom(value: string | null | undefined): number | null {
  return value && /^\d{1,10}$/.test(value) ? Number(value) : null;
}

/** Which subscription (and, when we put it there, which company) an event is about; null: none. */
function eventReference(event: Stripe.Event): EventReference | null {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object as Stripe.Checkout.Session;
      const subscriptionId = session.mode === 'subscription' ? stripeId(session.subscription) : null;
      if (!subscriptionId) return null;
      return {
        subscriptionId,
        companyId: companyIdFrom(session.client_reference_id) ?? companyIdFrom(session.metadata?.company_id),
        customerId: stripeId(session.customer),
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = event.data.object as Stripe.Subscription;
      return { subscriptionId: sub.id, companyId: companyIdFrom(sub.metadata?.company_id), customerId: stripeId(sub.customer) };
    }
    case 'invoice.paid': {
      const invoice = event.data.object as Stripe.Invoice & { subscription?: string | { id: string } | null };
      const details = invoice.parent?.subscription_details;
      // Current API versions name the subscription under parent.subscription_details; older ones at the top.
      const subscriptionId = stripeId(details?.subscription) ?? stripeId(invoice.subscription);
      if (!subscriptionId) return null;
      return { subscriptionId, companyId: companyIdFrom(details?.metadata?.company_id), customerId: stripeId(invoice.customer) };
    }
    default:
      return null;
  }
}

export const billingRoutes = createRouter()
  .openapi(checkout, async (c) => {
    const { db, config, now, log } = c.get('deps');
    const actor = currentActor(c);
    const { company_id, product_id } = c.req.valid('json');
    assertCompanyAccess(actor, company_id);
    const company = await findCompanyById(db, company_id);
    if (!company) throw notFound('Company not found');
    const stripe = stripeClient(config);
    if (!stripe) throw notConfigured();
    const price = priceFor(config, product_id);
    const at = now();

    if (hasActivePaidSubscription(company, at)) {
      // A second checkout would bill the company twice: plan changes and cancellation live in the portal.
      try {
        const portal = await stripe.billingPortal.sessions.create({ customer: company.stripe_customer_id!, return_url: `${config.APP_URL}/upgrade` });
        return c.json({ url: portal.url }, 200);
      } catch (err) {
        throw paymentProviderError(err);
      }
    }

    const companyRef = String(company.id);
    const newCustomer = async () => {
      try {
        const customer = await stripe.customers.create({
          name: company.name,
          email: company.email ?? (actor.role === 'admin' ? actor.email : undefined),
          metadata: { company_id: companyRef },
        });
        return customer.id;
      } catch (err) {
        throw paymentProviderError(err);
      }
    };
    const openCheckout = (customer: string) => stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price, quantity: 1 }],
      customer,
      client_reference_id: companyRef,
      metadata: { company_id: companyRef },
      // Subscription and invoice events then name the company too, whoever started them.
      subscription_data: { metadata: { company_id: companyRef } },
      success_url: `${config.APP_URL}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${config.APP_URL}/cancel`,
    });

    const customerId = company.stripe_customer_id ?? (await keepCustomerId(db, company.id, await newCustomer(), now()));
    let session: Stripe.Checkout.Session;
    try {
      session = await openCheckout(customerId);
    } catch (err) {
      if (isMissingResource(err, 'line_items')) throw badRequest(PLAN_NOT_CONFIGURED);
      if (!isMissingResource(err, 'customer')) throw paymentProviderError(err);
      // The customer was deleted in Stripe's dashboard: start the company on a fresh one.
      log.warn('stripe customer missing, creating a new one', { company_id: company.id });
      const fresh = await newCustomer();
      await replaceCustomerId(db, company.id, customerId, fresh, now());
      try {
        session = await openCheckout(fresh);
      } catch (retryErr) {
        throw paymentProviderError(retryErr);
      }
    }
    if (!session.url) throw paymentProviderError(new Error('checkout session without a url'));
    return c.json({ url: session.url }, 200);
  })
  .openapi(webhook, async (c) => {
    const { db, config, now, log } = c.get('deps');
    const secret = config.STRIPE_WEBHOOK_SECRET;
    const stripe = stripeClient(config);
    // Without the API key no event could be applied (each one re-reads its subscription).
    if (!secret || !stripe) throw notConfigured();
    // The signature covers the exact bytes Stripe sent, so the body is read raw, never re-serialised.
    const payload = await c.req.text();
    const signature = c.req.header('stripe-signature');
    if (!signature) throw badRequest('Missing Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(payload, signature, secret);
    } catch {
      throw badRequest('Invalid Stripe signature');
    }

    if (!SUBSCRIPTION_EVENTS.has(event.type)) return c.json({ received: true as const }, 200);
    // A replay costs no call to Stripe; the claim below still settles two deliveries racing.
    if (await eventApplied(db, event.id)) return c.json({ received: true as const }, 200);

    const ref = eventReference(event);
    let subscription: Stripe.Subscription | null = null;
    if (ref) {
      try {
        // Events arrive late and out of order: what counts is the subscription as Stripe has it now.
        subscription = await stripe.subscriptions.retrieve(ref.subscriptionId);
      } catch (err) {
        if (!isMissingResource(err)) throw paymentProviderError(err);
        log.warn('stripe event names an unknown subscription', { event: event.id, subscription: ref.subscriptionId });
      }
    }

    const at = now();
    // Outside the transaction: Stripe calls are slow, and SQLite has one connection.
    await db.transaction().execute(async (trx) => {
      if (!(await claimEvent(trx, event, at))) return;
      if (!ref || !subscription) return;
      const customerId = stripeId(subscription.customer) ?? ref.customerId;
      const company = await findBillingCompany(trx, {
        companyId: ref.companyId ?? companyIdFrom(subscription.metadata?.company_id),
        customerId,
      });
      if (!company) {
        log.warn('stripe event for no known company', { event: event.id, subscription: subscription.id });
        return;
      }
      const state = subscriptionState(subscription, planPrices(config));
      const outcome = await applySubscriptionState(trx, company, { subscriptionId: subscription.id, customerId }, state, at);
      log.info('stripe event applied', { event: event.id, type: event.type, company_id: company.id, status: subscription.status, outcome });
    });
    return c.json({ received: true as const }, 200);
  });
