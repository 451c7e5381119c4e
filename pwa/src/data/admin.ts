// The global_admin's console: figures, every company and user, subscription changes and the
// mailing-list export, all under adminKeys.all (a change refreshes every tab).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';
import { unwrap } from '../lib/api-client.ts';

export type AdminStats = InferResponseType<typeof client.admin.stats.$get, 200>;
export type AdminCompany = InferResponseType<typeof client.admin.companies.$get, 200>[number];
export type AdminUser = InferResponseType<typeof client.admin.users.$get, 200>[number];
/** The JSON answer (the same route answers the CSV as text). */
export type EmailExport = Extract<InferResponseType<typeof client.admin.users.export.$get, 200>, { emails: unknown }>;
export type ExportedEmail = EmailExport['emails'][number];

export interface ExportFilters {
  /** '' for every role. */
  role: string;
  activeOnly: boolean;
}

export const adminKeys = {
  all: ['admin'] as const,
  stats: () => [...adminKeys.all, 'stats'] as const,
  companies: () => [...adminKeys.all, 'companies'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  emailExport: (f: ExportFilters) => [...adminKeys.all, 'export', f] as const,
};

export function getAdminStats(signal?: AbortSignal): Promise<AdminStats> {
  return rpc(client.admin.stats.$get({}, { init: { signal } }));
}

export function getAdminCompanies(signal?: AbortSignal): Promise<AdminCompany[]> {
  return rpc(client.admin.companies.$get({ query: {} }, { init: { signal } }));
}

export function getAdminUsers(signal?: AbortSignal): Promise<AdminUser[]> {
  return rpc(client.admin.users.$get({ query: {} }, { init: { signal } }));
}

const exportQueryOf = (f: ExportFilters, format: 'json' | 'csv') => ({
  format,
  ...(f.role ? { role: f.role } : {}),
  ...(f.activeOnly ? { active_only: 'true' } : {}),
});

export async function exportUserEmails(f: ExportFilters, signal?: AbortSignal): Promise<EmailExport> {
  // format=json: the JSON answer, never the CSV text.
  return (await rpc(client.admin.users.export.$get({ query: exportQueryOf(f, 'json') }, { init: { signal } }))) as EmailExport;
}

/** The CSV as the server wrote it (header email,name,role,company_name). */
export async function exportUserEmailsCsv(f: ExportFilters): Promise<Blob> {
  const res = await client.admin.users.export.$get({ query: exportQueryOf(f, 'csv') }, { headers: { Accept: 'text/csv' } });
  if (!res.ok) await unwrap(res as unknown as Response); // throws the ApiError
  return res.blob();
}

/** user_emails_{YYYY-MM-DD}.csv, with today's local date. */
export function csvFileName(now = new Date()): string {
  const d = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return `user_emails_${d}.csv`;
}

/** PUT /admin/companies/{id}/subscription: sets the expiry (null: unlimited). */
export function updateSubscription(companyId: number, expiresAt: string | null): Promise<AdminCompany> {
  return rpc(
    client.admin.companies[':id'].subscription.$put({ param: { id: String(companyId) }, json: { subscription_expires_at: expiresAt } }),
  );
}

/** docs/decisions/06-subscriptions.md / docs/product/04-states.md: active when there is no expiry or it is in the future. */
export function isCompanyActive(c: Pick<AdminCompany, 'subscription_expires_at' | 'subscription_active'>, now = new Date()): boolean {
  if (typeof c.subscription_active === 'boolean') return c.subscription_active;
  return !c.subscription_expires_at || new Date(c.subscription_expires_at).getTime() > now.getTime();
}

// The console shows its own failure text in each tab.
export const adminStatsQuery = () =>
  queryOptions({ queryKey: adminKeys.stats(), queryFn: ({ signal }) => getAdminStats(signal), meta: { errorBanner: false } });

export const adminCompaniesQuery = () =>
  queryOptions({ queryKey: adminKeys.companies(), queryFn: ({ signal }) => getAdminCompanies(signal), meta: { errorBanner: false } });

export const adminUsersQuery = () =>
  queryOptions({ queryKey: adminKeys.users(), queryFn: ({ signal }) => getAdminUsers(signal), meta: { errorBanner: false } });

export const emailExportQuery = (f: ExportFilters) =>
  queryOptions({
    queryKey: adminKeys.emailExport(f),
    queryFn: ({ signal }) => exportUserEmails(f, signal),
    meta: { errorBanner: false },
    staleTime: 0,
  });

export function useAdminStats() {
  return useQuery(adminStatsQuery());
}

export function useAdminCompanies() {
  return useQuery(adminCompaniesQuery());
}

export function useAdminUsers() {
  return useQuery(adminUsersQuery());
}

export function useUpdateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { companyId: number; expiresAt: string | null }) => updateSubscription(v.companyId, v.expiresAt),
    meta: { errorBanner: false },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
