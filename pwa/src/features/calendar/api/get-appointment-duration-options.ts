// GET /appointment-duration-options: the global catalogue of lengths (15, 30, 45, 60, 90, 120 ...).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface AppointmentDurationOption {
  id: number;
  duration_minutes: number;
}

export function getAppointmentDurationOptions(signal?: AbortSignal): Promise<AppointmentDurationOption[]> {
  return api.get<AppointmentDurationOption[]>('/appointment-duration-options', { signal });
}

export const appointmentDurationOptionsQuery = () =>
  queryOptions({
    queryKey: ['appointment-duration-options'],
    queryFn: ({ signal }) => getAppointmentDurationOptions(signal),
    staleTime: 10 * 60_000,
    meta: { errorBanner: false },
  });

export function useAppointmentDurationOptions() {
  return useQuery(appointmentDurationOptionsQuery());
}
