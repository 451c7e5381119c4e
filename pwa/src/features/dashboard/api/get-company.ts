// GET /companies/{id}: the company's name and time zone (its "today").
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { PublicCompany } from '../../../lib/api-types.ts';

export function getCompany(id: number, signal?: AbortSignal): Promise<PublicCompany> {
  return api.get<PublicCompany>(`/companies/${id}`, { signal });
}

export const companyQuery = (id: number | null) =>
  queryOptions({
    queryKey: ['companies', id],
    queryFn: ({ signal }) => getCompany(id!, signal),
    enabled: id !== null,
    staleTime: 5 * 60_000,
    meta: { errorBanner: false },
  });

export function useCompany(id: number | null) {
  return useQuery(companyQuery(id));
}
