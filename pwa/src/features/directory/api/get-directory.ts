// GET /users?company_id=: everyone of the company, split by the page into staff and customers.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { User } from '../../../lib/api-types.ts';

export function getDirectory(companyId: number, signal?: AbortSignal): Promise<User[]> {
  return api.get<User[]>('/users', { query: { company_id: companyId }, signal });
}

export const directoryQuery = (companyId: number) =>
  queryOptions({
    queryKey: ['users', { company_id: companyId }],
    queryFn: ({ signal }) => getDirectory(companyId, signal),
    // The page shows 'Failed to fetch directory.' itself.
    meta: { errorBanner: false },
  });

export function useDirectory(companyId: number) {
  return useQuery(directoryQuery(companyId));
}
