// GET /appointments/available-slots: free start times of one day ({value:'09:30', label:'9:30 AM'}).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, rpc } from '../../../lib/rpc.ts';
import type { AvailableSlot } from '../../../lib/api-types.ts';

export interface AvailableSlotsParams {
  company_id: number;
  service_type_id: number;
  date: string;
  employee_id?: number;
}

export async function getAvailableSlots(params: AvailableSlotsParams, signal?: AbortSignal): Promise<AvailableSlot[]> {
  const query = {
    company_id: String(params.company_id),
    service_type_id: String(params.service_type_id),
    date: params.date,
    ...(params.employee_id ? { employee_id: String(params.employee_id) } : {}),
  };
  const res = await rpc(client.appointments['available-slots'].$get({ query }, { init: { signal } }));
  return Array.isArray(res?.slots) ? res.slots : [];
}

export const availableSlotsQuery = (params: AvailableSlotsParams | null) =>
  queryOptions({
    queryKey: ['available-slots', params],
    queryFn: ({ signal }) => getAvailableSlots(params!, signal),
    enabled: params !== null,
    staleTime: 15_000,
    meta: { errorBanner: false },
  });

export function useAvailableSlots(params: AvailableSlotsParams | null) {
  return useQuery(availableSlotsQuery(params));
}
