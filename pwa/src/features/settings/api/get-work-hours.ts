// GET /operating-hours?company_id=&user_id=: one person's working hours (per-person rows).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { OperatingHoursRow } from '../../../components/weekly-hours.ts';

export function getWorkHours(companyId: number, userId: number, signal?: AbortSignal): Promise<OperatingHoursRow[]> {
  return api
    .get<OperatingHoursRow[]>('/operating-hours', { query: { company_id: companyId, user_id: userId }, signal })
    .then((rows) => rows.filter((r) => r.user_id === userId));
}

export const workHoursQuery = (companyId: number | null, userId: number) =>
  queryOptions({
    queryKey: ['operating-hours', { company_id: companyId, user_id: userId }],
    // The page shows the failure itself.
    meta: { errorBanner: false },
    queryFn: ({ signal }) => getWorkHours(companyId!, userId, signal),
    enabled: companyId !== null,
  });

export function useWorkHours(companyId: number | null, userId: number) {
  return useQuery(workHoursQuery(companyId, userId));
}
