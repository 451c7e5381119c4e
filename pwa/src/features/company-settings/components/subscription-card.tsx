// The subscription status block (docs/product/04-states.md) with the way to the plans (/pricing) and, for a
// company that subscribed, "Manage billing": the Stripe billing portal (invoices, card, plan changes,
// cancellation; docs/decisions/06-subscriptions.md), which comes back to Company settings.
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert } from '../../../components/alert.tsx';
import { SubscriptionStatusBlock } from '../../../components/subscription-status.tsx';
import type { Company } from '../../../data/companies.ts';
import { createBillingPortalSession, hasBillingPortal } from '../../../data/billing.ts';
import { messageFor } from '../../../lib/api-errors.ts';

export const BILLING_TEXT = {
  manage: 'Manage billing',
  opening: 'Opening billing...',
  failed: 'Failed to open billing. Please try again.',
} as const;

export function SubscriptionCard({ company, canManageBilling }: { company: Company; canManageBilling: boolean }) {
  const id = useId();
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const showPortal = canManageBilling && hasBillingPortal(company);

  async function openPortal() {
    setError(null);
    setOpening(true);
    try {
      const { url } = await createBillingPortalSession(company.id);
      window.location.assign(url);
    } catch (e) {
      // The server's own words where it has them (no billing account yet, payments not configured).
      setError(messageFor(e, { fallback: BILLING_TEXT.failed }));
      setOpening(false);
    }
  }

  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Subscription</h2>
      <SubscriptionStatusBlock
        expiresAt={company.subscription_expires_at}
        plan={company.subscription_plan}
        action={
          canManageBilling ? (
            <div className="cs-billing-actions">
              <Link to="/pricing" className="btn btn-secondary">
                View plans
              </Link>
              {showPortal && (
                <button type="button" className="btn btn-primary" onClick={openPortal} disabled={opening}>
                  {opening ? BILLING_TEXT.opening : BILLING_TEXT.manage}
                </button>
              )}
            </div>
          ) : (
            <span className="cs-note">Your company admin manages the plan.</span>
          )
        }
      />
      {error && (
        <Alert tone="error" onDismiss={() => setError(null)}>
          {error}
        </Alert>
      )}
    </section>
  );
}
