// Admin users: search by name, email or company; role and company filters; counts per role; each
// user's company (or No Company), role badge, appointment count, joined date and contact links.
import { useId, useMemo, useState } from 'react';
import { Loading } from '../../../components/loading.tsx';
import { RoleBadge, roleLabel } from '../../../components/role-badge.tsx';
import { useAdminUsers, type AdminUser } from '../../../data/admin.ts';
import { ADMIN_TEXT, LoadError } from './load-error.tsx';
import { FormField, SearchField } from '../../../components/form-field.tsx';
import { AdminTable } from './admin-table.tsx';
import { displayPhone } from '../../../lib/phone-display.ts';

const ROLE_ORDER = ['global_admin', 'admin', 'manager', 'employee', 'user', 'customer'];
const NO_COMPANY = 'none';

export function matchesUser(u: AdminUser, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [u.name, u.email, u.company_name ?? ''].some((v) => v.toLowerCase().includes(q));
}

const joined = (iso?: string) =>
  iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : '—';

export function UsersTab() {
  const id = useId();
  const users = useAdminUsers();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [company, setCompany] = useState('');

  const list = useMemo(() => users.data ?? [], [users.data]);
  const roleCounts = useMemo(() => {
    const counts = new Map<string, number>();
    for (const u of list) counts.set(u.role, (counts.get(u.role) ?? 0) + 1);
    return ROLE_ORDER.filter((r) => counts.has(r)).map((r) => ({ role: r, count: counts.get(r)! }));
  }, [list]);
  const companies = useMemo(() => {
    const byId = new Map<number, string>();
    for (const u of list) if (u.company_id !== null) byId.set(u.company_id, u.company_name ?? `Company #${u.company_id}`);
    return [...byId.entries()].sort((a, b) => a[1].localeCompare(b[1]));
  }, [list]);

  const shown = useMemo(
    () =>
      list
        .filter((u) => matchesUser(u, search))
        .filter((u) => !role || u.role === role)
        .filter((u) => !company || (company === NO_COMPANY ? u.company_id === null : String(u.company_id) === company))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [list, search, role, company],
  );

  if (users.isPending) return <Loading label="Loading users..." />;
  if (users.isError) return <LoadError text={ADMIN_TEXT.users} onRetry={() => users.refetch()} busy={users.isFetching} />;

  return (
    <div className="adm-section">
      <ul className="adm-role-counts" aria-label="Users per role">
        {roleCounts.map((r) => (
          <li key={r.role}>
            <RoleBadge role={r.role} /> <span className="adm-role-n">{r.count}</span>
          </li>
        ))}
      </ul>
      <div className="adm-filters adm-filters-3">
        <SearchField
          label="Search users"
          id={`${id}-q`}
          className="adm-search"
          placeholder="Name, email or company"
          value={search}
          onValueChange={setSearch}
        />
        <FormField label="Role" id={`${id}-role`}>
          <select className="select" value={role} onChange={(e) => setRole(e.target.value)}>
            <option value="">All roles</option>
            {ROLE_ORDER.map((r) => (
              <option key={r} value={r}>
                {roleLabel(r)}
              </option>
            ))}
          </select>
        </FormField>
        <FormField label="Company" id={`${id}-co`}>
          <select className="select" value={company} onChange={(e) => setCompany(e.target.value)}>
            <option value="">All companies</option>
            <option value={NO_COMPANY}>No Company</option>
            {companies.map(([cid, name]) => (
              <option key={cid} value={String(cid)}>
                {name}
              </option>
            ))}
          </select>
        </FormField>
      </div>

      <AdminTable
        countText={shown.length === 1 ? '1 user' : `${shown.length} users`}
        empty={shown.length === 0}
        emptyText="No users match."
        className="adm-users"
        columns={['Name', 'Contact', 'Company', 'Role', 'Appointments', 'Joined']}
      >
        {shown.map((u) => (
          <tr key={u.id}>
            <th scope="row" className="adm-cell-title">
              {u.name}
            </th>
            <td data-label="Contact" className="adm-contact">
              <a href={`mailto:${u.email}`}>{u.email}</a>
              {u.phone && <a href={`tel:${u.phone.replace(/[^\d+]/g, '')}`}>{displayPhone(u.phone)}</a>}
            </td>
            <td data-label="Company" className="adm-wrap">
              {u.company_name ?? <span className="adm-muted">No Company</span>}
            </td>
            <td data-label="Role">
              <RoleBadge role={u.role} />
            </td>
            <td data-label="Appointments">{u.appointment_count ?? 0}</td>
            <td data-label="Joined" className="adm-date">
              {joined(u.created_at)}
            </td>
          </tr>
        ))}
      </AdminTable>
    </div>
  );
}
