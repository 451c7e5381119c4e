// The plans as people read them (docs/product/02-screens.md "Pricing"): one list for /pricing, where
// a subscription starts, and /upgrade, which shows the company's own. Prices are Stripe's (the price
// env variables of docs/decisions/06-subscriptions.md); these are their words.
import type { PaidPlan } from '../data/billing.ts';

export interface Plan {
  id: 'trial' | PaidPlan;
  name: string;
  price: string;
  period: string;
  blurb: string;
  features: string[];
  highlight?: boolean;
}

export const PLANS: readonly Plan[] = [
  {
    id: 'trial',
    name: 'Free Trial',
    price: 'Free',
    period: 'for 14 days',
    blurb: 'Try everything you need to start taking bookings.',
    features: ['10 staff members', 'Basic booking page', 'Email reminders'],
  },
  {
    id: 'standard',
    name: 'Standard',
    price: '$34.99',
    period: '/month',
    blurb: 'For growing teams that book all day.',
    features: ['Unlimited staff', 'Unlimited bookings', 'Calendar sync', 'Booking with specific employees', 'Custom branding'],
    highlight: true,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    price: '$79.99',
    period: '/month',
    blurb: 'For busy businesses with several teams.',
    // Only what exists is claimed: the Enterprise extras are on the way, and say so.
    features: [
      'Everything in Standard',
      'POS integration (coming soon)',
      'Advanced reporting (coming soon)',
      'Priority support',
      'Team scheduling tools (coming soon)',
    ],
  },
];
