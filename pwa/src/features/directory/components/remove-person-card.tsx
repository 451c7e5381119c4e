// Removing someone who left the team (DELETE /users/{id}; docs/decisions/02-api-conventions.md: a
// person appointments refer to is archived, so past appointments keep their name). They leave the
// Directory, the staff pickers and the public booking page; they can no longer sign in. Admins
// remove any staff member but themselves, managers employees only, as the server decides.
import { useId, useState } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { errorMessage } from '../../../lib/api-errors.ts';
import { useRemovePerson, type User } from '../../../data/users.ts';
import '../../../components/privacy-card.css';

export const REMOVE_TEXT = {
  title: 'Remove from the team',
  remove: 'Remove from the team',
  confirm: 'Remove',
  cancel: 'Cancel',
} as const;

export function RemovePersonCard({ person, onRemoved }: { person: User; onRemoved: () => void }) {
  const id = useId();
  const remove = useRemovePerson();
  const [confirming, setConfirming] = useState(false);
  const busy = remove.isPending;
  return (
    <section className="card settings-section privacy-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{REMOVE_TEXT.title}</h2>
      {remove.error && (
        <Alert tone="error" onDismiss={() => remove.reset()}>
          {`Could not remove ${person.name}: ${errorMessage(remove.error)}`}
        </Alert>
      )}
      <p className="settings-lead">
        For someone who has left: they can no longer sign in, and customers can no longer book them. Appointments they had keep their name;
        give their upcoming ones to someone else on the calendar.
      </p>
      {!confirming && (
        <div className="privacy-actions">
          <button type="button" className="btn btn-danger" disabled={busy} onClick={() => setConfirming(true)}>
            {REMOVE_TEXT.remove}
          </button>
        </div>
      )}
      {confirming && (
        <div className="privacy-confirm" role="alertdialog" aria-labelledby={`${id}-c`}>
          <p id={`${id}-c`}>Remove {person.name} from the team?</p>
          <div className="privacy-actions">
            <button
              type="button"
              className="btn btn-danger"
              disabled={busy}
              onClick={() => remove.mutateAsync(person.id).then(onRemoved, () => undefined)}
            >
              {busy ? 'Removing...' : REMOVE_TEXT.confirm}
            </button>
            <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => setConfirming(false)}>
              {REMOVE_TEXT.cancel}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
