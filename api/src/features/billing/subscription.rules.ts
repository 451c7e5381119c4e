// What a Stripe subscription, as Stripe reports it now, means for a company's plan and expiry.
import type Stripe from 'stripe';

export type PaidPlan = 'standard' | 'enterprise';
export const PAID_PLANS: readonly PaidPlan[] = ['standard', 'enterprise'];

export type SubscriptionState =
  /** Paid up (or in its trial, or retrying a failed renewal): the plan runs until `expiresAt`. */
  | { kind: 'running'; plan: PaidPlan | null; expiresAt: string }
  /** Over (cancelled, unpaid, expired before the first payment, paused): access ends now. */
  | { kind: 'ended' }
  /** Waiting for its first payment (or unreadable): nothing to grant or take away yet. */
  | { kind: 'pending' };

// past_due keeps the paid period while Stripe retries the card; Stripe then moves the subscription
// to canceled or unpaid (per the account's settings), which ends it here too.
const RUNNING = new Set(['active', 'trialing', 'past_due']);
const ENDED = new Set(['canceled', 'unpaid', 'incomplete_expired', 'paused']);

export function isPaidPlan(plan: string | null | undefined): plan is PaidPlan {
  return plan === 'standard' || plan === 'enterprise';
}

/** Stripe ids arrive as strings or as expanded objects. */
export function stripeId(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

export function subscriptionState(sub: Stripe.Subscription, prices: Record<PaidPlan, string | undefined>): SubscriptionState {
  if (ENDED.has(sub.status)) return { kind: 'ended' };
  if (!RUNNING.has(sub.status)) return { kind: 'pending' };
  const items = sub.items?.data ?? [];
  const planOf = (priceId: string | undefined) => PAID_PLANS.find((p) => prices[p] && prices[p] === priceId) ?? null;
  const planItem = items.find((i) => planOf(i.price?.id)) ?? items[0];
  // Current API versions keep the period on each item; older ones kept it on the subscription.
  const periodEnd = planItem?.current_period_end ?? (sub as unknown as { current_period_end?: number }).current_period_end;
  if (typeof periodEnd !== 'number' || !Number.isFinite(periodEnd)) return { kind: 'pending' };
  return { kind: 'running', plan: planOf(planItem?.price?.id), expiresAt: new Date(periodEnd * 1000).toISOString() };
}
