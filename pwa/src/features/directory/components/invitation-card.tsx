// Someone added to the company who has not set a password yet cannot sign in: their invitation
// email may be lost, or its 7 days over (docs/decisions/19-tokens-and-password-links.md). Whoever could
// have added them sends a fresh one (POST /users/{id}/invitation); the earlier links stop working.
import { useId } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { errorMessage } from '../../../lib/api-errors.ts';
import { useInviteAgain, type User } from '../../../data/users.ts';
import '../../../components/privacy-card.css';

export const INVITATION_TEXT = {
  title: 'Invitation',
  send: 'Send the invitation again',
} as const;

export function InvitationCard({ person }: { person: User }) {
  const id = useId();
  const invite = useInviteAgain();
  return (
    <section className="card settings-section privacy-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{INVITATION_TEXT.title}</h2>
      <p className="settings-lead">
        {person.name} has not set a password yet, so cannot sign in. A new invitation goes to {person.email}, with a link that works for 7
        days; links sent before stop working.
      </p>
      {invite.isSuccess && (
        <Alert tone="success" onDismiss={() => invite.reset()}>
          Invitation sent to {person.email}.
        </Alert>
      )}
      {invite.error && (
        <Alert tone="error" onDismiss={() => invite.reset()}>
          {`Could not send the invitation: ${errorMessage(invite.error)}`}
        </Alert>
      )}
      <div className="privacy-actions">
        <button type="button" className="btn btn-secondary" disabled={invite.isPending} onClick={() => invite.mutate(person.id)}>
          {invite.isPending ? 'Sending...' : INVITATION_TEXT.send}
        </button>
      </div>
    </section>
  );
}
