// GET /service-types?company_id=: the services offered on the booking page.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ServiceType } from '../../../lib/api-types.ts';

export function getServiceTypes(companyId: number, signal?: AbortSignal): Promise<ServiceType[]> {
  return api.get<ServiceType[]>('/service-types', { query: { company_id: companyId }, signal });
}

export const serviceTypesQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: ['public-service-types', companyId],
    queryFn: ({ signal }) => getServiceTypes(companyId!, signal),
    enabled: companyId !== null,
    meta: { errorBanner: false },
  });

export function useServiceTypes(companyId: number | null) {
  return useQuery(serviceTypesQuery(companyId));
}
