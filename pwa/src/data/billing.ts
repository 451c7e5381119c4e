// Billing: POST /create-checkout-session starts a Stripe checkout (or opens the billing portal) for a plan;
// POST /billing/portal opens the Stripe billing portal of a company that subscribed (Company settings' Manage billing).
import type { InferRequestType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';

export type CheckoutInput = InferRequestType<(typeof client)['create-checkout-session']['$post']>['json'];
export type PaidPlan = CheckoutInput['product_id'];

export function createCheckoutSession(input: CheckoutInput) {
  return rpc(client['create-checkout-session'].$post({ json: input }));
}

export function createBillingPortalSession(companyId: number) {
  return rpc(client.billing.portal.$post({ json: { company_id: companyId } }));
}

/**
 * Company settings offers Manage billing (the Stripe billing portal) to a paying company that Stripe
 * knows: a paid plan and a Stripe customer (has_billing_account). A plan set without Stripe (the
 * demo's) has no portal to open.
 */
export function hasBillingPortal(company: { subscription_plan: string | null; has_billing_account: boolean }): boolean {
  return company.has_billing_account && (company.subscription_plan === 'standard' || company.subscription_plan === 'enterprise');
}
