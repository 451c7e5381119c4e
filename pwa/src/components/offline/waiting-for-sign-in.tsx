// On the sign-in page: changes made on this device wait for the person who made them (a 401 while
// sending signed them out, or they signed out with changes queued). They are sent once that person
// signs in again; nobody else's sign-in sends or shows them (docs/decisions/08-offline-pwa.md).
import { useWaitingForSignIn } from '../../data/outbox.ts';
import { SIGN_IN_TO_SEND_TEXT, waitingForSignInText } from './offline-texts.ts';

export function WaitingForSignIn() {
  const note = useWaitingForSignIn();
  if (!note) return null;
  return (
    <div className="alert alert-warn" role="status" data-testid="waiting-for-sign-in">
      <div className="alert-text">
        <strong>{SIGN_IN_TO_SEND_TEXT}.</strong> {waitingForSignInText(note.count, note.refused, note.held)}
      </div>
    </div>
  );
}
