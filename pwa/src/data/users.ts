// People: the company's directory (staff and customers), one person for the settings editor, the
// public staff list a customer picks from, and adding or changing people. One ['users'] prefix,
// so adding or editing someone refreshes every list that shows them.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';
import { readLocalFirst } from './local-first.ts';
import { STAFF_ROLES, type Role, type User } from '../lib/api-types.ts';

// The signed-in user's shape and the role lists live in lib (the session needs them too).
export { COMPANY_ROLES, STAFF_ROLES, type Role, type User } from '../lib/api-types.ts';
/** Public staff listing entry: id and name. */
export type Employee = InferResponseType<typeof client.employees.$get, 200>[number];
export type UserChanges = InferRequestType<(typeof client.users)[':id']['$put']>['json'];

export const userKeys = {
  all: ['users'] as const,
  list: (companyId: number | null, role?: Role) => [...userKeys.all, 'list', { company_id: companyId, role: role ?? null }] as const,
  detail: (id: number) => [...userKeys.all, 'detail', id] as const,
  employees: (companyId: number | null) => [...userKeys.all, 'employees', companyId] as const,
};

export function getUsers(companyId: number, role?: Role, signal?: AbortSignal): Promise<User[]> {
  const query = { company_id: String(companyId), ...(role ? { role } : {}) };
  // Offline, a role's list can also come from the whole directory kept earlier.
  return readLocalFirst(
    'users',
    `users:${companyId}:${role ?? ''}`,
    () => rpc(client.users.$get({ query }, { init: { signal } })),
    async (read) => (await read<User[]>(`users:${companyId}:`))?.filter((u) => !role || u.role === role),
  );
}

/** One person (their settings and, for staff, the hours editor); kept for offline like the directory. */
export function getUser(id: number, signal?: AbortSignal): Promise<User> {
  return readLocalFirst('users', `user:${id}`, () => rpc(client.users[':id'].$get({ param: { id: String(id) } }, { init: { signal } })));
}

/** GET /employees?company_id=: the staff a customer may choose (id and name). */
export function getEmployees(companyId: number, signal?: AbortSignal): Promise<Employee[]> {
  return rpc(client.employees.$get({ query: { company_id: String(companyId) } }, { init: { signal } }));
}

/** PUT /users/{id}: name, phone and (admins, for other people) role; fields left out keep their value. */
export function updateUser(id: number, changes: UserChanges): Promise<User> {
  return rpc(client.users[':id'].$put({ param: { id: String(id) }, json: changes }));
}

const byName = (a: User, b: User) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

// Screens show their own failure text ('Failed to fetch directory.', 'User not found.' ...).
/** Everyone of the company (the directory splits them into staff and customers). */
export const usersQuery = (companyId: number | null, enabled = true) =>
  queryOptions({
    queryKey: userKeys.list(companyId),
    queryFn: ({ signal }) => getUsers(companyId!, undefined, signal),
    enabled: companyId !== null && enabled,
    meta: { errorBanner: false },
  });

/** The company's staff, every staff role (docs/decisions/03-tenancy-and-roles.md), by name. */
export const staffQuery = (companyId: number | null, enabled = true) =>
  queryOptions({
    ...usersQuery(companyId, enabled),
    select: (users: User[]) => users.filter((u) => STAFF_ROLES.includes(u.role)).sort(byName),
  });

/** The company's customers, by name. */
export const customersQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: userKeys.list(companyId, 'customer'),
    queryFn: ({ signal }) => getUsers(companyId!, 'customer', signal),
    enabled: companyId !== null,
    select: (users: User[]) => users.filter((u) => u.role === 'customer').sort(byName),
    meta: { errorBanner: false },
  });

export const userQuery = (id: number) =>
  queryOptions({
    queryKey: userKeys.detail(id),
    queryFn: ({ signal }) => getUser(id, signal),
    meta: { errorBanner: false },
  });

export const employeesQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: userKeys.employees(companyId),
    queryFn: ({ signal }) => getEmployees(companyId!, signal),
    enabled: companyId !== null,
    meta: { errorBanner: false },
  });

export function useUsers(companyId: number | null) {
  return useQuery(usersQuery(companyId));
}

export function useStaff(companyId: number | null, enabled = true) {
  return useQuery(staffQuery(companyId, enabled));
}

export function useCustomers(companyId: number | null) {
  return useQuery(customersQuery(companyId));
}

export function useUser(id: number) {
  return useQuery(userQuery(id));
}

export function useEmployees(companyId: number | null) {
  return useQuery(employeesQuery(companyId));
}

export type PersonKind = 'employee' | 'customer';

export interface NewPerson {
  name: string;
  email: string;
  phone: string | null;
  /** Staff role (employee, manager or admin); customers are always 'customer'. */
  role?: Role;
}

/** POST /users/employee or /users/customer; the server emails them a link to set their password. */
export function addPerson(companyId: number, kind: PersonKind, p: NewPerson): Promise<User> {
  if (kind === 'employee') {
    const role = (p.role ?? 'employee') as InferRequestType<(typeof client.users)['employee']['$post']>['json']['role'];
    return rpc(client.users.employee.$post({ json: { ...p, role, company_id: companyId } }));
  }
  return rpc(
    client.users.customer.$post({ json: { name: p.name, email: p.email, phone: p.phone, role: 'customer', company_id: companyId } }),
  );
}

export function useAddPerson(companyId: number, kind: PersonKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (p: NewPerson) => addPerson(companyId, kind, p),
    meta: { errorBanner: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** DELETE /users/{id}: archived when appointments refer to them (they keep their name there), deleted otherwise. */
export function removePerson(id: number): Promise<void> {
  return rpc(client.users[':id'].$delete({ param: { id: String(id) } })).then(() => undefined);
}

/**
 * The lists refresh without being waited for: the screen leaves the removed person's page at once
 * (awaited, the refreshed list dropped the person, the page unmounted the card that asked, and its
 * own onSuccess never ran; their page then said "User not found.").
 */
export function useRemovePerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePerson,
    meta: { errorBanner: false },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

/** POST /users/{id}/invitation: a fresh 7-day link to set a first password; earlier links stop working. */
export function inviteAgain(id: number): Promise<{ message: string }> {
  return rpc(client.users[':id'].invitation.$post({ param: { id: String(id) } }));
}

export function useInviteAgain() {
  return useMutation({ mutationFn: inviteAgain, meta: { errorBanner: false } });
}
