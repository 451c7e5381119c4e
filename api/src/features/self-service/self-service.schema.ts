// Request and response shapes of the customer self-service endpoints (docs/decisions/09-customer-self-service.md).
import { z } from '@hono/zod-openapi';
import { Instant } from '../availability/availability.schema.ts';

export const ManageTokenParam = z.object({
  // No length limit here: any token that is not a link's answers 404, as an unknown one does (docs/decisions/09-customer-self-service.md).
  token: z
    .string()
    .openapi({ param: { name: 'token', in: 'path' }, description: 'The token of the link `{APP_URL}/manage/<token>` in the emails' }),
});

export const RescheduleBody = z
  .object({
    start_time: Instant.openapi({ description: 'One of the offered slots of the same services and employee; the end follows' }),
  })
  .openapi('ManageRescheduleRequest');

const ServiceRef = z.object({ id: z.number().int(), name: z.string(), duration_minutes: z.number().int() });

export const ManagedAppointmentSchema = z
  .object({
    id: z.number().int(),
    start_time: z.string(),
    end_time: z.string(),
    status: z.enum(['booked', 'cancelled']),
    version: z.number().int(),
    services: z.array(ServiceRef),
    service_types: z.array(z.object({ id: z.number().int(), name: z.string() })),
    service_type_ids: z.array(z.number().int()),
    employee_id: z.number().int().nullable(),
    employee_name: z.string().nullable(),
    customer_name: z.string().nullable(),
    company: z.object({ id: z.number().int(), name: z.string(), slug: z.string(), timezone: z.string() }),
    company_id: z.number().int(),
    company_name: z.string(),
    company_slug: z.string(),
    company_email: z.string().nullable().openapi({
      description: "The business's email, for changes it is too late to make online (as the confirmation email gives it)",
    }),
    timezone: z.string(),
    cancellation_notice_hours: z.number().int(),
    booking_window_days: z.number().int().openapi({
      description: "The company's booking window: new times are offered this many days ahead (docs/decisions/27-scheduling-rules.md)",
    }),
    deadline: z.string().openapi({ description: 'Self-service changes are possible until this instant (start minus the notice hours)' }),
    can_cancel: z.boolean(),
    can_reschedule: z.boolean(),
  })
  .openapi('ManagedAppointment');

export type ManagedAppointmentDto = z.infer<typeof ManagedAppointmentSchema>;
export type RescheduleInput = z.infer<typeof RescheduleBody>;
