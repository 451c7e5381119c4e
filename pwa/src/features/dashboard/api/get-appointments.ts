// GET /appointments?start_date&end_date for the dashboard's days (company-local dates).
// Shares the ['appointments'] key prefix with the calendar, so a change made there refreshes this.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { Appointment } from '../../../lib/api-types.ts';

export interface DashboardAppointment extends Appointment {
  status: 'booked' | 'cancelled';
  service_types: { id: number; name: string }[];
  customer_name?: string | null;
  employee_name?: string | null;
}

export function getAppointments(start: string, end: string, signal?: AbortSignal): Promise<DashboardAppointment[]> {
  return api.get<DashboardAppointment[]>('/appointments', { query: { start_date: start, end_date: end }, signal });
}

export const dashboardAppointmentsQuery = (start: string | null, end: string | null) =>
  queryOptions({
    queryKey: ['appointments', 'list', start, end],
    queryFn: ({ signal }) => getAppointments(start!, end!, signal),
    enabled: start !== null && end !== null,
    refetchInterval: 60_000,
    meta: { errorBanner: false },
  });

export function useDashboardAppointments(start: string | null, end: string | null) {
  return useQuery(dashboardAppointmentsQuery(start, end));
}
