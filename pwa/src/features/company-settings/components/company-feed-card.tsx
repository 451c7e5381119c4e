// Company settings (admins and managers): the secret address of every appointment of the company
// for a shared calendar, and whether feeds show customer names (docs/decisions/24-calendar-feeds.md).
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { FeedAddressCard, feedAddressProps } from '../../../components/feed-address-card.tsx';
import { useCompanyCalendarFeed, useRegenerateCompanyCalendarFeed } from '../../../data/calendar-feeds.ts';
import { useOptimisticCompanySetting, type Company } from '../../../data/companies.ts';

export const HIDE_NAMES_LABEL = 'Hide customer names in feeds';

export function CompanyFeedCard({ company }: { company: Company }) {
  const feed = useCompanyCalendarFeed(company.id);
  const regenerate = useRegenerateCompanyCalendarFeed(company.id);
  const setting = useOptimisticCompanySetting(company.id);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <FeedAddressCard
      className="cs-card"
      title="Company calendar feed"
      lead="Every appointment of the company, for a shared calendar in Google Calendar, Apple Calendar or Outlook. Each staff member finds a feed of their own appointments in their Settings."
      {...feedAddressProps(feed, regenerate)}
    >
      <div className="feed-options">
        {notice && (
          <Alert tone="warn" onDismiss={() => setNotice(null)}>
            {notice}
          </Alert>
        )}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={setting.shown(company).hide_customer_names_in_feeds}
            onChange={(e) => {
              setNotice(null);
              // Applied at once and put back if refused, like the other toggles (docs/decisions/08-offline-pwa.md).
              setting.apply({ hide_customer_names_in_feeds: e.target.checked }, (err) =>
                setNotice(`Could not save the setting: ${errorMessage(err)} The previous setting is back.`),
              );
            }}
          />
          <span>{HIDE_NAMES_LABEL}</span>
        </label>
        <p className="feed-muted">
          Feeds, the company&apos;s and every staff member&apos;s, then show &apos;Booked&apos; instead of the customer&apos;s name.
        </p>
      </div>
    </FeedAddressCard>
  );
}
