// Subscribing: the checkout (or billing portal) link for a company's admin, and Stripe's webhook that applies subscription changes.
import { currentActor, GLOBAL_ADMIN, OWNERS } from '../../lib/authorize.ts';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { ErrorSchema } from '../../lib/validation.ts';
import { CheckoutBody, CheckoutUrlSchema, StripeEventDoc, WebhookAckSchema } from './billing.schema.ts';
import { applyStripeEvent, checkoutUrl } from './billing.service.ts';

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
  .openapi(webhook, async (c) => {
    // The signature covers the exact bytes Stripe sent, so the body is read raw, never re-serialised.
    await applyStripeEvent(c.get('deps'), await c.req.text(), c.req.header('stripe-signature'));
    return c.json({ received: true as const }, 200);
  });
