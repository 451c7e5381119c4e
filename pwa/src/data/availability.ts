// Availability: the free start times of one day and the days of the next 30 with a free slot, for
// the booking form. Both sit under availabilityKeys.all, which a booking (or a refused one) invalidates.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';

/** A free start time: `value` 'HH:MM' in the company's zone, `label` for people, `start`/`end` ISO instants. */
export type AvailableSlot = InferResponseType<(typeof client.appointments)['available-slots']['$get'], 200>['slots'][number];

export interface AvailableDatesParams {
  company_id: number;
  service_type_id: number;
  employee_id?: number;
  /** Replaces the service's duration (moving an appointment whose length differs, docs/decisions/23-self-service.md). */
  duration_minutes?: number;
}

export interface AvailableSlotsParams extends AvailableDatesParams {
  date: string;
}

export const availabilityKeys = {
  all: ['availability'] as const,
  slots: (params: AvailableSlotsParams | null) => [...availabilityKeys.all, 'slots', params] as const,
  dates: (params: AvailableDatesParams | null) => [...availabilityKeys.all, 'dates', params] as const,
};

function toQuery(params: AvailableDatesParams) {
  return {
    company_id: String(params.company_id),
    service_type_id: String(params.service_type_id),
    ...(params.employee_id ? { employee_id: String(params.employee_id) } : {}),
    ...(params.duration_minutes ? { duration_minutes: String(params.duration_minutes) } : {}),
  };
}

export async function getAvailableSlots(params: AvailableSlotsParams, signal?: AbortSignal): Promise<AvailableSlot[]> {
  const query = { ...toQuery(params), date: params.date };
  const res = await rpc(client.appointments['available-slots'].$get({ query }, { init: { signal } }));
  return Array.isArray(res?.slots) ? res.slots : [];
}

export async function getAvailableDates(params: AvailableDatesParams, signal?: AbortSignal): Promise<string[]> {
  const res = await rpc(client.appointments['available-dates'].$get({ query: toQuery(params) }, { init: { signal } }));
  return Array.isArray(res?.dates) ? res.dates : [];
}

// The form shows its own failure text; 15 s keeps a day's slots from refetching on every click.
export const availableSlotsQuery = (params: AvailableSlotsParams | null) =>
  queryOptions({
    queryKey: availabilityKeys.slots(params),
    queryFn: ({ signal }) => getAvailableSlots(params!, signal),
    enabled: params !== null,
    staleTime: 15_000,
    meta: { errorBanner: false },
  });

export const availableDatesQuery = (params: AvailableDatesParams | null) =>
  queryOptions({
    queryKey: availabilityKeys.dates(params),
    queryFn: ({ signal }) => getAvailableDates(params!, signal),
    enabled: params !== null,
    staleTime: 15_000,
    meta: { errorBanner: false },
  });

export function useAvailableSlots(params: AvailableSlotsParams | null) {
  return useQuery(availableSlotsQuery(params));
}

export function useAvailableDates(params: AvailableDatesParams | null) {
  return useQuery(availableDatesQuery(params));
}
