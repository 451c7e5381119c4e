// Cancel, after a confirming second step (a stray tap must not give the time away).
import { useState } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { errorMessage } from '../../../lib/api-errors.ts';
import { useCancelManagedAppointment } from '../../../data/manage.ts';
import { MANAGE_TEXT } from '../manage-text.ts';

export function CancelPanel({ token, onDone }: { token: string; onDone: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const cancel = useCancelManagedAppointment(token);

  if (!confirming) {
    return (
      <button type="button" className="btn btn-secondary btn-block manage-cancel" onClick={() => setConfirming(true)}>
        {MANAGE_TEXT.cancel}
      </button>
    );
  }
  return (
    <div className="manage-confirm" role="group" aria-label={MANAGE_TEXT.cancel}>
      <p>{MANAGE_TEXT.cancelConfirm}</p>
      {cancel.isError && <Alert tone="error">{errorMessage(cancel.error)}</Alert>}
      <div className="manage-actions">
        <button
          type="button"
          className="btn btn-danger btn-block"
          disabled={cancel.isPending}
          onClick={() => cancel.mutate(undefined, { onSuccess: onDone })}
        >
          {cancel.isPending ? 'Cancelling...' : MANAGE_TEXT.cancelYes}
        </button>
        <button type="button" className="btn btn-ghost btn-block" disabled={cancel.isPending} onClick={() => setConfirming(false)}>
          {MANAGE_TEXT.cancelNo}
        </button>
      </div>
    </div>
  );
}
