import { describe, expect, it } from 'vitest';
import { subscriptionStatus } from './subscription-status.tsx';

const now = new Date(2026, 4, 10, 15, 0); // 10 May, 15:00 local

describe('subscriptionStatus', () => {
  it('has no subscription without an expiry', () => {
    expect(subscriptionStatus(null, now)).toMatchObject({ state: 'no_subscription', daysRemaining: 0 });
  });
  it('is expired once the date is past, with 0 days left', () => {
    expect(subscriptionStatus(new Date(2026, 4, 9, 23, 0).toISOString(), now)).toMatchObject({ state: 'expired', daysRemaining: 0 });
    expect(subscriptionStatus(new Date(2026, 4, 10, 9, 0).toISOString(), now)).toMatchObject({ state: 'expired', daysRemaining: 0 });
  });
  it('expires soon from 0 to 7 calendar days ahead', () => {
    expect(subscriptionStatus(new Date(2026, 4, 10, 23, 0).toISOString(), now)).toMatchObject({ state: 'expiring_soon', daysRemaining: 0 });
    // Tomorrow early morning is one calendar day away, though fewer than 24 hours.
    expect(subscriptionStatus(new Date(2026, 4, 11, 1, 0).toISOString(), now)).toMatchObject({ state: 'expiring_soon', daysRemaining: 1 });
    expect(subscriptionStatus(new Date(2026, 4, 17, 1, 0).toISOString(), now)).toMatchObject({ state: 'expiring_soon', daysRemaining: 7 });
  });
  it('is active beyond 7 days', () => {
    expect(subscriptionStatus(new Date(2026, 4, 18, 1, 0).toISOString(), now)).toMatchObject({ state: 'active', daysRemaining: 8 });
  });
});
