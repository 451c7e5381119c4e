// A company's standing as plain rules over its row: whether its subscription is live (and so whether
// it takes public bookings), whether its plan limits staff, and who counts as one of its insiders.
import type { CompanyRow } from '@bookwell/db';
import { isStaff } from '../../lib/authorize.ts';
import type { Actor } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { formatForPeople } from '../notifications/appointment-emails.ts';

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

/**
 * The company's cancellation notice (docs/decisions/09-customer-self-service.md): a customer's own
 * change (through the link or signed in) is possible until this many hours before the start; staff
 * are never bound by it.
 */
export interface ChangeNotice {
  cancellation_notice_hours: number;
  name: string;
  email: string | null;
  timezone: string;
}

/** Start minus the company's notice hours: the last moment a customer may change it themselves. */
export function changeDeadline(notice: Pick<ChangeNotice, 'cancellation_notice_hours'>, start: string): Date {
  return new Date(Date.parse(start) - notice.cancellation_notice_hours * 3600_000);
}

/** 403 too_late naming the deadline in the company's zone and how to reach the business. */
export function tooLateToChange(notice: ChangeNotice, start: string): AppError {
  const deadline = changeDeadline(notice, start).toISOString();
  return new AppError(
    'too_late',
    `Changes online were possible until ${formatForPeople(deadline, notice.timezone)} (${notice.cancellation_notice_hours} hours before the start). Please contact ${notice.name}${notice.email ? ` at ${notice.email}` : ''}.`,
    { extra: { deadline } },
  );
}
