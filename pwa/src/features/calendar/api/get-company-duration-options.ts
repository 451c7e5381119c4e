// GET /company-duration-options?company_id=: which of the global durations the company offers.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface CompanyDurationOption {
  id: number;
  company_id: number;
  appointment_duration_option_id: number;
  /** Some answers carry the length too; the global catalogue is the fallback. */
  duration_minutes?: number;
}

export function getCompanyDurationOptions(companyId: number, signal?: AbortSignal): Promise<CompanyDurationOption[]> {
  return api.get<CompanyDurationOption[]>('/company-duration-options', { query: { company_id: companyId }, signal });
}

export const companyDurationOptionsQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: ['company-duration-options', { company_id: companyId }],
    queryFn: ({ signal }) => getCompanyDurationOptions(companyId!, signal),
    enabled: companyId !== null,
    select: (rows: CompanyDurationOption[]) => rows.filter((r) => r.company_id === companyId),
    meta: { errorBanner: false },
  });

export function useCompanyDurationOptions(companyId: number | null) {
  return useQuery(companyDurationOptionsQuery(companyId));
}
