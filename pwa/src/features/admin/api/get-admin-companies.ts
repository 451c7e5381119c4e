// GET /admin/companies: every company with its people and appointment counts and subscription.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface AdminCompany {
  id: number;
  name: string;
  slug: string;
  email: string | null;
  subscription_expires_at: string | null;
  subscription_active?: boolean;
  subscription_plan?: string | null;
  user_count: number;
  appointment_count: number;
  created_at?: string;
}

export function getAdminCompanies(signal?: AbortSignal): Promise<AdminCompany[]> {
  return api.get<AdminCompany[]>('/admin/companies', { signal });
}

export const adminCompaniesQuery = () =>
  queryOptions({
    queryKey: ['admin', 'companies'],
    queryFn: ({ signal }) => getAdminCompanies(signal),
    meta: { errorBanner: false },
  });

export function useAdminCompanies() {
  return useQuery(adminCompaniesQuery());
}

/** DECISIONS.md section 6 / SPEC.md section 4: active when there is no expiry or it is in the future. */
export function isCompanyActive(c: Pick<AdminCompany, 'subscription_expires_at' | 'subscription_active'>, now = new Date()): boolean {
  if (typeof c.subscription_active === 'boolean') return c.subscription_active;
  return !c.subscription_expires_at || new Date(c.subscription_expires_at).getTime() > now.getTime();
}
