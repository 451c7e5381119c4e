// GET /companies/{id} or /companies/slug/{slug}: the public profile a booking page needs.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { PublicCompany } from '../../../lib/api-types.ts';

export type CompanyRef = { by: 'id'; id: number } | { by: 'slug'; slug: string };

export function getCompany(ref: CompanyRef, signal?: AbortSignal): Promise<PublicCompany> {
  const path = ref.by === 'id' ? `/companies/${ref.id}` : `/companies/slug/${encodeURIComponent(ref.slug)}`;
  return api.get<PublicCompany>(path, { signal });
}

export const companyQuery = (ref: CompanyRef | null) =>
  queryOptions({
    queryKey: ['public-company', ref],
    queryFn: ({ signal }) => getCompany(ref!, signal),
    enabled: ref !== null,
    meta: { errorBanner: false },
  });

export function useCompany(ref: CompanyRef | null) {
  return useQuery(companyQuery(ref));
}
