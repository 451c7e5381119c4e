// Plans and subscribing (docs/product/02-screens.md, 08-errors.md and 09-limits.md).
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../lib/auth.tsx';
import { isApiError } from '../../lib/api-errors.ts';
import { Alert } from '../../components/alert.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { createCheckoutSession, type PaidPlan } from '../../data/billing.ts';
import { PLANS } from '../../components/plans.ts';
import { subscriptionStatus } from '../../components/subscription-status.tsx';
import { useMemberCompany } from '../../data/companies.ts';
import { STAFF_ROLES } from '../../lib/api-types.ts';
import './pricing-page.css';

export const CHECKOUT_TEXT = {
  noUrl: 'Failed to initiate subscription. Please try again.',
  badPlan: 'Invalid plan selected or product ID not configured.',
  notCompanyUser: 'You must be logged in as a company user to subscribe.',
  failed: 'Failed to start checkout. Please try again.',
  /** Billing belongs to the company's admin (docs/decisions/03-tenancy-and-roles.md: managers have no billing). */
  notOwner: "Only your company's admin can change the subscription. Please ask them to subscribe.",
} as const;

function checkoutErrorText(e: unknown): string {
  if (!isApiError(e) || e.status === null) return CHECKOUT_TEXT.failed;
  if (e.status === 400 || e.status === 503) return CHECKOUT_TEXT.badPlan;
  if (e.status === 401 || e.status === 403) return CHECKOUT_TEXT.notCompanyUser;
  return CHECKOUT_TEXT.failed;
}

export default function PricingPage() {
  const { user } = useAuth();
  const [pending, setPending] = useState<PaidPlan | null>(null);
  // Said in the card of the plan whose button was pressed: a message at the top of the page is out of
  // sight on a phone, where the Subscribe buttons are a screen or two further down.
  const [error, setError] = useState<{ plan: PaidPlan; text: string } | null>(null);
  useDocumentTitle('Pricing');
  // Staff see which plan their company is on (the trial until a paid plan starts); none once it ended.
  const staffCompanyId = user && user.company_id != null && STAFF_ROLES.includes(user.role) ? user.company_id : null;
  const company = useMemberCompany(staffCompanyId).data;
  const currentPlan =
    company && subscriptionStatus(company.subscription_expires_at).state !== 'expired' ? (company.subscription_plan ?? 'trial') : null;

  async function subscribe(plan: PaidPlan) {
    const refuse = (text: string) => setError({ plan, text });
    setError(null);
    const isCompanyUser = !!user && user.company_id != null && user.role !== 'customer' && user.role !== 'global_admin';
    if (!user || !isCompanyUser) {
      refuse(CHECKOUT_TEXT.notCompanyUser);
      return;
    }
    if (user.role !== 'admin') {
      refuse(CHECKOUT_TEXT.notOwner);
      return;
    }
    setPending(plan);
    try {
      const { url } = await createCheckoutSession({ company_id: user.company_id!, product_id: plan });
      if (!url) {
        refuse(CHECKOUT_TEXT.noUrl);
        setPending(null);
        return;
      }
      window.location.assign(url);
    } catch (e) {
      refuse(checkoutErrorText(e));
      setPending(null);
    }
  }

  return (
    <div className="page">
      <header className="pricing-head">
        <h1>Simple pricing for every size of business</h1>
        <p>Start with a free 14-day trial. Upgrade when you are ready.</p>
      </header>

      <ul className="plans">
        {PLANS.map((plan) => (
          <li key={plan.id} className={`plan card${plan.highlight ? ' plan-highlight' : ''}`}>
            {plan.highlight && <span className="plan-badge">Most popular</span>}
            <h2 className="plan-name">{plan.name}</h2>
            {currentPlan === plan.id && <p className="plan-current">Your current plan</p>}
            <p className="plan-price">
              <span className="plan-amount">{plan.price}</span> <span className="plan-period">{plan.period}</span>
            </p>
            <p className="plan-blurb">{plan.blurb}</p>
            <ul className="plan-features">
              {plan.features.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
            {plan.id === 'trial' ? (
              <button type="button" className="btn btn-secondary btn-block" disabled>
                Included when you sign up
              </button>
            ) : (
              <button
                type="button"
                className={`btn btn-block ${plan.highlight ? 'btn-primary' : 'btn-secondary'}`}
                onClick={() => subscribe(plan.id as PaidPlan)}
                disabled={pending !== null}
              >
                {/* The company's own paid plan: the server answers with the billing portal (docs/decisions/06-subscriptions.md). */}
                {pending === plan.id ? 'Redirecting...' : currentPlan === plan.id ? 'Manage your plan' : 'Subscribe'}
                {currentPlan !== plan.id && <span className="visually-hidden"> to {plan.name}</span>}
              </button>
            )}
            {error?.plan === plan.id && (
              <Alert tone="error" onDismiss={() => setError(null)}>
                {error.text}
                {error.text === CHECKOUT_TEXT.notCompanyUser && !user && (
                  <>
                    {' '}
                    <Link to="/login" state={{ from: { pathname: '/pricing' } }}>
                      Log in
                    </Link>
                  </>
                )}
              </Alert>
            )}
          </li>
        ))}
      </ul>
      <p className="pricing-foot">
        Questions? Read the <Link to="/faq">FAQ</Link>.
      </p>
    </div>
  );
}
