// Settings (staff): the secret address of one's own appointments for Google, Apple or Outlook
// calendars (docs/decisions/24-calendar-feeds.md).
import { FeedAddressCard, feedAddressProps } from '../../../components/feed-address-card.tsx';
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
      {...feedAddressProps(feed, regenerate)}
    />
  );
}
