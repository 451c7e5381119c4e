// GET /appointments/available-slots: free start times of one day ({value:'09:30', label:'9:30 AM'}).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { AvailableSlot } from '../../../lib/api-types.ts';

export interface AvailableSlotsParams {
  company_id: number;
  service_type_id: number;
  date: string;
  employee_id?: number;
}

export async function getAvailableSlots(params: AvailableSlotsParams, signal?: AbortSignal): Promise<AvailableSlot[]> {
  const res = await api.get<{ slots: AvailableSlot[] }>('/appointments/available-slots', {
    query: { ...params },
    signal,
  });
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
