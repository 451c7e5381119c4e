// Subscribing: the checkout (or billing portal) link for a company's admin, the billing portal on its own
// (Company settings' Manage billing), and Stripe's webhook that applies subscription changes.
import { auditContext } from '../../lib/audit-context.ts';
import { currentActor, GLOBAL_ADMIN, OWNERS } from '../../lib/authorize.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { ErrorSchema } from '../../lib/validation.ts';
import { CheckoutBody, CheckoutUrlSchema, PortalBody, StripeEventDoc, WebhookAckSchema } from './billing.schema.ts';
import { applyStripeEvent, billingPortalUrl, checkoutUrl } from './billing.service.ts';

const errorJson = (description: string) => jsonResponse(ErrorSchema, description);

const checkout = defineRoute({
  method: 'post',
  path: '/create-checkout-session',
  access: [...OWNERS, ...GLOBAL_ADMIN],
  tags: ['billing'],
  summary: 'A Stripe Checkout link for a paid plan (subscription mode); a company already paying gets its billing portal link instead',
  request: { body: jsonBody(CheckoutBody) },
  responses: {
    200: jsonResponse(CheckoutUrlSchema, 'Where to send the browser'),
    502: errorJson('Stripe could not be reached or refused the call'),
    503: errorJson('Payments are not configured'),
  },
});

const portal = defineRoute({
  method: 'post',
  path: '/billing/portal',
  access: [...OWNERS, ...GLOBAL_ADMIN],
  tags: ['billing'],
  summary: "A Stripe billing portal link for the company's Stripe customer (invoices, card, plan changes, cancellation)",
  request: { body: jsonBody(PortalBody) },
  responses: {
    200: jsonResponse(CheckoutUrlSchema, 'Where to send the browser; the portal returns to Company settings'),
    409: errorJson('The company has no Stripe customer yet (it never started a checkout)'),
    502: errorJson('Stripe could not be reached or refused the call'),
    503: errorJson('Payments are not configured'),
  },
});

const webhook = defineRoute({
  method: 'post',
  path: '/stripe/webhook',
  access: 'public',
  tags: ['billing'],
  summary: 'Stripe events (signature checked on the raw body; each event applied once; the subscription is re-read from Stripe)',
  request: { body: { content: { 'application/json': { schema: StripeEventDoc } }, required: true, description: 'A Stripe event' } },
  responses: {
    200: jsonResponse(WebhookAckSchema, 'Applied, already applied, or not about a subscription'),
    502: errorJson('Stripe could not be reached: the event is not recorded, so Stripe sends it again'),
    503: errorJson('Payments are not configured'),
  },
});

export const billingRoutes = createRouter()
  .openapi(checkout, async (c) => {
    const { company_id, product_id } = c.req.valid('json');
    return c.json({ url: await checkoutUrl(c.get('deps'), currentActor(c), company_id, product_id) }, 200);
  })
  .openapi(portal, async (c) => {
    const { company_id } = c.req.valid('json');
    return c.json({ url: await billingPortalUrl(c.get('deps'), currentActor(c), company_id) }, 200);
  })
  .openapi(webhook, async (c) => {
    // The signature covers the exact bytes Stripe sent, so the body is read raw, never re-serialised.
    await applyStripeEvent(c.get('deps'), await c.req.text(), c.req.header('stripe-signature'), auditContext(c));
    return c.json({ received: true as const }, 200);
  });
