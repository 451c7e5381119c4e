// The one place a company row becomes what the API shows: public fields for everyone, settings and
// subscription for its members and global_admin, never Stripe ids.
import type { CompanyRow } from '@bookwell/db';
import { z } from '@hono/zod-openapi';
import type { Actor } from '../../lib/context.ts';
import { acceptingBookings, subscriptionActive } from './company.rules.ts';

export const PublicCompanySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    logo_url: z.string().nullable(),
    enable_employee_booking: z.boolean(),
    timezone: z.string(),
    accepting_bookings: z.boolean(),
  })
  .openapi('PublicCompany');

export const CompanySchema = PublicCompanySchema.extend({
  email: z.string().nullable(),
  time_increment_minutes: z.number().int(),
  listed_publicly: z.boolean(),
  hide_customer_names_in_feeds: z.boolean(),
  reminder_hours_before: z.number().int(),
  cancellation_notice_hours: z.number().int(),
  min_notice_minutes: z.number().int(),
  booking_window_days: z.number().int(),
  country: z.string(),
  subscription_plan: z.enum(['trial', 'standard', 'enterprise']).nullable(),
  subscription_expires_at: z.string().nullable(),
  subscription_active: z.boolean(),
  // Whether Stripe knows the company (it subscribed, or started to), never the id: Company settings
  // offers Manage billing, the Stripe billing portal, only then (docs/decisions/06-subscriptions.md).
  has_billing_account: z.boolean(),
  created_at: z.string(),
}).openapi('Company');

/** What GET /companies/... answers: the member view, or the public one for everybody else. */
export const CompanyViewSchema = z.union([CompanySchema, PublicCompanySchema]).openapi('CompanyView');

export type PublicCompanyDto = z.infer<typeof PublicCompanySchema>;
export type CompanyDto = z.infer<typeof CompanySchema>;

export function toPublicCompanyDto(c: CompanyRow, now: Date): PublicCompanyDto {
  return {
    id: c.id,
    name: c.name,
    slug: c.slug,
    logo_url: c.logo_url,
    enable_employee_booking: c.enable_employee_booking === 1,
    timezone: c.timezone,
    accepting_bookings: acceptingBookings(c, now),
  };
}

export function toCompanyDto(c: CompanyRow, now: Date): CompanyDto {
  return {
    ...toPublicCompanyDto(c, now),
    email: c.email,
    time_increment_minutes: c.time_increment_minutes,
    listed_publicly: c.listed_publicly === 1,
    hide_customer_names_in_feeds: c.hide_customer_names_in_feeds === 1,
    reminder_hours_before: c.reminder_hours_before,
    cancellation_notice_hours: c.cancellation_notice_hours,
    min_notice_minutes: c.min_notice_minutes,
    booking_window_days: c.booking_window_days,
    country: c.country,
    subscription_plan: c.subscription_plan,
    subscription_expires_at: c.subscription_expires_at,
    subscription_active: subscriptionActive(c, now),
    has_billing_account: !!c.stripe_customer_id,
    created_at: c.created_at,
  };
}

/** Members of the company (any role, customers included) and global_admin see the full view. */
export function isCompanyMember(actor: Actor | null, companyId: number): boolean {
  return !!actor && (actor.role === 'global_admin' || actor.company_id === companyId);
}

export function toCompanyViewFor(actor: Actor | null, c: CompanyRow, now: Date): CompanyDto | PublicCompanyDto {
  return isCompanyMember(actor, c.id) ? toCompanyDto(c, now) : toPublicCompanyDto(c, now);
}
