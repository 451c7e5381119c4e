// GET /service-types?company_id=: the services offered on the booking page.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, rpc } from '../../../lib/rpc.ts';
import type { ServiceType } from '../../../lib/api-types.ts';

export function getServiceTypes(companyId: number, signal?: AbortSignal): Promise<ServiceType[]> {
  return rpc(client['service-types'].$get({ query: { company_id: String(companyId) } }, { init: { signal } }));
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
