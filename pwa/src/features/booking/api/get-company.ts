// GET /companies/{id} or /companies/slug/{slug}: the public profile a booking page needs.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, rpc } from '../../../lib/rpc.ts';
import type { PublicCompany } from '../../../lib/api-types.ts';

export type CompanyRef = { by: 'id'; id: number } | { by: 'slug'; slug: string };

/** Members of the company get more fields; the booking page reads only the public ones. */
export function getCompany(ref: CompanyRef, signal?: AbortSignal): Promise<PublicCompany> {
  const init = { init: { signal } };
  return ref.by === 'id'
    ? rpc(client.companies[':id'].$get({ param: { id: String(ref.id) } }, init))
    : rpc(client.companies.slug[':slug'].$get({ param: { slug: ref.slug } }, init));
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
