// /admin (global_admin only, docs/product/02-screens.md "Admin panel"): Dashboard, Companies, Users,
// Email Export and Activity (the audit log, docs/decisions/31-audit-log.md) tabs; the open tab is kept in the URL (?tab=) so Back and reloads keep it.
import { useId, useRef, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ADMIN_TABS, isAdminTab, type AdminTab } from './admin-tabs.ts';
import { DashboardTab } from './components/dashboard-tab.tsx';
import { CompaniesTab } from './components/companies-tab.tsx';
import { UsersTab } from './components/users-tab.tsx';
import { EmailExportTab } from './components/email-export-tab.tsx';
import { ActivityTab } from './components/activity-tab.tsx';
import './admin-page.css';

export default function AdminPage() {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: AdminTab = isAdminTab(raw) ? raw : 'dashboard';
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});

  const open = (next: AdminTab, focus = false) => {
    setParams(next === 'dashboard' ? {} : { tab: next });
    if (focus) tabRefs.current[next]?.focus();
  };

  // Arrow keys, Home and End move between tabs (WAI-ARIA tabs pattern, automatic activation).
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = ADMIN_TABS.findIndex((t) => t.id === tab);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % ADMIN_TABS.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + ADMIN_TABS.length) % ADMIN_TABS.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = ADMIN_TABS.length - 1;
    if (next < 0) return;
    e.preventDefault();
    open(ADMIN_TABS[next].id, true);
  };

  return (
    <div className="adm-page">
      <div className="adm-tabs" role="tablist" aria-label="Administration" onKeyDown={onKeyDown}>
        {ADMIN_TABS.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[t.id] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`${id}-panel`}
            tabIndex={tab === t.id ? 0 : -1}
            className={`adm-tab${tab === t.id ? ' on' : ''}`}
            onClick={() => open(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${tab}`} className="adm-panel">
        {tab === 'dashboard' && <DashboardTab onOpenTab={(t) => open(t)} />}
        {tab === 'companies' && <CompaniesTab />}
        {tab === 'users' && <UsersTab />}
        {tab === 'export' && <EmailExportTab />}
        {tab === 'activity' && <ActivityTab />}
      </div>
    </div>
  );
}
