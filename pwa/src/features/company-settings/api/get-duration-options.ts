// GET /appointment-duration-options: the global catalogue of appointment lengths (15 ... 120 minutes).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface DurationOption {
  id: number;
  duration_minutes: number;
}

export function getDurationOptions(signal?: AbortSignal): Promise<DurationOption[]> {
  return api.get<DurationOption[]>('/appointment-duration-options', { signal });
}

export const durationOptionsQuery = () =>
  queryOptions({
    queryKey: ['appointment-duration-options'],
    // The card shows the failure itself.
    meta: { errorBanner: false },
    queryFn: ({ signal }) => getDurationOptions(signal),
    staleTime: 5 * 60_000,
  });

export function useDurationOptions() {
  return useQuery(durationOptionsQuery());
}
