// /company-settings (docs/product/02-screens.md): booking link, subscription, booking options, company
// profile, opening hours and services. Admins and managers edit (the route sends everyone else
// to /calendar, app/access.ts); only admins get the way to the plans, as billing is theirs.
import { useAuth } from '../../lib/auth.tsx';
import { errorMessage } from '../../lib/api-errors.ts';
import { Alert } from '../../components/alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useMemberCompany } from '../../data/companies.ts';
import { BookingLinkCard } from './components/booking-link-card.tsx';
import { SubscriptionCard } from './components/subscription-card.tsx';
import { CompanyProfileCard } from './components/company-profile-card.tsx';
import { PhoneCountryCard } from './components/phone-country-card.tsx';
import { BookingOptionsCard } from './components/booking-options-card.tsx';
import { RemindersCard } from './components/reminders-card.tsx';
import { CompanyHoursCard } from './components/company-hours-card.tsx';
import { ClosuresCard } from './components/closures-card.tsx';
import { SchedulingRulesCard } from './components/scheduling-rules-card.tsx';
import { SelfServiceCard } from './components/self-service-card.tsx';
import { ServicesCard } from './components/services-card.tsx';
import { CompanyFeedCard } from './components/company-feed-card.tsx';
import { MessagesCard } from './components/messages-card.tsx';
import { ActivityCard } from './components/activity-card.tsx';
import './company-settings-page.css';

export default function CompanySettingsPage() {
  const { user } = useAuth();
  const companyId = user?.company_id ?? null;
  if (companyId === null) return <Alert tone="error">User or company information is not available.</Alert>;
  return <CompanySettings companyId={companyId} canManageBilling={user?.role === 'admin'} />;
}

function CompanySettings({ companyId, canManageBilling }: { companyId: number; canManageBilling: boolean }) {
  const company = useMemberCompany(companyId);
  if (company.isPending) return <Loading label="Loading company settings..." />;
  if (company.isError) {
    return (
      <Alert tone="error">
        Failed to load company settings: {errorMessage(company.error)}{' '}
        <button type="button" className="btn-link" onClick={() => company.refetch()}>
          Retry
        </button>
      </Alert>
    );
  }
  const c = company.data;
  return (
    <div className="cs-page">
      <div className="cs-columns">
        <div className="cs-col">
          <BookingLinkCard company={c} />
          <SubscriptionCard company={c} canManageBilling={canManageBilling} />
          <BookingOptionsCard company={c} />
          <SchedulingRulesCard key={c.id} company={c} />
          <RemindersCard key={c.id} company={c} />
          <CompanyFeedCard company={c} />
        </div>
        <div className="cs-col">
          <CompanyProfileCard key={c.id} company={c} />
          <PhoneCountryCard company={c} />
          <SelfServiceCard key={c.id} company={c} />
          <CompanyHoursCard company={c} />
          <ClosuresCard company={c} />
        </div>
      </div>
      <ServicesCard companyId={c.id} />
      <MessagesCard company={c} />
      {/* The audit log is for the company's admins, the same people as billing (docs/decisions/31-audit-log.md). */}
      {canManageBilling && <ActivityCard companyId={c.id} zone={c.timezone} />}
    </div>
  );
}
