// The one authorisation layer: each route declares who may call it, and company scoping goes through here.
import type { MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import { STAFF_ROLES, isStaffRole, type Database, type Role } from '@bookwell/db';
import type { Actor, AppEnv } from './context.ts';
import { AppError, forbidden, notFound, unauthenticated } from './errors.ts';

/** 'public': anyone (a bad token is ignored); 'authenticated': any signed-in user; a role list: only those roles. */
export type Access = 'public' | 'authenticated' | readonly Role[];

export const COMPANY_ADMINS: readonly Role[] = ['admin', 'manager'];
export const OWNERS: readonly Role[] = ['admin'];
export const GLOBAL_ADMIN: readonly Role[] = ['global_admin'];
export const STAFF_OR_GLOBAL: readonly Role[] = [...STAFF_ROLES, 'global_admin'];
export const COMPANY_ADMINS_OR_GLOBAL: readonly Role[] = [...COMPANY_ADMINS, 'global_admin'];

export function isStaff(role: Role): boolean {
  return isStaffRole(role);
}

/** Tables whose rows belong to one company (`company_id`), or the companies themselves. */
export type OwnedTable =
  | 'companies'
  | 'users'
  | 'appointments'
  | 'service_types'
  | 'operating_hours'
  | 'date_overrides'
  | 'company_duration_options'
  | 'company_duration_defaults';

/** What each table's routes answer for a row that is not there: the refused role hears the same. */
const MISSING: Record<OwnedTable, string> = {
  companies: 'Company not found',
  users: 'User not found',
  appointments: 'Appointment not found',
  service_types: 'Service type not found',
  operating_hours: 'Operating hours not found',
  date_overrides: 'Date override not found',
  company_duration_options: 'Company duration option not found',
  company_duration_defaults: 'Company duration default not found',
};

/** The company that owns the row `id` of `table` (a company owns itself); undefined when there is none. */
async function ownerOf(db: Kysely<Database>, table: OwnedTable, id: number): Promise<number | null | undefined> {
  if (table === 'companies') return (await db.selectFrom('companies').select('id').where('id', '=', id).executeTakeFirst())?.id;
  return (await db.selectFrom(table).select('company_id').where('id', '=', id).executeTakeFirst())?.company_id;
}

/**
 * `unauthenticatedMessage`: the 401's text where docs/product/08-errors.md gives the call its own.
 * `checkParams`: throws the route's 400 for malformed path parameters, asked before refusing a role.
 * `owner`: the table of the route's `{id}`. A caller whose role may not use the route is refused with
 * 403 only for their own company's row: another company's (or none) answers 404 whatever the role
 * (docs/decisions/03-tenancy-and-roles.md), as it does for the roles that may.
 */
export function requireAccess(
  access: Access,
  unauthenticatedMessage?: string,
  checkParams?: (params: Record<string, string>) => void,
  owner?: OwnedTable,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (access !== 'public') {
      const actor = c.get('actor');
      if (!actor) throw unauthenticated(unauthenticatedMessage);
      if (access !== 'authenticated' && !access.includes(actor.role)) {
        const params = c.req.param() as Record<string, string>;
        checkParams?.(params);
        if (owner && actor.role !== 'global_admin') {
          const company = await ownerOf(c.get('deps').db, owner, Number(params.id));
          if (company == null || company !== actor.company_id) throw notFound(MISSING[owner]);
        }
        throw forbidden();
      }
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

/**
 * The company a public read is about: the one named, else the caller's own. Anonymous callers and
 * global_admin (who has no company) must name it.
 */
export function readCompanyId(actor: Actor | null, requested?: number | null): number {
  if (requested != null) return requested;
  if (actor?.company_id != null) return actor.company_id;
  throw new AppError('validation', 'company_id is required');
}

/** Whether the caller sees a company's internal fields (hidden prices and the like): its staff and global_admin. */
export function seesCompanyInternals(actor: Actor | null, companyId: number): boolean {
  if (!actor) return false;
  return actor.role === 'global_admin' || (isStaff(actor.role) && actor.company_id === companyId);
}

/**
 * Things that belong to one person of a company (their work hours): the person themselves, the
 * company's admins and managers, and global_admin. Another company's answers 404; a colleague 403.
 */
export function assertSelfOrCompanyAdmin(actor: Actor, companyId: number, personId: number): void {
  assertCompanyAccess(actor, companyId);
  if (actor.role === 'global_admin' || actor.id === personId || COMPANY_ADMINS.includes(actor.role)) return;
  throw forbidden();
}
