// GET /companies/{id}: the person's company, for the time increment the hours are picked at.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface CompanyIncrement {
  id: number;
  time_increment_minutes?: number;
}

export function getCompany(id: number, signal?: AbortSignal): Promise<CompanyIncrement> {
  return api.get<CompanyIncrement>(`/companies/${id}`, { signal });
}

export const companyQuery = (id: number | null) =>
  queryOptions({
    queryKey: ['company', id],
    queryFn: ({ signal }) => getCompany(id!, signal),
    enabled: id !== null,
    meta: { errorBanner: false },
  });

export function useCompany(id: number | null) {
  return useQuery(companyQuery(id));
}
