// Request and response shapes of the appointment, availability and sync endpoints.
import { z } from '@hono/zod-openapi';
import { parseInstant } from '../availability/availability.ts';
import { Email, Id, PersonName, Phone } from '../../lib/validation.ts';

const MIN_YEAR = 2000;
const MAX_YEAR = 2099;

function realDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return y >= MIN_YEAR && y <= MAX_YEAR && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** An instant written with its zone ('Z' or an offset): a wall time alone would be ambiguous. */
export function isZonedInstant(v: string): boolean {
  if (v.length > 40 || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(v)) return false;
  try {
    const t = parseInstant(v);
    const y = new Date(t).getUTCFullYear();
    return y >= MIN_YEAR && y <= MAX_YEAR;
  } catch {
    return false;
  }
}

/** The database's one textual form of an instant. */
export function canonicalInstant(v: string): string {
  return new Date(parseInstant(v)).toISOString();
}

export const LocalDate = z.string().max(10, 'must be a date as YYYY-MM-DD')
  .refine(realDate, 'must be an existing date as YYYY-MM-DD')
  .openapi({ example: '2026-11-24' });

export const Instant = z.string().max(40, 'must be an ISO 8601 date-time')
  .refine(isZonedInstant, 'must be an ISO 8601 date-time with a time zone, such as 2026-11-24T09:30:00Z')
  .openapi({ example: '2026-11-24T09:30:00.000Z' });

export const DateOrInstant = z.string().max(40, 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time')
  .refine((v) => realDate(v) || isZonedInstant(v), 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a time zone');

/** Ids inside JSON bodies are JSON integers (path and query ids arrive as text and are coerced). */
const BodyId = z.number({ message: 'must be a positive integer' }).int('must be a positive integer')
  .positive('must be a positive integer').max(2_147_483_647, 'is too large');

export const CustomerInput = z.object({
  name: PersonName,
  email: Email,
  phone: Phone.optional().nullable(),
}).openapi('BookingCustomer', { description: 'Who the booking is for; the company\'s customer is found or created by email.' });

const writeFields = {
  company_id: BodyId.optional(),
  user_id: BodyId.nullable().optional().openapi({ description: 'The customer (staff bookings)' }),
  employee_id: BodyId.nullable().optional(),
  end_time: Instant.nullable().optional().openapi({ description: 'Staff bookings; public bookings end when their service does' }),
  description: z.string().max(2000, 'Description is too long (2000 characters at most)').nullable().optional(),
  appointment_duration_option_id: BodyId.nullable().optional(),
  service_type_ids: z.array(BodyId).max(20, 'At most 20 services').optional(),
  service_types: z.array(z.object({ id: BodyId })).max(20, 'At most 20 services').optional()
    .openapi({ description: 'Alternative to service_type_ids: [{id}]' }),
  customer: CustomerInput.optional(),
  sms_consent: z.boolean().optional(),
};

export const CreateAppointmentBody = z.object({
  ...writeFields,
  start_time: Instant,
  status: z.literal('booked').optional(),
}).openapi('AppointmentCreate');

export const UpdateAppointmentBody = z.object({
  ...writeFields,
  start_time: Instant.optional(),
  status: z.enum(['booked', 'cancelled']).optional(),
}).openapi('AppointmentUpdate');

export type CreateAppointmentInput = z.infer<typeof CreateAppointmentBody>;
export type UpdateAppointmentInput = z.infer<typeof UpdateAppointmentBody>;

export const ServiceTypeRef = z.object({ id: z.number().int(), name: z.string() });

export const AppointmentSchema = z.object({
  id: z.number().int(),
  company_id: z.number().int(),
  user_id: z.number().int().nullable(),
  employee_id: z.number().int().nullable(),
  start_time: z.string(),
  end_time: z.string(),
  description: z.string().nullable(),
  appointment_duration_option_id: z.number().int().nullable(),
  status: z.enum(['booked', 'cancelled']),
  version: z.number().int(),
  service_types: z.array(ServiceTypeRef),
  customer_name: z.string().nullable(),
  employee_name: z.string().nullable(),
  sms_consent: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  customer_email: z.string().nullable().optional().openapi({ description: 'Staff of the company only' }),
  customer_phone: z.string().nullable().optional().openapi({ description: 'Staff of the company only' }),
  booking_contact: z.object({ name: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() }).nullable().optional()
    .openapi({ description: 'Staff only: what the booker typed, kept even when the customer record differs' }),
}).openapi('Appointment');

export type AppointmentDto = z.infer<typeof AppointmentSchema>;

export const ListAppointmentsQuery = z.object({
  start_date: DateOrInstant.optional(),
  end_date: DateOrInstant.optional(),
  user_id: Id.optional(),
  employee_id: Id.optional(),
  company_id: Id.optional(),
});

export const SlotsQuery = z.object({
  company_id: Id,
  service_type_id: Id,
  date: LocalDate,
  employee_id: Id.optional(),
  duration_minutes: z.coerce.number({ message: 'must be a whole number of minutes' }).int('must be a whole number of minutes')
    .min(1, 'must be at least 1 minute').max(1440, 'must be at most 1440 minutes').optional(),
});

export const DatesQuery = SlotsQuery.omit({ date: true });

export const SlotSchema = z.object({ value: z.string(), label: z.string(), start: z.string(), end: z.string() }).openapi('AvailableSlot');
export const SlotsResponse = z.object({ slots: z.array(SlotSchema) }).openapi('AvailableSlots');
export const DatesResponse = z.object({ dates: z.array(z.string()) }).openapi('AvailableDates');

export const SyncQuery = z.object({
  since: z.string().max(64, 'is not a valid cursor').optional(),
  company_id: Id.optional(),
});

export const SyncResponse = z.object({
  changes: z.array(z.union([
    z.object({ op: z.literal('upsert'), appointment: AppointmentSchema }),
    z.object({ op: z.literal('delete'), id: z.number().int() }),
  ])),
  cursor: z.string(),
  has_more: z.boolean(),
}).openapi('AppointmentChanges');
