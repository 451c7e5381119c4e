// GET /companies/{id}: the company's plan and subscription expiry.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface CompanyPlan {
  id: number;
  name: string;
  subscription_plan?: string | null;
  subscription_expires_at: string | null;
}

export function getCompanyPlan(id: number, signal?: AbortSignal): Promise<CompanyPlan> {
  return api.get<CompanyPlan>(`/companies/${id}`, { signal });
}

export const companyPlanQuery = (id: number) =>
  queryOptions({
    queryKey: ['company', id],
    // The page shows the failure itself.
    meta: { errorBanner: false },
    queryFn: ({ signal }) => getCompanyPlan(id, signal),
  });

export function useCompanyPlan(id: number) {
  return useQuery(companyPlanQuery(id));
}
