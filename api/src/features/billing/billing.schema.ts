// Request and response shapes of the billing calls.
import { z } from '@hono/zod-openapi';
import { Id } from '../../lib/validation.ts';
import { PLAN_NOT_CONFIGURED } from './stripe-client.ts';

export const CheckoutBody = z
  .object({
    company_id: Id,
    product_id: z
      .enum(['standard', 'enterprise'], {
        // docs/product/08-errors.md's text for a plan that cannot be bought; a missing field says so plainly.
        error: (issue) => (issue.input === undefined ? 'product_id is required' : PLAN_NOT_CONFIGURED),
      })
      .openapi({ example: 'standard' }),
  })
  .openapi('CheckoutRequest');

export const PortalBody = z
  .object({
    company_id: Id,
  })
  .openapi('BillingPortalRequest');

export const CheckoutUrlSchema = z
  .object({
    url: z.string().openapi({ example: 'https://checkout.stripe.com/c/pay/cs_test_a1' }),
  })
  .openapi('CheckoutUrl');

export const WebhookAckSchema = z.object({ received: z.literal(true) }).openapi('WebhookAck');

/**
 * Documentation only: a plain OpenAPI schema (not zod), so no validator reads the body before the
 * handler checks Stripe's signature on the raw bytes.
 */
export const StripeEventDoc = {
  type: 'object' as const,
  description: 'A Stripe event, exactly as Stripe sent it (verified with the Stripe-Signature header)',
  properties: { id: { type: 'string' as const }, type: { type: 'string' as const }, data: { type: 'object' as const } },
};
