// Service types: the company's services, read by the booking page, the calendar and Company
// settings under one key, and written (create, update, archive or delete) from Company settings.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';
import { readLocalFirst } from './local-first.ts';

export type ServiceType = InferResponseType<(typeof client)['service-types']['$get'], 200>[number];
export type ServiceTypeInput = Omit<InferRequestType<(typeof client)['service-types']['$post']>['json'], 'company_id'>;
export type ServiceTypeWriteResult = InferResponseType<(typeof client)['service-types']['$post'], 201>;

export const serviceTypeKeys = {
  all: ['service-types'] as const,
  list: (companyId: number | null) => [...serviceTypeKeys.all, 'list', companyId] as const,
};

export function getServiceTypes(companyId: number, signal?: AbortSignal): Promise<ServiceType[]> {
  const fetch = () => rpc(client['service-types'].$get({ query: { company_id: String(companyId) } }, { init: { signal } }));
  return readLocalFirst('services', `services:${companyId}`, fetch);
}

export function createServiceType(companyId: number, input: ServiceTypeInput): Promise<ServiceTypeWriteResult> {
  return rpc(client['service-types'].$post({ json: { ...input, company_id: companyId } }));
}

export function updateServiceType(id: number, input: ServiceTypeInput): Promise<ServiceTypeWriteResult> {
  return rpc(client['service-types'][':id'].$put({ param: { id: String(id) }, json: input }));
}

/** Archives the service instead when appointments refer to it. */
export async function deleteServiceType(id: number): Promise<void> {
  await rpc(client['service-types'][':id'].$delete({ param: { id: String(id) } }));
}

export const serviceTypesQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: serviceTypeKeys.list(companyId),
    queryFn: ({ signal }) => getServiceTypes(companyId!, signal),
    enabled: companyId !== null,
    // The API filters by company; filtering again keeps another company's service out whatever happens.
    select: (list: ServiceType[]) => list.filter((s) => s.company_id === companyId),
    // Screens show their own failure text.
    meta: { errorBanner: false },
  });

export function useServiceTypes(companyId: number | null) {
  return useQuery(serviceTypesQuery(companyId));
}

export function useWriteServiceType(companyId: number) {
  const queryClient = useQueryClient();
  const settle = () => queryClient.invalidateQueries({ queryKey: serviceTypeKeys.all });
  return {
    save: useMutation({
      mutationFn: (v: { id: number | null; input: ServiceTypeInput }) =>
        v.id === null ? createServiceType(companyId, v.input) : updateServiceType(v.id, v.input),
      meta: { errorBanner: false },
      onSettled: settle,
    }),
    remove: useMutation({
      mutationFn: (id: number) => deleteServiceType(id),
      meta: { errorBanner: false },
      onSettled: settle,
    }),
  };
}
