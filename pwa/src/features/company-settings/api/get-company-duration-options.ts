// GET /company-duration-options?company_id=: which catalogue lengths the company offers.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface CompanyDurationOption {
  id: number;
  company_id: number;
  appointment_duration_option_id: number;
}

export function getCompanyDurationOptions(companyId: number, signal?: AbortSignal): Promise<CompanyDurationOption[]> {
  return api
    .get<CompanyDurationOption[]>('/company-duration-options', { query: { company_id: companyId }, signal })
    .then((rows) => rows.filter((r) => r.company_id === companyId));
}

export const companyDurationOptionsQuery = (companyId: number) =>
  queryOptions({
    queryKey: ['company-duration-options', companyId],
    // The card shows the failure itself.
    meta: { errorBanner: false },
    queryFn: ({ signal }) => getCompanyDurationOptions(companyId, signal),
  });

export function useCompanyDurationOptions(companyId: number) {
  return useQuery(companyDurationOptionsQuery(companyId));
}
