// Settings (staff): whether the person gets an email when a customer books, reschedules or cancels
// with them (docs/decisions/22-messaging.md, "Staff notices"). Applied at once and put back with a
// short notice when the server refuses it (docs/decisions/08-offline-pwa.md).
import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import { updateUser, useUser, userKeys, type User } from '../../../data/users.ts';
import './booking-notices-card.css';

export const BOOKING_NOTICES_LABEL = 'Email me when a customer books, reschedules or cancels with me';

export function BookingNoticesCard({ userId }: { userId: number }) {
  const id = useId();
  const user = useUser(userId);
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Only staff have the setting (the API leaves it out for customers).
  if (!user.data || typeof user.data.booking_notices !== 'boolean') return null;
  const current = user.data;

  const change = async (on: boolean) => {
    setNotice(null);
    setSaving(true);
    const key = userKeys.detail(userId);
    queryClient.setQueryData<User>(key, { ...current, booking_notices: on });
    try {
      queryClient.setQueryData(key, await updateUser(userId, { booking_notices: on }));
    } catch (err) {
      console.warn('Saving the booking notices setting failed', err);
      queryClient.setQueryData(key, current);
      setNotice(`Could not save the email setting: ${errorMessage(err)} The previous setting is back.`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card settings-section settings-notices" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Email notices</h2>
      {notice && (
        <Alert tone="warn" onDismiss={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <label className="checkbox">
        <input type="checkbox" checked={current.booking_notices} disabled={saving} onChange={(e) => void change(e.target.checked)} />
        <span>{BOOKING_NOTICES_LABEL}</span>
      </label>
      <p className="settings-lead">Changes you or other staff make are not emailed to you.</p>
    </section>
  );
}
