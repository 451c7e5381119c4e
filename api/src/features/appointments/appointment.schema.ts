// Request and response shapes of the appointment endpoints.
import { z } from '@hono/zod-openapi';
import { Email, Id, PersonName, Phone } from '../../lib/validation.ts';
import { DateOrInstant, Instant } from '../availability/availability.schema.ts';

/** Ids inside JSON bodies are JSON integers (path and query ids arrive as text and are coerced). */
const BodyId = z
  .number({ message: 'must be a positive integer' })
  .int('must be a positive integer')
  .positive('must be a positive integer')
  .max(2_147_483_647, 'is too large');

export const CustomerInput = z
  .object({
    name: PersonName,
    email: Email,
    phone: Phone.optional().nullable(),
  })
  .openapi('BookingCustomer', { description: "Who the booking is for; the company's customer is found or created by email." });

const writeFields = {
  company_id: BodyId.optional(),
  user_id: BodyId.nullable().optional().openapi({ description: 'The customer (staff bookings)' }),
  employee_id: BodyId.nullable().optional(),
  end_time: Instant.nullable().optional().openapi({ description: 'Staff bookings; public bookings end when their service does' }),
  description: z.string().max(2000, 'Description is too long (2000 characters at most)').nullable().optional(),
  appointment_duration_option_id: BodyId.nullable().optional(),
  // Ids, or (one reading of docs/product/03-entities.md) service_types objects each holding an id.
  service_type_ids: z
    .preprocess(
      (v) => (Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' && !Array.isArray(x) && 'id' in x ? x.id : x)) : v),
      z.array(BodyId).max(20, 'At most 20 services'),
    )
    .optional()
    .openapi({ description: 'Service ids; [{id}] objects are read as their ids' }),
  service_types: z
    .array(z.object({ id: BodyId }))
    .max(20, 'At most 20 services')
    .optional()
    .openapi({ description: 'Alternative to service_type_ids: [{id}]' }),
  customer: CustomerInput.optional(),
  sms_consent: z.boolean().optional(),
};

export const CreateAppointmentBody = z
  .object({
    ...writeFields,
    start_time: Instant,
    status: z.literal('booked').optional(),
  })
  .openapi('AppointmentCreate');

export const UpdateAppointmentBody = z
  .object({
    ...writeFields,
    start_time: Instant.optional(),
    status: z.enum(['booked', 'cancelled']).optional(),
  })
  .openapi('AppointmentUpdate');

export type CreateAppointmentInput = z.infer<typeof CreateAppointmentBody>;
export type UpdateAppointmentInput = z.infer<typeof UpdateAppointmentBody>;

export const ServiceTypeRef = z.object({ id: z.number().int(), name: z.string() });

export const AppointmentSchema = z
  .object({
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
    booking_contact: z
      .object({ name: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() })
      .nullable()
      .optional()
      .openapi({ description: 'Staff only: what the booker typed, kept even when the customer record differs' }),
  })
  .openapi('Appointment');

export type AppointmentDto = z.infer<typeof AppointmentSchema>;

export const ListAppointmentsQuery = z.object({
  start_date: DateOrInstant.optional(),
  end_date: DateOrInstant.optional(),
  user_id: Id.optional(),
  employee_id: Id.optional(),
  company_id: Id.optional(),
});
