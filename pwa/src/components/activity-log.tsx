// The audit log as people read it (docs/decisions/31-audit-log.md): who did what, when, with the
// changed fields, newest first, and "Load more" for older entries. Shared by Company settings
// (a company's admins) and the admin panel (global_admin, every company or one).
import { errorMessage } from '../lib/api-errors.ts';
import { useMemo } from 'react';
import { auditActor, auditChangeLines, auditTime, describeAudit, useAuditLog, type AuditEntry, type AuditNames } from '../data/audit.ts';
import { useUsers } from '../data/users.ts';
import { useServiceTypes } from '../data/service-types.ts';
import { dayName } from './weekly-hours.ts';
import { Alert } from './alert.tsx';
import { Loading } from './loading.tsx';
import './activity-log.css';

/**
 * `zone`: the company's time zone, in which its admins read every time (as on its Messages card);
 * without one (the admin panel's log of every company) times carry the browser's zone name.
 */
export function ActivityLog({
  companyId,
  companyNames,
  zone,
}: {
  companyId: number | null;
  companyNames?: Map<number, string>;
  zone?: string;
}) {
  const log = useAuditLog(companyId);
  const names = useCompanyNames(companyId);
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
          <ActivityItem
            key={e.id}
            entry={e}
            zone={zone}
            names={names}
            companyName={companyId === null ? companyLabel(e, companyNames) : null}
          />
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

/**
 * The company's people and services by id, for the entries of one company's log (its admins have
 * both lists); the log of every company names weekdays only.
 */
function useCompanyNames(companyId: number | null): AuditNames {
  const people = useUsers(companyId);
  const services = useServiceTypes(companyId);
  return useMemo(() => {
    const person = new Map((people.data ?? []).map((p) => [p.id, p.name]));
    const service = new Map((services.data ?? []).map((s) => [s.id, s.name]));
    return { person: (id) => person.get(id), service: (id) => service.get(id), day: dayName };
  }, [people.data, services.data]);
}

function companyLabel(e: AuditEntry, names?: Map<number, string>): string {
  if (e.company_id === null) return 'No company';
  return names?.get(e.company_id) ?? `Company #${e.company_id}`;
}

function ActivityItem({
  entry,
  companyName,
  zone,
  names,
}: {
  entry: AuditEntry;
  companyName: string | null;
  zone?: string;
  names: AuditNames;
}) {
  const lines = auditChangeLines(entry.changes, zone, names);
  return (
    <li className="act-item" data-testid="activity-entry">
      <div className="act-head">
        <span className="act-what">
          <strong>{auditActor(entry)}</strong> {describeAudit(entry, names)}
        </span>
        <time className="act-when" dateTime={entry.at}>
          {auditTime(entry.at, zone)}
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
