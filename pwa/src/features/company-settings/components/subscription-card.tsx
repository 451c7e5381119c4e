// The subscription status block (docs/product/04-states.md) with the way to the plans (/pricing).
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { SubscriptionStatusBlock } from '../../../components/subscription-status.tsx';
import type { Company } from '../../../data/companies.ts';

export function SubscriptionCard({ company, canManageBilling }: { company: Company; canManageBilling: boolean }) {
  const id = useId();
  return (
    <section className="card cs-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Subscription</h2>
      <SubscriptionStatusBlock
        expiresAt={company.subscription_expires_at}
        plan={company.subscription_plan}
        action={
          canManageBilling ? (
            <Link to="/pricing" className="btn btn-secondary">
              View plans
            </Link>
          ) : (
            <span className="cs-note">Your company admin manages the plan.</span>
          )
        }
      />
    </section>
  );
}
