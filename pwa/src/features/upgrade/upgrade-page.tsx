// /upgrade (company admins): the current plan and its status, and the way to the plans (/pricing)
// where a subscription is started (docs/product/02-screens.md and 09-limits.md).
import { Link } from 'react-router-dom';
import { useAuth } from '../../lib/auth.tsx';
import { errorMessage } from '../../lib/api-errors.ts';
import { Alert } from '../../components/alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { PLAN_NAMES, SubscriptionStatusBlock, subscriptionStatus } from '../../components/subscription-status.tsx';
import { useMemberCompany } from '../../data/companies.ts';
import { PLANS } from '../../components/plans.ts';
import './upgrade-page.css';

const PAID_PLANS = PLANS.filter((p) => p.id !== 'trial');

export default function UpgradePage() {
  const { user } = useAuth();
  if (!user || user.company_id === null) return <Alert tone="error">User or company information is not available.</Alert>;
  return <Upgrade companyId={user.company_id} />;
}

function Upgrade({ companyId }: { companyId: number }) {
  const company = useMemberCompany(companyId);
  if (company.isPending) return <Loading label="Loading your plan..." />;
  if (company.isError) return <Alert tone="error">{errorMessage(company.error)}</Alert>;

  const c = company.data;
  const plan = c.subscription_plan ?? null;
  const status = subscriptionStatus(c.subscription_expires_at);
  const onTrial = plan === 'trial' || plan === null;
  const lead =
    status.state === 'expired'
      ? 'Your subscription has ended. Choose a plan to take online bookings again.'
      : onTrial
        ? 'You are on the Free Trial (up to 10 staff members). Choose a plan to keep booking after it ends.'
        : `You are on the ${PLAN_NAMES[plan!] ?? plan} plan.`;

  return (
    <div className="upg-page">
      <section className="card upg-current" aria-labelledby="upg-current-h">
        <h2 id="upg-current-h">Your plan</h2>
        <p className="upg-lead">{lead}</p>
        <SubscriptionStatusBlock
          expiresAt={c.subscription_expires_at}
          plan={plan}
          action={
            <Link to="/pricing" className="btn btn-primary">
              See plans and prices
            </Link>
          }
        />
      </section>
      <div className="upg-plans">
        {PAID_PLANS.map((p) => (
          <section key={p.id} className={`card upg-plan${plan === p.id ? ' current' : ''}`} aria-labelledby={`upg-${p.id}`}>
            <div className="upg-plan-head">
              <h2 id={`upg-${p.id}`}>{p.name}</h2>
              {plan === p.id && <span className="upg-badge">Current plan</span>}
            </div>
            <p className="upg-price">
              {p.price}
              {p.period}
            </p>
            <ul className="upg-points">
              {p.features.map((x) => (
                <li key={x}>{x}</li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      <p className="upg-foot">
        Subscribing, changing or cancelling a plan happens on the <Link to="/pricing">plans page</Link>, through our payment provider.
      </p>
    </div>
  );
}
