// Admin Activity (docs/decisions/31-audit-log.md): the audit log of every company, newest first, or
// of the one chosen; failed sign-ins for unknown emails (no company) show only under All companies.
import { useId, useMemo, useState } from 'react';
import { ActivityLog } from '../../../components/activity-log.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { useAdminCompanies } from '../../../data/admin.ts';

export function ActivityTab() {
  const id = useId();
  const companies = useAdminCompanies();
  const [company, setCompany] = useState('');
  const names = useMemo(() => new Map((companies.data ?? []).map((c) => [c.id, c.name] as const)), [companies.data]);
  const sorted = useMemo(() => [...names].sort((a, b) => a[1].localeCompare(b[1])), [names]);
  return (
    <div className="adm-activity">
      <div className="adm-filters">
        <FormField label="Company" id={`${id}-co`}>
          <select className="select" value={company} onChange={(e) => setCompany(e.target.value)}>
            <option value="">All companies</option>
            {sorted.map(([cid, name]) => (
              <option key={cid} value={String(cid)}>
                {name}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      <ActivityLog key={company} companyId={company ? Number(company) : null} companyNames={names} />
    </div>
  );
}
