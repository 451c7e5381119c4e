// Billing: POST /create-checkout-session starts a Stripe checkout (or opens the billing portal) for a plan.
import type { InferRequestType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';

export type CheckoutInput = InferRequestType<(typeof client)['create-checkout-session']['$post']>['json'];
export type PaidPlan = CheckoutInput['product_id'];

export function createCheckoutSession(input: CheckoutInput) {
  return rpc(client['create-checkout-session'].$post({ json: input }));
}
