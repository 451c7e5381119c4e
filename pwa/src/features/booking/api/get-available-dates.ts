// GET /appointments/available-dates: the days of the next 30 with a free slot, in one call.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface AvailableDatesParams {
  company_id: number;
  service_type_id: number;
  employee_id?: number;
}

export async function getAvailableDates(params: AvailableDatesParams, signal?: AbortSignal): Promise<string[]> {
  const res = await api.get<{ dates: string[] }>('/appointments/available-dates', { query: { ...params }, signal });
  return Array.isArray(res?.dates) ? res.dates : [];
}

export const availableDatesQuery = (params: AvailableDatesParams | null) =>
  queryOptions({
    queryKey: ['available-dates', params],
    queryFn: ({ signal }) => getAvailableDates(params!, signal),
    enabled: params !== null,
    staleTime: 15_000,
    meta: { errorBanner: false },
  });

export function useAvailableDates(params: AvailableDatesParams | null) {
  return useQuery(availableDatesQuery(params));
}
