// The one authorisation layer: each route declares who may call it, and company scoping goes through here.
import type { MiddlewareHandler } from 'hono';
import type { Role } from '@bookwell/db';
import type { Actor, AppEnv } from './context.ts';
import { AppError, forbidden, notFound, unauthenticated } from './errors.ts';

/** 'public': anyone (a bad token is ignored); 'authenticated': any signed-in user; a role list: only those roles. */
export type Access = 'public' | 'authenticated' | readonly Role[];

export const STAFF: readonly Role[] = ['admin', 'manager', 'employee', 'user'];
export const COMPANY_ADMINS: readonly Role[] = ['admin', 'manager'];
export const OWNERS: readonly Role[] = ['admin'];
export const GLOBAL_ADMIN: readonly Role[] = ['global_admin'];
export const STAFF_OR_GLOBAL: readonly Role[] = [...STAFF, 'global_admin'];
export const COMPANY_ADMINS_OR_GLOBAL: readonly Role[] = [...COMPANY_ADMINS, 'global_admin'];

export function isStaff(role: Role): boolean {
  return STAFF.includes(role);
}

export function requireAccess(access: Access): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (access !== 'public') {
      const actor = c.get('actor');
      if (!actor) throw unauthenticated();
      if (access !== 'authenticated' && !access.includes(actor.role)) throw forbidden();
    }
    await next();
  };
}

export function currentActor(c: { get(key: 'actor'): Actor | null }): Actor {
  const actor = c.get('actor');
  if (!actor) throw unauthenticated();
  return actor;
}

/**
 * Tenancy: a company's data is visible only to its members and global_admin. Anything else answers
 * 404, so that the existence of another company's resource is never revealed.
 */
export function assertCompanyAccess(actor: Actor, companyId: number | null | undefined): void {
  if (actor.role === 'global_admin') return;
  if (companyId == null || actor.company_id !== companyId) throw notFound();
}

/** The company a company-scoped request acts on: the caller's own, or the one a global_admin names. */
export function actingCompanyId(actor: Actor, requested?: number | null): number {
  if (actor.role === 'global_admin') {
    if (requested == null) throw new AppError('validation', 'company_id is required');
    return requested;
  }
  if (actor.company_id == null) throw forbidden();
  if (requested != null && requested !== actor.company_id) throw notFound();
  return actor.company_id;
}
