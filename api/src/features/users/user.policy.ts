// Who may see, add, change and remove whom (docs/decisions/03-tenancy-and-roles.md), on top of the route access rules.
// Seeing is decided first: someone the caller may not see answers 404, never 403.
import type { Role, UserRow } from '@bookwell/db';
import type { Actor } from '../../lib/context.ts';
import { assertCompanyAccess } from '../../lib/authorize.ts';
import { forbidden, notFound } from '../../lib/errors.ts';

export const USER_NOT_FOUND = 'User not found';

/** Themselves, the staff of their company, and global_admin. Customers see only themselves. */
export function assertCanSeePerson(actor: Actor, target: Pick<UserRow, 'id' | 'company_id'>): void {
  if (actor.id === target.id || actor.role === 'global_admin') return;
  if (actor.role === 'customer') throw notFound(USER_NOT_FOUND);
  try {
    assertCompanyAccess(actor, target.company_id);
  } catch {
    // The same answer as for an id that does not exist: another company's people are never revealed.
    throw notFound(USER_NOT_FOUND);
  }
}

/**
 * Roles a caller may give when adding a person: admins and global_admin any company role;
 * managers employee, user and customer (adding an admin or manager would hand out more power
 * than a manager holds).
 */
export function assertCanAddRole(actor: Actor, role: Role): void {
  if (role === 'global_admin') throw forbidden('The global_admin role cannot be granted');
  if (actor.role === 'manager' && (role === 'admin' || role === 'manager')) {
    throw forbidden('Managers can add employees, users and customers only');
  }
}

/** Managers look after employees, users and customers, not their peers or the admins above them. */
function managerReaches(target: Pick<UserRow, 'role'>): boolean {
  return target.role !== 'admin' && target.role !== 'manager';
}

export interface PersonChange {
  name?: string;
  phone?: string | null;
  email?: string;
  role?: Role;
  booking_notices?: boolean;
}

/** Checks a PUT /users/{id}; fields equal to the current value are not changes (a form may send them back). */
export function assertCanChangePerson(actor: Actor, target: UserRow, change: PersonChange): void {
  const self = actor.id === target.id;
  const companyAdmin = actor.role === 'admin' || actor.role === 'manager' || actor.role === 'global_admin';
  if (!self) {
    if (!companyAdmin) throw forbidden('You can only edit your own profile');
    if (actor.role === 'manager' && !managerReaches(target)) throw forbidden('Managers cannot edit admins or other managers');
  }
  if (change.email !== undefined && change.email !== target.email && !companyAdmin) {
    throw forbidden('Ask an administrator of your company to change your email address');
  }
  if (change.role !== undefined && change.role !== target.role) {
    if (self) throw forbidden('You cannot change your own role');
    if (actor.role !== 'admin' && actor.role !== 'global_admin') {
      throw forbidden(actor.role === 'manager' ? 'Managers cannot change roles' : 'Only an admin can change roles');
    }
    if (change.role === 'global_admin' || target.role === 'global_admin') {
      throw forbidden('The global_admin role cannot be granted or removed');
    }
  }
}

export function assertCanRemovePerson(actor: Actor, target: UserRow): void {
  if (actor.id === target.id) throw forbidden('You cannot delete your own account');
  if (actor.role === 'manager' && !managerReaches(target)) throw forbidden('Managers cannot delete admins or other managers');
}
