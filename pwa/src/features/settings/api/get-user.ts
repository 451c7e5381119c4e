// GET /users/{id}: the person whose settings are edited (the signed-in user or someone opened from the Directory).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { User } from '../../../lib/api-types.ts';

export function getUser(id: number, signal?: AbortSignal): Promise<User> {
  return api.get<User>(`/users/${id}`, { signal });
}

export const userQuery = (id: number) =>
  queryOptions({
    queryKey: ['user', id],
    queryFn: ({ signal }) => getUser(id, signal),
    // The editor shows 'User not found.' itself.
    meta: { errorBanner: false },
  });

export function useUser(id: number) {
  return useQuery(userQuery(id));
}
