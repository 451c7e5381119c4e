// GET /admin/users/export: the mailing list as JSON {count, emails} or as a CSV download
// (header email,name,role,company_name), filtered by role and active subscriptions.
import { queryOptions } from '@tanstack/react-query';
import { api, apiFetch, unwrap, withQuery } from '../../../lib/api-client.ts';

export interface ExportFilters {
  /** '' for every role. */
  role: string;
  activeOnly: boolean;
}

export interface ExportedEmail {
  email: string;
  name: string;
  role: string;
  company_name: string | null;
}

export interface EmailExport {
  count: number;
  emails: ExportedEmail[];
}

const queryOf = (f: ExportFilters, format: 'json' | 'csv') => ({
  format,
  role: f.role || undefined,
  active_only: f.activeOnly ? 'true' : undefined,
});

export function exportUserEmails(f: ExportFilters, signal?: AbortSignal): Promise<EmailExport> {
  return api.get<EmailExport>('/admin/users/export', { query: queryOf(f, 'json'), signal });
}

export const emailExportQuery = (f: ExportFilters) =>
  queryOptions({
    queryKey: ['admin', 'export', f],
    queryFn: ({ signal }) => exportUserEmails(f, signal),
    meta: { errorBanner: false },
    staleTime: 0,
  });

/** The CSV as the server wrote it. */
export async function exportUserEmailsCsv(f: ExportFilters): Promise<Blob> {
  const res = await apiFetch(withQuery('/admin/users/export', queryOf(f, 'csv')), { headers: { Accept: 'text/csv' } });
  if (!res.ok) await unwrap(res); // throws the ApiError
  return res.blob();
}

/** user_emails_{YYYY-MM-DD}.csv, with today's local date. */
export function csvFileName(now = new Date()): string {
  const d = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return `user_emails_${d}.csv`;
}
