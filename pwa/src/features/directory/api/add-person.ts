// POST /users/employee and POST /users/customer: add a person to the company; the server emails
// them a link to set their password (DECISIONS.md section 2, "Invitations").
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-errors.ts';
import type { Role, User } from '../../../lib/api-types.ts';

export type PersonKind = 'employee' | 'customer';

export interface NewPerson {
  name: string;
  email: string;
  phone: string | null;
  /** Staff role (employee, manager or admin); customers are always 'customer'. */
  role?: Role;
}

export function addEmployee(companyId: number, p: NewPerson): Promise<User> {
  return api.post<User>('/users/employee', { ...p, role: p.role ?? 'employee', company_id: companyId });
}

export function addCustomer(companyId: number, p: NewPerson): Promise<User> {
  return api.post<User>('/users/customer', { name: p.name, email: p.email, phone: p.phone, role: 'customer', company_id: companyId });
}

export const ADD_FAILED: Record<PersonKind, string> = {
  employee: 'Failed to add employee',
  customer: 'Failed to add customer',
};

/** SPEC.md section 8: the server's `error` field when it sent one, else the fallback. */
export function addPersonError(kind: PersonKind, err: unknown): string {
  const fromServer = isApiError(err) ? err.body?.error : undefined;
  return typeof fromServer === 'string' && fromServer ? fromServer : ADD_FAILED[kind];
}

export function useAddPerson(companyId: number, kind: PersonKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (p: NewPerson) => (kind === 'employee' ? addEmployee(companyId, p) : addCustomer(companyId, p)),
    meta: { errorBanner: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
}
