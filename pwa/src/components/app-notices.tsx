// The bars pinned above every page: connection notice, global API error banner, update prompt.
import { connection } from '../lib/api-client.ts';
import { dismissError, useErrorBanner } from '../lib/error-banner.ts';
import { useStore } from '../lib/store.ts';
import { acceptUpdate, useUpdateAvailable, useUpdateWaiting } from '../lib/pwa-update.ts';
import { BOTH_FAILED_TEXT } from '../lib/connection.ts';

export function AppNotices() {
  const { notice } = useStore(connection.state);
  const error = useErrorBanner();
  const updateAvailable = useUpdateAvailable();
  const waiting = useUpdateWaiting();

  return (
    <div className="notices">
      {notice && (
        <div
          className={`notice-bar ${notice === BOTH_FAILED_TEXT ? 'alert-error' : 'alert-warn'}`}
          role="status"
          aria-live="polite"
          data-testid="connection-notice"
        >
          <span className="alert-text">{notice}</span>
        </div>
      )}
      {error && (
        <div className="notice-bar alert-error" role="alert" data-testid="error-banner">
          <span className="alert-text">{error}</span>
          <button type="button" className="alert-close" onClick={dismissError} aria-label="Dismiss error">
            ×
          </button>
        </div>
      )}
      {updateAvailable && (
        <div className="notice-bar alert-info" role="status">
          <span className="alert-text">
            {waiting ? 'The new version will load once your offline changes are sent.' : 'A new version of Bookwell is available.'}
          </span>
          {!waiting && (
            <button type="button" className="btn btn-primary" onClick={() => void acceptUpdate()}>
              Reload
            </button>
          )}
        </div>
      )}
    </div>
  );
}
