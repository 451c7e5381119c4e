// POST /service-types, PUT /service-types/{id} (both answer {message, service_type}) and
// DELETE /service-types/{id} (archives it when appointments refer to it).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ServiceType } from '../../../lib/api-types.ts';

export interface ServiceTypeInput {
  name: string;
  duration_minutes: number;
  price: number | null;
  hide_price: boolean;
  available_slots: number;
}

export interface ServiceTypeWriteResult {
  message: string;
  service_type: ServiceType;
}

export function createServiceType(companyId: number, input: ServiceTypeInput): Promise<ServiceTypeWriteResult> {
  return api.post<ServiceTypeWriteResult>('/service-types', { ...input, company_id: companyId });
}

export function updateServiceType(id: number, input: ServiceTypeInput): Promise<ServiceTypeWriteResult> {
  return api.put<ServiceTypeWriteResult>(`/service-types/${id}`, input);
}

export function deleteServiceType(id: number): Promise<void> {
  return api.delete(`/service-types/${id}`);
}

export function useWriteServiceType(companyId: number) {
  const queryClient = useQueryClient();
  const settle = () => queryClient.invalidateQueries({ queryKey: ['service-types'] });
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
