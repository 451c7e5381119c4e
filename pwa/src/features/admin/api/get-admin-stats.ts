// GET /admin/stats: the figures on the admin dashboard.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface AdminStats {
  total_companies: number;
  total_users: number;
  active_companies: number;
  expired_companies: number;
}

export function getAdminStats(signal?: AbortSignal): Promise<AdminStats> {
  return api.get<AdminStats>('/admin/stats', { signal });
}

export const adminStatsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'stats'],
    queryFn: ({ signal }) => getAdminStats(signal),
    meta: { errorBanner: false },
  });

export function useAdminStats() {
  return useQuery(adminStatsQuery());
}
