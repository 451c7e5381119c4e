// POST /create-checkout-session: starts a Stripe checkout (or the billing portal) for a plan.
import { client, rpc } from '../../../lib/rpc.ts';

export type PaidPlan = 'standard' | 'enterprise';

export function createCheckoutSession(input: { company_id: number; product_id: PaidPlan }): Promise<{ url?: string }> {
  return rpc(client['create-checkout-session'].$post({ json: input }));
}
