// GET /users?company_id=&role=: the company's customers (the modal's customer select) and its
// staff (the employee select: every staff role, DECISIONS.md section 3).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { STAFF_ROLES, type User } from '../../../lib/api-types.ts';

export function getUsers(query: { company_id: number; role?: string }, signal?: AbortSignal): Promise<User[]> {
  return api.get<User[]>('/users', { query, signal });
}

const byName = (a: User, b: User) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

export const customersQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: ['users', { company_id: companyId, role: 'customer' }],
    queryFn: ({ signal }) => getUsers({ company_id: companyId!, role: 'customer' }, signal),
    enabled: companyId !== null,
    select: (users: User[]) => users.filter((u) => u.role === 'customer').sort(byName),
    meta: { errorBanner: false },
  });

export const staffQuery = (companyId: number | null, enabled = true) =>
  queryOptions({
    queryKey: ['users', { company_id: companyId }],
    queryFn: ({ signal }) => getUsers({ company_id: companyId! }, signal),
    enabled: companyId !== null && enabled,
    select: (users: User[]) => users.filter((u) => STAFF_ROLES.includes(u.role)).sort(byName),
    meta: { errorBanner: false },
  });

export function useCustomers(companyId: number | null) {
  return useQuery(customersQuery(companyId));
}

export function useStaff(companyId: number | null, enabled = true) {
  return useQuery(staffQuery(companyId, enabled));
}
