// GET /companies/{id}: the member view of the company (settings and subscription).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface Company {
  id: number;
  name: string;
  slug: string;
  email: string | null;
  logo_url: string | null;
  timezone: string;
  enable_employee_booking: boolean;
  time_increment_minutes: number;
  listed_publicly: boolean;
  accepting_bookings?: boolean;
  subscription_plan?: 'trial' | 'standard' | 'enterprise' | null;
  subscription_expires_at: string | null;
  subscription_active?: boolean;
}

export function getCompany(id: number, signal?: AbortSignal): Promise<Company> {
  return api.get<Company>(`/companies/${id}`, { signal });
}

export const companyQuery = (id: number) =>
  queryOptions({
    queryKey: ['company', id],
    // The page shows the failure itself.
    meta: { errorBanner: false },
    queryFn: ({ signal }) => getCompany(id, signal),
  });

export function useCompany(id: number) {
  return useQuery(companyQuery(id));
}
