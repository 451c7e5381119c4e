// The card of a secret calendar feed address (docs/decisions/24-calendar-feeds.md), shared by the
// staff member's Settings and Company settings: the address read-only, Copy with a "Copied"
// confirmation, and Regenerate behind a confirmation, since every subscription to the old address stops.
import { useId, useState, type ReactNode } from 'react';
import { errorMessage } from '../lib/api-errors.ts';
import { useCopyText } from '../lib/use-copy-text.ts';
import { Alert } from './alert.tsx';
import { Modal } from './modal.tsx';
import './feed-address-card.css';

export const FEED_TEXT = {
  copy: 'Copy',
  copied: 'Copied',
  copyFailed: 'Could not copy: select the address and copy it by hand.',
  regenerate: 'Regenerate',
  confirmTitle: 'Regenerate the feed address?',
  confirmText: 'Calendars subscribed to the current address stop updating at once. You will need to subscribe again with the new address.',
  regenerated: 'New address ready: subscribe to it again in your calendar app.',
  refresh: 'Google, Apple and Outlook calendars refresh subscribed calendars on their own schedule, often every few hours.',
  private: 'Keep this address private: anyone who has it can see these appointments.',
} as const;

export interface FeedAddressCardProps {
  title: string;
  lead: ReactNode;
  /** The address, once loaded. */
  url: string | undefined;
  loading: boolean;
  /** Why the address could not be loaded (with a Retry). */
  loadError: string | null;
  onRetry: () => void;
  /** Replaces the address; rejects with the message to show. */
  onRegenerate: () => Promise<unknown>;
  regenerating: boolean;
  className?: string;
  /** More settings of the feed (the company's hide-names toggle). */
  children?: ReactNode;
}

/** The address props from a feed's query and its regenerate mutation (the staff and the company feed alike). */
export function feedAddressProps(
  feed: { data?: { url: string }; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown },
  regenerate: { mutateAsync: () => Promise<unknown>; isPending: boolean },
): Pick<FeedAddressCardProps, 'url' | 'loading' | 'loadError' | 'onRetry' | 'onRegenerate' | 'regenerating'> {
  return {
    url: feed.data?.url,
    loading: feed.isPending,
    loadError: feed.isError ? errorMessage(feed.error) : null,
    onRetry: () => void feed.refetch(),
    onRegenerate: () => regenerate.mutateAsync().catch((err: unknown) => Promise.reject(new Error(errorMessage(err)))),
    regenerating: regenerate.isPending,
  };
}

export function FeedAddressCard(props: FeedAddressCardProps) {
  const { title, lead, url, loading, loadError, onRetry, onRegenerate, regenerating, className, children } = props;
  const id = useId();
  const { copied, copy, reset: resetCopied } = useCopyText();
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const regenerate = () => {
    setOutcome(null);
    onRegenerate().then(
      () => {
        setConfirming(false);
        resetCopied();
        setOutcome({ tone: 'success', text: FEED_TEXT.regenerated });
      },
      (err: unknown) => {
        setConfirming(false);
        setOutcome({ tone: 'error', text: `Could not regenerate the address: ${err instanceof Error ? err.message : String(err)}` });
      },
    );
  };

  return (
    <section className={`card feed-card${className ? ` ${className}` : ''}`} aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{title}</h2>
      <p className="feed-lead">{lead}</p>
      {loading ? (
        <p className="feed-muted">Loading the feed address...</p>
      ) : loadError ? (
        <Alert tone="error">
          Could not load the feed address: {loadError}{' '}
          <button type="button" className="btn-link" onClick={onRetry}>
            Retry
          </button>
        </Alert>
      ) : (
        <>
          <div className="feed-row">
            <label htmlFor={`${id}-url`} className="visually-hidden">
              {title} address
            </label>
            <input id={`${id}-url`} className="input feed-url" value={url ?? ''} readOnly onFocus={(e) => e.target.select()} />
            <div className="feed-buttons">
              <button type="button" className="btn btn-primary" disabled={!url} onClick={() => copy(url ?? '')}>
                {FEED_TEXT.copy}
              </button>
              <button type="button" className="btn btn-secondary" disabled={!url || regenerating} onClick={() => setConfirming(true)}>
                {FEED_TEXT.regenerate}
              </button>
            </div>
          </div>
          <p className="feed-status" role="status">
            {copied === 'ok' ? (
              <span className="feed-ok">{FEED_TEXT.copied}</span>
            ) : copied === 'failed' ? (
              <span className="field-error">{FEED_TEXT.copyFailed}</span>
            ) : null}
          </p>
          {outcome && (
            <Alert tone={outcome.tone} onDismiss={() => setOutcome(null)}>
              {outcome.text}
            </Alert>
          )}
          <p className="feed-muted">{FEED_TEXT.private}</p>
          <p className="feed-muted">{FEED_TEXT.refresh}</p>
        </>
      )}
      {children}
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        title={FEED_TEXT.confirmTitle}
        size="sm"
        busy={regenerating}
        footer={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirming(false)} disabled={regenerating}>
              Cancel
            </button>
            <button type="button" className="btn feed-danger" onClick={regenerate} disabled={regenerating}>
              {regenerating ? 'Regenerating...' : FEED_TEXT.regenerate}
            </button>
          </>
        }
      >
        <p>{FEED_TEXT.confirmText}</p>
      </Modal>
    </section>
  );
}
