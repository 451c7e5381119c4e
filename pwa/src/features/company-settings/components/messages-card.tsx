// Company settings (admins and managers): the company's recent emails and texts, sent, waiting or
// failed with the reason, and Retry for one that could not be delivered (docs/decisions/22-messaging.md).
import { useId, useState } from 'react';
import { errorMessage } from '../../../lib/api-errors.ts';
import { Alert } from '../../../components/alert.tsx';
import {
  MESSAGE_STATES,
  RETRYABLE,
  useCompanyMessages,
  useRetryMessage,
  type MessageState,
  type OutboxMessage,
} from '../../../data/messages.ts';
import type { Company } from '../../../data/companies.ts';
import { dateTimeFormat } from '../../../lib/zoned-time.ts';
import './messages-card.css';

export const KIND_LABELS: Record<string, string> = {
  confirmation: 'Booking confirmation',
  reminder: 'Reminder',
  reschedule: 'Reschedule notice',
  cancellation: 'Cancellation notice',
  staff_notice: 'Staff notice',
  invitation: 'Invitation',
  password_reset: 'Password reset',
};

export const STATE_LABELS: Record<MessageState, string> = {
  pending: 'Waiting',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed, will retry',
  dead: 'Not delivered',
  cancelled: 'Cancelled',
};

function when(m: OutboxMessage, zone: string): string {
  const at = m.state === 'sent' && m.sent_at ? m.sent_at : m.due_at;
  const text = dateTimeFormat('en-US', {
    timeZone: zone,
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(at));
  if (m.state === 'sent') return `Sent ${text}`;
  if (m.state === 'pending' || m.state === 'failed') return `Due ${text}`;
  return text;
}

/** How many messages the card lists at first, and adds per "Show more messages". */
const PAGE = 10;

export function MessagesCard({ company }: { company: Company }) {
  const id = useId();
  const [state, setState] = useState<MessageState | null>(null);
  const messages = useCompanyMessages(company.id, state);
  const retry = useRetryMessage(company.id);
  const [problem, setProblem] = useState<string | null>(null);
  // The newest few first; the rest of the 50 fetched on request, so the card does not fill the page.
  const [shown, setShown] = useState(PAGE);

  return (
    <section className="card cs-card msg-card" aria-labelledby={`${id}-h`}>
      <div className="msg-head">
        <h2 id={`${id}-h`}>Messages</h2>
        <button type="button" className="btn btn-ghost msg-refresh" onClick={() => void messages.refetch()} disabled={messages.isFetching}>
          Refresh
        </button>
      </div>
      <p className="cs-muted">
        The latest emails and text messages to your customers and staff. A message that could not be delivered can be sent again.
      </p>
      <div className="field msg-filter">
        <label htmlFor={`${id}-state`}>Show</label>
        <select
          id={`${id}-state`}
          className="select"
          value={state ?? ''}
          onChange={(e) => {
            setState((e.target.value || null) as MessageState | null);
            setShown(PAGE);
          }}
        >
          <option value="">All messages</option>
          {MESSAGE_STATES.map((s) => (
            <option key={s} value={s}>
              {STATE_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      {problem && (
        <Alert tone="error" onDismiss={() => setProblem(null)}>
          {problem}
        </Alert>
      )}
      {messages.isPending ? (
        <p className="cs-muted">Loading messages...</p>
      ) : messages.isError ? (
        <Alert tone="error">
          Failed to load messages: {errorMessage(messages.error)}{' '}
          <button type="button" className="btn-link" onClick={() => void messages.refetch()}>
            Retry
          </button>
        </Alert>
      ) : messages.data.length === 0 ? (
        <p className="cs-muted">No messages{state ? ` in this state` : ' yet'}.</p>
      ) : (
        <ul className="msg-list" aria-label="Messages">
          {messages.data.slice(0, shown).map((m) => (
            <li key={m.id} className="msg-item" data-state={m.state}>
              <div className="msg-main">
                <div className="msg-line">
                  <span className="msg-kind">{KIND_LABELS[m.kind] ?? m.kind}</span>
                  <span className="msg-channel">{m.channel === 'sms' ? 'Text' : 'Email'}</span>
                  <span className={`msg-state msg-state-${m.state}`}>{STATE_LABELS[m.state]}</span>
                </div>
                <div className="msg-to">{m.to}</div>
                <div className="msg-when">{when(m, company.timezone)}</div>
                {m.last_error && m.state !== 'sent' && <div className="msg-error">{m.last_error}</div>}
              </div>
              {RETRYABLE.includes(m.state) && (
                <button
                  type="button"
                  className="btn btn-secondary msg-retry"
                  disabled={retry.isPending && retry.variables === m.id}
                  aria-label={`Retry ${KIND_LABELS[m.kind] ?? m.kind} to ${m.to}`}
                  onClick={() => {
                    setProblem(null);
                    retry.mutate(m.id, { onError: (err) => setProblem(`Could not retry the message: ${errorMessage(err)}`) });
                  }}
                >
                  Retry
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {messages.data && messages.data.length > shown && (
        <button type="button" className="btn btn-ghost msg-more" onClick={() => setShown((n) => n + PAGE)}>
          Show more messages
        </button>
      )}
    </section>
  );
}
