// GET /appointments/available-dates: the days of the next 30 with a free slot, in one call.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, rpc } from '../../../lib/rpc.ts';

export interface AvailableDatesParams {
  company_id: number;
  service_type_id: number;
  employee_id?: number;
}

export async function getAvailableDates(params: AvailableDatesParams, signal?: AbortSignal): Promise<string[]> {
  const query = {
    company_id: String(params.company_id),
    service_type_id: String(params.service_type_id),
    ...(params.employee_id ? { employee_id: String(params.employee_id) } : {}),
  };
  const res = await rpc(client.appointments['available-dates'].$get({ query }, { init: { signal } }));
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
