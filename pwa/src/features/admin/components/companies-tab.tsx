// Admin companies: search by name, email or slug; all / active / expired; each company's counts,
// subscription status and expiry, and an Edit button for the expiry.
import { useId, useMemo, useState } from 'react';
import { Loading } from '../../../components/loading.tsx';
import { useAdminCompanies, isCompanyActive, type AdminCompany } from '../../../data/admin.ts';
import { ADMIN_TEXT, LoadError } from './load-error.tsx';
import { EditSubscriptionModal } from './edit-subscription-modal.tsx';
import { SearchField } from '../../../components/form-field.tsx';
import { AdminTable } from './admin-table.tsx';

type StatusFilter = 'all' | 'active' | 'expired';

const FILTERS: { id: StatusFilter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'active', label: 'Active' },
  { id: 'expired', label: 'Expired' },
];

export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

export function matchesCompany(c: AdminCompany, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [c.name, c.email ?? '', c.slug].some((v) => v.toLowerCase().includes(q));
}

export function CompaniesTab() {
  const id = useId();
  const companies = useAdminCompanies();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<StatusFilter>('all');
  const [editing, setEditing] = useState<AdminCompany | null>(null);

  const counts = useMemo(() => {
    const list = companies.data ?? [];
    const active = list.filter((c) => isCompanyActive(c)).length;
    return { all: list.length, active, expired: list.length - active };
  }, [companies.data]);

  const shown = useMemo(
    () =>
      (companies.data ?? [])
        .filter((c) => matchesCompany(c, search))
        .filter((c) => filter === 'all' || (filter === 'active') === isCompanyActive(c))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [companies.data, search, filter],
  );

  if (companies.isPending) return <Loading label="Loading companies..." />;
  if (companies.isError) {
    return <LoadError text={ADMIN_TEXT.companies} onRetry={() => companies.refetch()} busy={companies.isFetching} />;
  }

  return (
    <div className="adm-section">
      <div className="adm-filters">
        <SearchField
          label="Search companies"
          id={`${id}-q`}
          className="adm-search"
          placeholder="Name, email or slug"
          value={search}
          onValueChange={setSearch}
        />
        <div className="adm-seg" role="group" aria-label="Subscription status">
          {FILTERS.map((f) => (
            <button
              key={f.id}
              type="button"
              className={`adm-seg-btn${filter === f.id ? ' on' : ''}`}
              aria-pressed={filter === f.id}
              onClick={() => setFilter(f.id)}
            >
              {f.label} <span className="adm-seg-count">{counts[f.id]}</span>
            </button>
          ))}
        </div>
      </div>

      <AdminTable
        countText={shown.length === 1 ? '1 company' : `${shown.length} companies`}
        empty={shown.length === 0}
        emptyText="No companies match."
        className="adm-companies"
        columns={['Company', 'Email', 'Slug', 'Users', 'Appointments', 'Status', 'Expires']}
        actions
      >
        {shown.map((c) => {
          const active = isCompanyActive(c);
          return (
            <tr key={c.id}>
              <th scope="row" className="adm-cell-title">
                {c.name}
              </th>
              <td data-label="Email" className="adm-wrap">
                {c.email ?? '—'}
              </td>
              <td data-label="Slug" className="adm-mono">
                {c.slug}
              </td>
              <td data-label="Users">{c.user_count}</td>
              <td data-label="Appointments">{c.appointment_count}</td>
              <td data-label="Status">
                <span className={`adm-status ${active ? 'ok' : 'bad'}`}>{active ? 'Active' : 'Expired'}</span>
              </td>
              <td data-label="Expires">{c.subscription_expires_at ? formatDateTime(c.subscription_expires_at) : 'Never expires'}</td>
              <td className="adm-cell-actions">
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  aria-label={`Edit subscription of ${c.name}`}
                  onClick={() => setEditing(c)}
                >
                  Edit
                </button>
              </td>
            </tr>
          );
        })}
      </AdminTable>

      {editing && <EditSubscriptionModal key={editing.id} company={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}
