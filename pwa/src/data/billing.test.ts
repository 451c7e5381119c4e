import { describe, expect, it } from 'vitest';
import { hasBillingPortal } from './billing.ts';

describe('hasBillingPortal', () => {
  it('needs a paid plan and a Stripe customer', () => {
    expect(hasBillingPortal({ subscription_plan: 'standard', has_billing_account: true })).toBe(true);
    expect(hasBillingPortal({ subscription_plan: 'enterprise', has_billing_account: true })).toBe(true);
    // A plan set without Stripe (the demo company's), a trial that only started a checkout, no plan.
    expect(hasBillingPortal({ subscription_plan: 'standard', has_billing_account: false })).toBe(false);
    expect(hasBillingPortal({ subscription_plan: 'trial', has_billing_account: true })).toBe(false);
    expect(hasBillingPortal({ subscription_plan: null, has_billing_account: false })).toBe(false);
  });
});
