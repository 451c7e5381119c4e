// Email export: role filter and active-subscriptions-only; Preview as JSON (count and table),
// Download CSV (user_emails_{date}.csv), Copy Email Addresses (one per line) and Copy for
// Sendgrid (email,name lines), both confirmed by an alert.
import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from '../../../components/alert.tsx';
import { roleLabel } from '../../../components/role-badge.tsx';
import {
  csvFileName,
  emailExportQuery,
  exportUserEmailsCsv,
  type EmailExport,
  type ExportFilters,
  type ExportedEmail,
} from '../../../data/admin.ts';
import { ADMIN_TEXT, LoadError } from './load-error.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { TableHead } from '../../../components/table-head.tsx';

const EXPORT_ROLES = ['global_admin', 'admin', 'manager', 'employee', 'user', 'customer'];

/** One address per line. */
export const emailLines = (rows: ExportedEmail[]) => rows.map((r) => r.email).join('\n');

const csvCell = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Sendgrid's contact import: an email,name header, then one contact per line. */
export const sendgridLines = (rows: ExportedEmail[]) =>
  ['email,name', ...rows.map((r) => `${csvCell(r.email)},${csvCell(r.name ?? '')}`)].join('\n');

async function writeClipboard(text: string): Promise<void> {
  if (!navigator.clipboard?.writeText) throw new Error('Clipboard unavailable');
  await navigator.clipboard.writeText(text);
}

type Action = 'preview' | 'csv' | 'copy' | 'sendgrid';

export function EmailExportTab() {
  const id = useId();
  const queryClient = useQueryClient();
  const [role, setRole] = useState('');
  const [activeOnly, setActiveOnly] = useState(false);
  const [preview, setPreview] = useState<{ filters: ExportFilters; data: EmailExport } | null>(null);
  const [busy, setBusy] = useState<Action | null>(null);
  const [failure, setFailure] = useState<{ text: string; retry: Action } | null>(null);

  const filters: ExportFilters = { role, activeOnly };
  const fetchList = () => queryClient.fetchQuery(emailExportQuery(filters));

  const run = async (action: Action) => {
    setBusy(action);
    setFailure(null);
    try {
      if (action === 'preview') {
        setPreview({ filters, data: await fetchList() });
      } else if (action === 'csv') {
        const blob = await exportUserEmailsCsv(filters);
        const url = URL.createObjectURL(blob);
        const a = document.createElement('a');
        a.href = url;
        a.download = csvFileName();
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      } else {
        let data: EmailExport;
        try {
          data = await fetchList();
        } catch {
          setFailure({ text: ADMIN_TEXT.exportJson, retry: action });
          return;
        }
        try {
          await writeClipboard(action === 'copy' ? emailLines(data.emails) : sendgridLines(data.emails));
        } catch {
          setFailure({ text: action === 'copy' ? ADMIN_TEXT.copyEmails : ADMIN_TEXT.copySendgrid, retry: action });
          return;
        }
        window.alert(
          action === 'copy'
            ? `Copied ${data.count} email ${data.count === 1 ? 'address' : 'addresses'} to the clipboard.`
            : `Copied ${data.count} ${data.count === 1 ? 'contact' : 'contacts'} for Sendgrid to the clipboard.`,
        );
      }
    } catch {
      setFailure({ text: action === 'csv' ? ADMIN_TEXT.exportCsv : ADMIN_TEXT.exportJson, retry: action });
    } finally {
      setBusy(null);
    }
  };

  const stale = preview && (preview.filters.role !== role || preview.filters.activeOnly !== activeOnly);

  return (
    <div className="adm-section">
      <section className="card adm-export" aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`}>Export user emails</h2>
        <div className="adm-export-filters">
          <FormField label="Role" id={`${id}-role`}>
            <select className="select" value={role} onChange={(e) => setRole(e.target.value)}>
              <option value="">All roles</option>
              {EXPORT_ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleLabel(r)}
                </option>
              ))}
            </select>
          </FormField>
          <label className="checkbox adm-export-check">
            <input type="checkbox" checked={activeOnly} onChange={(e) => setActiveOnly(e.target.checked)} />
            <span>Only companies with an active subscription</span>
          </label>
        </div>
        <div className="adm-export-actions">
          <button type="button" className="btn btn-primary" disabled={busy !== null} onClick={() => run('preview')}>
            {busy === 'preview' ? 'Loading...' : 'Preview as JSON'}
          </button>
          <button type="button" className="btn btn-secondary" disabled={busy !== null} onClick={() => run('csv')}>
            {busy === 'csv' ? 'Preparing...' : 'Download CSV'}
          </button>
          <button type="button" className="btn btn-secondary" disabled={busy !== null} onClick={() => run('copy')}>
            Copy Email Addresses
          </button>
          <button type="button" className="btn btn-secondary" disabled={busy !== null} onClick={() => run('sendgrid')}>
            Copy for Sendgrid
          </button>
        </div>
        {failure && <LoadError text={failure.text} onRetry={() => run(failure.retry)} busy={busy !== null} />}
      </section>

      {preview && (
        <section className="card adm-table-card adm-preview" aria-labelledby={`${id}-p`}>
          <h2 id={`${id}-p`} className="adm-preview-head">
            {preview.data.count === 1 ? '1 email address' : `${preview.data.count} email addresses`}
          </h2>
          {stale && <Alert tone="info">The filters changed since this preview. Preview again to update it.</Alert>}
          {preview.data.emails.length === 0 ? (
            <p className="adm-empty">No users match these filters.</p>
          ) : (
            <table className="adm-table adm-export-table">
              <TableHead columns={['Email', 'Name', 'Role', 'Company']} />
              <tbody>
                {preview.data.emails.map((r, i) => (
                  <tr key={`${r.email}-${i}`}>
                    <th scope="row" className="adm-cell-title adm-wrap">
                      {r.email}
                    </th>
                    <td data-label="Name">{r.name}</td>
                    <td data-label="Role">{roleLabel(r.role)}</td>
                    <td data-label="Company" className="adm-wrap">
                      {r.company_name ?? 'No Company'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </div>
  );
}
