// An admin panel failure (docs/product/08-errors.md, "Admin") with its Retry button.
import { Alert } from '../../../components/alert.tsx';

export const ADMIN_TEXT = {
  stats: 'Failed to load admin statistics',
  companies: 'Failed to load companies',
  subscription: 'Failed to update subscription',
  users: 'Failed to load users',
  exportJson: 'Failed to export user emails',
  exportCsv: 'Failed to export user emails as CSV',
  copyEmails: 'Failed to copy emails to clipboard',
  copySendgrid: 'Failed to copy Sendgrid data to clipboard',
} as const;

export function LoadError({ text, onRetry, busy = false }: { text: string; onRetry: () => void; busy?: boolean }) {
  return (
    <Alert tone="error" className="adm-error">
      <span>{text}</span>
      <button type="button" className="btn btn-secondary btn-sm adm-retry" onClick={onRetry} disabled={busy}>
        {busy ? 'Retrying...' : 'Retry'}
      </button>
    </Alert>
  );
}
