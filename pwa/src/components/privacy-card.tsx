// 'Your data' (docs/decisions/32-privacy-and-operations.md): download everything held about a person
// as JSON, and erase a customer's account after a confirmation. In Settings for the signed-in person
// (who is signed out after erasing), and in the Directory's person view for the company's admins.
import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { leaveLoginNotice, useAuth } from '../lib/auth.tsx';
import { errorMessage } from '../lib/api-errors.ts';
import { erasePerson, exportFileName, getPersonExport } from '../data/privacy.ts';
import { Alert } from './alert.tsx';
import './privacy-card.css';

export const PRIVACY_TEXT = {
  title: 'Your data',
  download: 'Download my data',
  erase: 'Erase my account',
  confirm: 'Erase for good',
  cancel: 'Cancel',
  adminTitle: 'Personal data',
  adminDownload: 'Download their data',
  adminErase: 'Erase this customer',
  erased: 'The customer was erased. Their appointments stay on the calendar as "Deleted customer".',
  selfErased: 'Your account was erased.',
} as const;

function saveJson(name: string, data: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function PrivacyCard({
  userId,
  role,
  companyId,
  onErased,
}: {
  userId: number;
  /** The person's role: only customers can be erased (staff are removed from the Directory). */
  role: string;
  companyId: number | null;
  /** After an admin erased someone (the page goes back to its list). */
  onErased?: () => void;
}) {
  const id = useId();
  const { user: viewer, signOut } = useAuth();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!viewer) return null;
  const self = viewer.id === userId;
  const companyAdmin = viewer.role === 'admin' && viewer.company_id !== null && viewer.company_id === companyId;
  if (!self && !companyAdmin) return null;
  const canErase = role === 'customer';
  const text = self
    ? { title: PRIVACY_TEXT.title, download: PRIVACY_TEXT.download, erase: PRIVACY_TEXT.erase }
    : { title: PRIVACY_TEXT.adminTitle, download: PRIVACY_TEXT.adminDownload, erase: PRIVACY_TEXT.adminErase };

  const download = async () => {
    setError(null);
    setBusy(true);
    try {
      const data = await getPersonExport(userId);
      saveJson(exportFileName(data), data);
    } catch (err) {
      setError(`Could not download the data: ${errorMessage(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const erase = async () => {
    setError(null);
    setBusy(true);
    try {
      await erasePerson(userId);
      if (self) {
        // Their sessions ended with the erasure: leave nothing of theirs in this browser either.
        leaveLoginNotice(PRIVACY_TEXT.selfErased);
        signOut();
        return;
      }
      // Back to the list first: refreshed while still on the erased person's page, it asks for them again (404).
      setConfirming(false);
      onErased?.();
      void queryClient.invalidateQueries({ queryKey: ['users'] });
    } catch (err) {
      setError(`Could not erase: ${errorMessage(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card settings-section privacy-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{text.title}</h2>
      {error && (
        <Alert tone="error" onDismiss={() => setError(null)}>
          {error}
        </Alert>
      )}
      <p className="settings-lead">
        {self
          ? 'A copy of everything we hold about you: your profile, your appointments and the messages we sent you, as a JSON file.'
          : 'A copy of everything held about this person (profile, appointments, messages sent), as a JSON file.'}
      </p>
      <div className="privacy-actions">
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void download()}>
          {text.download}
        </button>
        {canErase && !confirming && (
          <button type="button" className="btn btn-danger" disabled={busy} onClick={() => setConfirming(true)}>
            {text.erase}
          </button>
        )}
      </div>
      {canErase && confirming && (
        <div className="privacy-confirm" role="alertdialog" aria-labelledby={`${id}-c`}>
          <p id={`${id}-c`}>
            {self ? 'Your' : 'Their'} name, email address, phone number and password will be removed for good. Appointments stay on the
            company&apos;s calendar as &quot;Deleted customer&quot; and messages not yet sent are cancelled.
            {self
              ? ' Upcoming appointments stay booked: cancel any you will not come to first, as afterwards you cannot change them. You will be signed out.'
              : ' Their upcoming appointments stay booked, and the business can no longer reach them about them.'}
          </p>
          <div className="privacy-actions">
            <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void erase()}>
              {PRIVACY_TEXT.confirm}
            </button>
            <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => setConfirming(false)}>
              {PRIVACY_TEXT.cancel}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
