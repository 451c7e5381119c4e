// GET /companies: the businesses that chose to be listed and take online bookings.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, rpc } from '../../../lib/rpc.ts';
import type { PublicCompany } from '../../../lib/api-types.ts';

export function getPublicCompanies(signal?: AbortSignal): Promise<PublicCompany[]> {
  return rpc(client.companies.$get({ query: {} }, { init: { signal } }));
}

export const publicCompaniesQuery = (enabled: boolean) =>
  queryOptions({
    queryKey: ['public-companies'],
    queryFn: ({ signal }) => getPublicCompanies(signal),
    enabled,
    meta: { errorBanner: false },
  });

export function usePublicCompanies(enabled: boolean) {
  return useQuery(publicCompaniesQuery(enabled));
}
