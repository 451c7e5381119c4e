// Request shapes of the company calls: settings, creation by global_admin, lookups and search.
import { z } from '@hono/zod-openapi';
import { isSupportedCountry } from 'libphonenumber-js';
import { Email, TimeZone } from '../../lib/validation.ts';

export const TIME_INCREMENTS = [15, 30, 45, 60] as const;

const CompanyName = z.string().trim().min(1, 'Company name is required').max(200, 'Company name is too long');

/** An empty form field means "none". */
const emptyToNull = (v: unknown) => (v === '' ? null : v);

const CompanyEmail = z.preprocess(emptyToNull, Email.nullable());

const LogoUrl = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .max(2048, 'Logo URL is too long')
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, 'Logo URL must be an http(s) URL')
    .nullable(),
);

const Flag = (what: string) => z.boolean({ message: `${what} must be true or false` });

/** Whole hours in a range (docs/decisions/22-messaging.md). */
const Hours = (what: string, min: number, max: number) =>
  z
    .number({ message: `${what} must be a whole number of hours` })
    .int(`${what} must be a whole number of hours`)
    .min(min, `${what} must be between ${min} and ${max} hours`)
    .max(max, `${what} must be between ${min} and ${max} hours`);

/** Whole numbers in a range, for the booking limits (docs/decisions/27-scheduling-rules.md). */
const Whole = (what: string, unit: string, min: number, max: number) =>
  z
    .number({ message: `${what} must be a whole number of ${unit}` })
    .int(`${what} must be a whole number of ${unit}`)
    .min(min, `${what} must be between ${min} and ${max} ${unit}`)
    .max(max, `${what} must be between ${min} and ${max} ${unit}`);

/** ISO 3166-1 alpha-2, one libphonenumber-js knows (it reads numbers written without a + in that country). */
const Country = z
  .string()
  .trim()
  .toUpperCase()
  .refine((v) => /^[A-Z]{2}$/.test(v) && isSupportedCountry(v), 'country must be a two-letter ISO 3166-1 country code');

const settingsShape = {
  name: CompanyName.optional(),
  email: CompanyEmail.optional(),
  logo_url: LogoUrl.optional(),
  timezone: TimeZone.optional(),
  enable_employee_booking: Flag('enable_employee_booking').optional(),
  // The document generator writes only a multi-value literal's first value: the enum is given whole.
  time_increment_minutes: z
    .literal(TIME_INCREMENTS, { message: 'Time increment must be 15, 30, 45 or 60 minutes' })
    .openapi({ type: 'integer', enum: [...TIME_INCREMENTS] })
    .optional(),
  listed_publicly: Flag('listed_publicly').optional(),
  hide_customer_names_in_feeds: Flag('hide_customer_names_in_feeds').optional(),
  reminder_hours_before: Hours('reminder_hours_before', 1, 168).optional(),
  cancellation_notice_hours: Hours('cancellation_notice_hours', 0, 168).optional(),
  min_notice_minutes: Whole('min_notice_minutes', 'minutes', 0, 10080)
    .optional()
    .openapi({ description: 'Public and customer bookings start at least this long from now (default 0)' }),
  booking_window_days: Whole('booking_window_days', 'days', 1, 365)
    .optional()
    .openapi({ description: 'Public and customer bookings within this many days (default 30)' }),
  country: Country.optional(),
};

export const Slug = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'Slug is required')
  .max(100, 'Slug is too long')
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Slug may contain lower-case letters, digits and single dashes only');

export const UpdateCompanyBody = z
  .object({
    ...settingsShape,
    slug: Slug.optional().openapi({
      description: "The booking link /public/booking/{slug}; another company's answers 409, and the old link stops working",
    }),
  })
  .openapi('UpdateCompanyRequest');

export const CreateCompanyBody = z
  .object({
    ...settingsShape,
    name: CompanyName,
    slug: Slug.optional(),
  })
  .openapi('CreateCompanyRequest');

export const CompanyListQuery = z.object({
  search: z.string().trim().max(200, 'Search is too long').optional(),
});

export const SlugParam = z.object({
  slug: z
    .string()
    .max(100, 'Slug is too long')
    .openapi({ param: { name: 'slug', in: 'path' }, example: 'demo' }),
});
