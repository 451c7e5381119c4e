// GET /operating-hours?company_id=: the company's own opening hours (rows without a user_id).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { OperatingHoursRow } from '../../../components/weekly-hours.ts';

export function getCompanyHours(companyId: number, signal?: AbortSignal): Promise<OperatingHoursRow[]> {
  return api
    .get<OperatingHoursRow[]>('/operating-hours', { query: { company_id: companyId }, signal })
    .then((rows) => rows.filter((r) => r.user_id === null || r.user_id === undefined));
}

export const companyHoursKey = (companyId: number) => ['operating-hours', { company_id: companyId, user_id: null }] as const;

export const companyHoursQuery = (companyId: number) =>
  queryOptions({
    queryKey: companyHoursKey(companyId),
    // The page shows the failure itself.
    meta: { errorBanner: false },
    queryFn: ({ signal }) => getCompanyHours(companyId, signal),
  });

export function useCompanyHours(companyId: number) {
  return useQuery(companyHoursQuery(companyId));
}
