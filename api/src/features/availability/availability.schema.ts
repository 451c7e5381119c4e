// Request and response shapes of the availability endpoints, and the date and instant fields every
// booking request carries.
import { z } from '@hono/zod-openapi';
import { isLocalDate, isZonedInstant } from '../../lib/zoned-time.ts';
import { Id } from '../../lib/validation.ts';

export const LocalDate = z
  .string()
  .max(10, 'must be a date as YYYY-MM-DD')
  .refine(isLocalDate, 'must be an existing date as YYYY-MM-DD')
  .openapi({ example: '2026-11-24' });

export const Instant = z
  .string()
  .max(40, 'must be an ISO 8601 date-time')
  .refine(isZonedInstant, 'must be an ISO 8601 date-time with a time zone, such as 2026-11-24T09:30:00Z')
  .openapi({ example: '2026-11-24T09:30:00.000Z' });

export const DateOrInstant = z
  .string()
  .max(40, 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time')
  .refine((v) => isLocalDate(v) || isZonedInstant(v), 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a time zone');

export const SlotsQuery = z.object({
  company_id: Id,
  service_type_id: Id,
  date: LocalDate,
  employee_id: Id.optional(),
  duration_minutes: z.coerce
    .number({ message: 'must be a whole number of minutes' })
    .int('must be a whole number of minutes')
    .min(1, 'must be at least 1 minute')
    .max(1440, 'must be at most 1440 minutes')
    .optional(),
});

export const DatesQuery = SlotsQuery.omit({ date: true });

export const SlotSchema = z.object({ value: z.string(), label: z.string(), start: z.string(), end: z.string() }).openapi('AvailableSlot');
export const SlotsResponse = z.object({ slots: z.array(SlotSchema) }).openapi('AvailableSlots');
export const DatesResponse = z.object({ dates: z.array(z.string()) }).openapi('AvailableDates');
