// GET /admin/users: every user with their company's name and appointment count.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { User } from '../../../lib/api-types.ts';

export interface AdminUser extends User {
  company_name: string | null;
  appointment_count: number;
}

export function getAdminUsers(signal?: AbortSignal): Promise<AdminUser[]> {
  return api.get<AdminUser[]>('/admin/users', { signal });
}

export const adminUsersQuery = () =>
  queryOptions({
    queryKey: ['admin', 'users'],
    queryFn: ({ signal }) => getAdminUsers(signal),
    meta: { errorBanner: false },
  });

export function useAdminUsers() {
  return useQuery(adminUsersQuery());
}
