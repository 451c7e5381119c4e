// The audit log as people read it (docs/decisions/31-audit-log.md): who did what, when, with the
// changed fields, newest first, and "Load more" for older entries. Shared by Company settings
// (a company's admins) and the admin panel (global_admin, every company or one).
import { errorMessage } from '../lib/api-errors.ts';
import { auditActor, auditChangeLines, describeAudit, useAuditLog, type AuditEntry } from '../data/audit.ts';
import { Alert } from './alert.tsx';
import { Loading } from './loading.tsx';
import './activity-log.css';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

export function ActivityLog({ companyId, companyNames }: { companyId: number | null; companyNames?: Map<number, string> }) {
  const log = useAuditLog(companyId);
  if (log.isPending) return <Loading label="Loading activity..." />;
  if (log.isError) {
    return (
      <Alert tone="error">
        Failed to load activity: {errorMessage(log.error)}{' '}
        <button type="button" className="btn-link" onClick={() => log.refetch()}>
          Retry
        </button>
      </Alert>
    );
  }
  const entries = log.data.pages.flat();
  if (entries.length === 0) return <p className="act-empty">No activity yet.</p>;
  return (
    <div className="act-log">
      <ol className="act-list" aria-label="Activity">
        {entries.map((e) => (
          <ActivityItem key={e.id} entry={e} companyName={companyId === null ? companyLabel(e, companyNames) : null} />
        ))}
      </ol>
      {log.hasNextPage && (
        <button type="button" className="btn btn-secondary act-more" disabled={log.isFetchingNextPage} onClick={() => log.fetchNextPage()}>
          {log.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </button>
      )}
    </div>
  );
}

function companyLabel(e: AuditEntry, names?: Map<number, string>): string {
  if (e.company_id === null) return 'No company';
  return names?.get(e.company_id) ?? `Company #${e.company_id}`;
}

function ActivityItem({ entry, companyName }: { entry: AuditEntry; companyName: string | null }) {
  const lines = auditChangeLines(entry.changes);
  return (
    <li className="act-item" data-testid="activity-entry">
      <div className="act-head">
        <span className="act-what">
          <strong>{auditActor(entry)}</strong> {describeAudit(entry)}
        </span>
        <time className="act-when" dateTime={entry.at}>
          {when(entry.at)}
        </time>
      </div>
      {(companyName || entry.ip) && (
        <div className="act-meta">
          {companyName && <span>{companyName}</span>}
          {entry.ip && <span>IP {entry.ip}</span>}
        </div>
      )}
      {lines.length > 0 && (
        <dl className="act-changes">
          {lines.map((l) => (
            <div key={l.field} className="act-change">
              <dt>{l.field}</dt>
              <dd>{l.text}</dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}
