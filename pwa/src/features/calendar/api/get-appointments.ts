// GET /appointments?start_date&end_date: the appointments overlapping the visible range
// (company-local days, DECISIONS.md section 2). The API already limits a customer to their own.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { CalendarAppointment } from '../types.ts';

export interface AppointmentRange {
  /** First day, 'YYYY-MM-DD', company-local. */
  start: string;
  /** Last day (inclusive), 'YYYY-MM-DD'. */
  end: string;
}

export function getAppointments(range: AppointmentRange | null, signal?: AbortSignal): Promise<CalendarAppointment[]> {
  return api.get<CalendarAppointment[]>('/appointments', {
    query: range ? { start_date: range.start, end_date: range.end } : undefined,
    signal,
  });
}

/** Every mutation invalidates this prefix: the calendar, the dashboard and the customer's list. */
export const APPOINTMENTS_KEY = ['appointments'] as const;

export const appointmentsQuery = (range: AppointmentRange | null, enabled = true) =>
  queryOptions({
    queryKey: [...APPOINTMENTS_KEY, 'list', range?.start ?? null, range?.end ?? null],
    queryFn: ({ signal }) => getAppointments(range, signal),
    enabled,
    // The calendar shows its own 'Failed to fetch appointments or users.'
    meta: { errorBanner: false },
  });

export function useAppointments(range: AppointmentRange | null, enabled = true) {
  return useQuery({ ...appointmentsQuery(range, enabled), placeholderData: keepPreviousData });
}
