// Settings (staff): the secret address of one's own appointments for Google, Apple or Outlook
// calendars (docs/decisions/24-calendar-feeds.md).
import { errorMessage } from '../../../lib/api-errors.ts';
import { FeedAddressCard } from '../../../components/feed-address-card.tsx';
import { useMyCalendarFeed, useRegenerateMyCalendarFeed } from '../../../data/calendar-feeds.ts';
import './calendar-feed-card.css';

export function CalendarFeedCard() {
  const feed = useMyCalendarFeed();
  const regenerate = useRegenerateMyCalendarFeed();
  return (
    <FeedAddressCard
      className="settings-section settings-feed"
      title="Calendar feed"
      lead="Subscribe to this address in Google Calendar, Apple Calendar or Outlook to see the appointments you are booked for there."
      url={feed.data?.url}
      loading={feed.isPending}
      loadError={feed.isError ? errorMessage(feed.error) : null}
      onRetry={() => void feed.refetch()}
      onRegenerate={() => regenerate.mutateAsync().catch((err: unknown) => Promise.reject(new Error(errorMessage(err))))}
      regenerating={regenerate.isPending}
    />
  );
}
