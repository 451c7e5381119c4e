// POST /create-checkout-session: starts a Stripe checkout (or the billing portal) for a plan.
// TODO(rpc): use client['create-checkout-session'].$post once the billing routes are in AppType.
import { api } from '../../../lib/api-client.ts';

export type PaidPlan = 'standard' | 'enterprise';

export function createCheckoutSession(input: { company_id: number; product_id: PaidPlan }): Promise<{ url?: string }> {
  return api.post<{ url?: string }>('/create-checkout-session', input);
}
