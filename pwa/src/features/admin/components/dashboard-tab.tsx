// Admin dashboard: companies, users, active and expired subscriptions, the share of companies
// with an active subscription (a warning below 80%), Refresh, and links to the other tabs.
import { useId } from 'react';
import { Loading } from '../../../components/loading.tsx';
import { Alert } from '../../../components/alert.tsx';
import { useAdminStats } from '../../../data/admin.ts';
import { ADMIN_TEXT, LoadError } from './load-error.tsx';
import type { AdminTab } from '../admin-tabs.ts';

export const HEALTH_WARNING_PERCENT = 80;

export function healthPercent(active: number, total: number): number | null {
  if (total <= 0) return null;
  return Math.round((active / total) * 100);
}

export function DashboardTab({ onOpenTab }: { onOpenTab: (tab: AdminTab) => void }) {
  const id = useId();
  const stats = useAdminStats();

  if (stats.isPending) return <Loading label="Loading statistics..." />;
  if (stats.isError) return <LoadError text={ADMIN_TEXT.stats} onRetry={() => stats.refetch()} busy={stats.isFetching} />;

  const s = stats.data;
  const pct = healthPercent(s.active_companies, s.total_companies);
  const cards = [
    { label: 'Total companies', value: s.total_companies, tone: 'plain' },
    { label: 'Total users', value: s.total_users, tone: 'plain' },
    { label: 'Active subscriptions', value: s.active_companies, tone: 'good' },
    { label: 'Expired subscriptions', value: s.expired_companies, tone: 'bad' },
  ];

  return (
    <div className="adm-dashboard">
      <div className="adm-toolbar">
        <p className="adm-muted">Figures across every company on this server.</p>
        <button type="button" className="btn btn-secondary" onClick={() => stats.refetch()} disabled={stats.isFetching}>
          {stats.isFetching ? 'Refreshing...' : 'Refresh'}
        </button>
      </div>
      <ul className="adm-cards">
        {cards.map((c) => (
          <li key={c.label} className={`card adm-stat adm-stat-${c.tone}`}>
            <span className="adm-stat-label">{c.label}</span>
            <span className="adm-stat-value">{c.value.toLocaleString()}</span>
          </li>
        ))}
      </ul>

      <section className="card adm-health" aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`}>Subscription health</h2>
        {pct === null ? (
          <p className="adm-muted">No companies yet.</p>
        ) : (
          <>
            <p className="adm-health-figure">
              <strong>{pct}%</strong> of companies have an active subscription ({s.active_companies} of {s.total_companies}).
            </p>
            <div
              className={`adm-bar${pct < HEALTH_WARNING_PERCENT ? ' low' : ''}`}
              role="meter"
              aria-label="Companies with an active subscription"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={pct}
              aria-valuetext={`${pct}%`}
            >
              <span style={{ width: `${pct}%` }} />
            </div>
            {pct < HEALTH_WARNING_PERCENT && (
              <Alert tone="warn" className="adm-health-warn">
                Below {HEALTH_WARNING_PERCENT}%: many companies have let their subscription expire. Check the expired ones under Companies.
              </Alert>
            )}
          </>
        )}
      </section>

      <nav className="card adm-links" aria-label="Quick links">
        <h2>Quick links</h2>
        <div className="adm-link-grid">
          <button type="button" className="adm-link" onClick={() => onOpenTab('companies')}>
            <strong>Companies</strong>
            <span>Subscriptions, expiry dates and usage</span>
          </button>
          <button type="button" className="adm-link" onClick={() => onOpenTab('users')}>
            <strong>Users</strong>
            <span>Everyone, by role and company</span>
          </button>
          <button type="button" className="adm-link" onClick={() => onOpenTab('export')}>
            <strong>Email Export</strong>
            <span>Mailing lists as CSV or for Sendgrid</span>
          </button>
        </div>
      </nav>
    </div>
  );
}
