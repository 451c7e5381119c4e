// Appointments: the list the calendar, the dashboard and a customer's own list read (company-local
// days, docs/decisions/02-api-conventions.md), and the staff writes. Every write invalidates appointmentKeys.all,
// so each screen showing appointments refreshes. Updates and deletes carry If-Match with the
// version the user saw; the server answers 412 with the current appointment when someone changed it
// meanwhile, and 409 when the new time is taken (docs/decisions/05-scheduling-rules.md).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';

export type Appointment = InferResponseType<typeof client.appointments.$get, 200>[number];
export type AppointmentStatus = Appointment['status'];
export type AppointmentInput = InferRequestType<typeof client.appointments.$post>['json'];
export type AppointmentChanges = InferRequestType<(typeof client.appointments)[':id']['$put']>['json'];

export interface AppointmentRange {
  /** First day, 'YYYY-MM-DD', company-local. */
  start: string;
  /** Last day (inclusive), 'YYYY-MM-DD'. */
  end: string;
}

export const appointmentKeys = {
  all: ['appointments'] as const,
  list: (range: AppointmentRange | null) => [...appointmentKeys.all, 'list', range?.start ?? null, range?.end ?? null] as const,
};

/** If-Match value for an appointment version (the API sends ETag: "<version>"). */
export const ifMatch = (version: number) => `"${version}"`;

/** GET /appointments?start_date&end_date; the API already limits a customer to their own. */
export function getAppointments(range: AppointmentRange | null, signal?: AbortSignal): Promise<Appointment[]> {
  const query = range ? { start_date: range.start, end_date: range.end } : {};
  return rpc(client.appointments.$get({ query }, { init: { signal } }));
}

/**
 * POST /appointments, from the staff modal and the public booking form alike (docs/decisions/04-customers-and-anonymous-booking.md
 * and 5). The Idempotency-Key makes a retried submission (after a dropped connection) book only once.
 */
export function createAppointment(input: AppointmentInput, idempotencyKey: string): Promise<Appointment> {
  return rpc(client.appointments.$post({ json: input, header: { 'idempotency-key': idempotencyKey } }));
}

/** PUT /appointments/{id}: a checked, partial update. */
export function updateAppointment(id: number, version: number, changes: AppointmentChanges, idempotencyKey?: string): Promise<Appointment> {
  const header = { 'if-match': ifMatch(version), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) };
  return rpc(client.appointments[':id'].$put({ param: { id: String(id) }, json: changes, header }));
}

/** DELETE /appointments/{id} (staff only), checked with If-Match like an update. */
export async function deleteAppointment(id: number, version: number, idempotencyKey?: string): Promise<void> {
  const header = { 'if-match': ifMatch(version), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) };
  await rpc(client.appointments[':id'].$delete({ param: { id: String(id) }, header }));
}

export const appointmentsQuery = (range: AppointmentRange | null, enabled = true) =>
  queryOptions({
    queryKey: appointmentKeys.list(range),
    queryFn: ({ signal }) => getAppointments(range, signal),
    enabled,
    // Screens show their own failure text.
    meta: { errorBanner: false },
  });

/** The calendar's list: the previous range stays on screen while the next one loads. */
export function useAppointments(range: AppointmentRange | null, enabled = true) {
  return useQuery({ ...appointmentsQuery(range, enabled), placeholderData: keepPreviousData });
}

/** A list kept current while it is on screen (the dashboard): refetched every minute. */
export function useLiveAppointments(range: AppointmentRange | null) {
  return useQuery({ ...appointmentsQuery(range, range !== null), refetchInterval: 60_000 });
}
