// A company's standing as plain rules over its row: whether its subscription is live (and so whether
// it takes public bookings), whether its plan limits staff, and who counts as one of its insiders.
import type { CompanyRow } from '@bookwell/db';
import { isStaff } from '../../lib/authorize.ts';
import type { Actor } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';

export const NOT_ACCEPTING = 'This business is not taking online bookings right now';

export const notAcceptingBookings = () => new AppError('not_accepting_bookings', NOT_ACCEPTING);

/** docs/decisions/06-subscriptions.md: no expiry means unlimited; otherwise active until the expiry instant. */
export function subscriptionActive(company: Pick<CompanyRow, 'subscription_expires_at'>, now: Date): boolean {
  return !company.subscription_expires_at || company.subscription_expires_at > now.toISOString();
}

/** Public bookings need a live subscription (docs/decisions/06-subscriptions.md); staff keep access regardless. */
export function acceptingBookings(company: Pick<CompanyRow, 'subscription_expires_at'>, now: Date): boolean {
  return subscriptionActive(company, now);
}

/** Paid plans have no staff limit; the Free Trial (or an unknown plan) is limited. */
export function hasStaffLimit(company: Pick<CompanyRow, 'subscription_plan'>): boolean {
  return company.subscription_plan !== 'standard' && company.subscription_plan !== 'enterprise';
}

/**
 * Staff of the company and global_admin: they book at any time, see contact details, and keep seeing
 * their calendar's availability after the subscription lapses.
 */
export function isCompanyInsider(actor: Actor | null, companyId: number): boolean {
  return actor !== null && (actor.role === 'global_admin' || (isStaff(actor.role) && actor.company_id === companyId));
}
