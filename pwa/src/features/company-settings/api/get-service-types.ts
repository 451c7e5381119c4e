// GET /service-types?company_id=: the services the company offers.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ServiceType } from '../../../lib/api-types.ts';

export function getServiceTypes(companyId: number, signal?: AbortSignal): Promise<ServiceType[]> {
  return api.get<ServiceType[]>('/service-types', { query: { company_id: companyId }, signal });
}

export const serviceTypesQuery = (companyId: number) =>
  queryOptions({
    queryKey: ['service-types', companyId],
    // The page shows the failure itself.
    meta: { errorBanner: false },
    queryFn: ({ signal }) => getServiceTypes(companyId, signal),
  });

export function useServiceTypes(companyId: number) {
  return useQuery(serviceTypesQuery(companyId));
}
