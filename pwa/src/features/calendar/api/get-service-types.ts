// GET /service-types?company_id=: the company's services for the modal's checkboxes.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ServiceType } from '../../../lib/api-types.ts';

export function getServiceTypes(companyId: number, signal?: AbortSignal): Promise<ServiceType[]> {
  return api.get<ServiceType[]>('/service-types', { query: { company_id: companyId }, signal });
}

export const serviceTypesQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: ['service-types', { company_id: companyId }],
    queryFn: ({ signal }) => getServiceTypes(companyId!, signal),
    enabled: companyId !== null,
    // The API filters by company; filtering again keeps another company's service out whatever happens.
    select: (list: ServiceType[]) => list.filter((s) => s.company_id === companyId),
    meta: { errorBanner: false },
  });

export function useServiceTypes(companyId: number | null) {
  return useQuery(serviceTypesQuery(companyId));
}
