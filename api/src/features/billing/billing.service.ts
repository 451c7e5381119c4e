// Subscribing through Stripe: the checkout (or billing portal) link for a company, and applying the
// subscription changes Stripe's webhook reports. Stripe calls stay outside database transactions.
import type { AuditContext } from '../../lib/audit-context.ts';
import { diffChanges, pickFields, recordAudit } from '../audit/audit.repository.ts';
import type Stripe from 'stripe';
import type { Actor, AppDeps } from '../../lib/context.ts';
import { assertCompanyAccess } from '../../lib/authorize.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { findCompanyById } from '../companies/company.repository.ts';
import {
  applySubscriptionState,
  claimEvent,
  eventApplied,
  findBillingCompany,
  hasActivePaidSubscription,
  keepCustomerId,
  replaceCustomerId,
} from './billing.repository.ts';
import {
  isMissingResource,
  notConfigured,
  paymentProviderError,
  planPrices,
  PLAN_NOT_CONFIGURED,
  priceFor,
  stripeClient,
} from './stripe-client.ts';
import { stripeId, subscriptionState, type PaidPlan } from './subscription.rules.ts';

export type BillingDeps = Pick<AppDeps, 'db' | 'config' | 'now' | 'log'>;

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

/**
 * Where to send the browser: Stripe Checkout for a paid plan, or the billing portal for a company
 * already paying (a second checkout would bill it twice).
 */
export async function checkoutUrl(deps: BillingDeps, actor: Actor, company_id: number, product_id: PaidPlan): Promise<string> {
  const { db, config, now, log } = deps;
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
      const portal = await stripe.billingPortal.sessions.create({
        customer: company.stripe_customer_id!,
        return_url: `${config.APP_URL}/upgrade`,
      });
      return portal.url;
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
  const openCheckout = (customer: string) =>
    stripe.checkout.sessions.create({
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
  return session.url;
}

export const NO_BILLING_ACCOUNT = 'This company has no billing account yet. Choose a plan first.';

/**
 * The Stripe billing portal for a company that has a Stripe customer (it subscribed, or started to):
 * invoices, the card, plan changes and cancellation live there (docs/decisions/06-subscriptions.md).
 * Company settings' "Manage billing" opens it and comes back there. 409 without a customer: nothing
 * is created in Stripe for a company that never chose a plan.
 */
export async function billingPortalUrl(deps: BillingDeps, actor: Actor, company_id: number): Promise<string> {
  const { db, config } = deps;
  assertCompanyAccess(actor, company_id);
  const company = await findCompanyById(db, company_id);
  if (!company) throw notFound('Company not found');
  const stripe = stripeClient(config);
  if (!stripe) throw notConfigured();
  if (!company.stripe_customer_id) throw new AppError('conflict', NO_BILLING_ACCOUNT);
  try {
    const portal = await stripe.billingPortal.sessions.create({
      customer: company.stripe_customer_id,
      return_url: `${config.APP_URL}/company-settings`,
    });
    return portal.url;
  } catch (err) {
    // Deleted in Stripe's dashboard: the next checkout starts the company on a fresh customer.
    if (isMissingResource(err, 'customer')) throw new AppError('conflict', NO_BILLING_ACCOUNT);
    throw paymentProviderError(err);
  }
}

/**
 * Applies one signed Stripe event: each event once, the subscription re-read from Stripe (events
 * arrive late and out of order). `payload` is the exact body Stripe sent (the signature covers it).
 */
export async function applyStripeEvent(
  deps: BillingDeps,
  payload: string,
  signature: string | undefined,
  who: AuditContext,
): Promise<void> {
  const { db, config, now, log } = deps;
  const secret = config.STRIPE_WEBHOOK_SECRET;
  const stripe = stripeClient(config);
  // Without the API key no event could be applied (each one re-reads its subscription).
  if (!secret || !stripe) throw notConfigured();
  if (!signature) throw badRequest('Missing Stripe-Signature header');
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(payload, signature, secret);
  } catch {
    throw badRequest('Invalid Stripe signature');
  }

  if (!SUBSCRIPTION_EVENTS.has(event.type)) return;
  // A replay costs no call to Stripe; the claim below still settles two deliveries racing.
  if (await eventApplied(db, event.id)) return;

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
    if (outcome !== 'unchanged') {
      // Stripe's webhook is the writer: no actor, the event id as the request's context (docs/decisions/31-audit-log.md).
      const after = await findBillingCompany(trx, { companyId: company.id, customerId: null });
      const fields = ['subscription_plan', 'subscription_expires_at'] as const;
      const changes = after ? diffChanges(pickFields(company, fields), pickFields(after, fields)) : {};
      if (Object.keys(changes).length)
        await recordAudit(trx, who, {
          company_id: company.id,
          action: outcome === 'ended' ? 'end' : 'update',
          entity: 'subscription',
          entity_id: company.id,
          changes,
        });
    }
    log.info('stripe event applied', { event: event.id, type: event.type, company_id: company.id, status: subscription.status, outcome });
  });
}
