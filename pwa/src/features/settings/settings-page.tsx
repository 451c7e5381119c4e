// /settings ('Your Settings'): the signed-in person's own settings editor.
import { useAuth } from '../../lib/auth.tsx';
import { Loading } from '../../components/loading.tsx';
import { SETTINGS_TEXT, UserSettingsEditor } from './components/user-settings-editor.tsx';
import { CalendarFeedCard } from './components/calendar-feed-card.tsx';
import { BookingNoticesCard } from './components/booking-notices-card.tsx';
import { STAFF_ROLES } from '../../lib/api-types.ts';
import { PrivacyCard } from '../../components/privacy-card.tsx';

export default function SettingsPage() {
  const { user } = useAuth();
  if (!user) return <Loading label={SETTINGS_TEXT.loading} />;
  return (
    <div className="settings-page">
      <UserSettingsEditor userId={user.id} />
      {STAFF_ROLES.includes(user.role) && <BookingNoticesCard userId={user.id} />}
      {STAFF_ROLES.includes(user.role) && <CalendarFeedCard />}
      <PrivacyCard userId={user.id} role={user.role} companyId={user.company_id} />
    </div>
  );
}
