// Request and response shapes of service types (the things a company sells and customers book).
import { z } from '@hono/zod-openapi';

export const NAME_AND_DURATION_REQUIRED = 'Name and duration are required.';

const missing = (input: unknown) => input === undefined || input === null;

const Name = z
  .string({ error: (iss) => (missing(iss.input) ? NAME_AND_DURATION_REQUIRED : 'name must be a string') })
  .trim()
  .min(1, NAME_AND_DURATION_REQUIRED)
  .max(200, 'Name is too long (200 characters at most)');

const Duration = z
  .number({ error: (iss) => (missing(iss.input) ? NAME_AND_DURATION_REQUIRED : 'duration_minutes must be a number') })
  .int('Duration must be a whole number of minutes')
  .min(1, 'Duration must be at least 1 minute')
  .max(1440, 'Duration must be at most 1440 minutes (one day)');

const Price = z
  .number({ error: 'price must be a number or null' })
  .min(0, 'Price must be at least 0')
  .max(1_000_000_000, 'Price is too large')
  .nullable();

const HidePrice = z.boolean({ error: 'hide_price must be true or false' });

const AvailableSlots = z
  .number({ error: 'available_slots must be a number' })
  .int('Available slots must be a whole number')
  .min(1, 'Available slots must be at least 1')
  .max(10_000, 'Available slots is too large');

/** Minutes held before or after the service (docs/decisions/27-scheduling-rules.md): 0 to 240. */
const bufferField = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number of minutes`)
    .min(0, `${field} must be between 0 and 240`)
    .max(240, `${field} must be between 0 and 240`);

/** The staff who perform the service; empty: every staff member. */
const EmployeeIds = z
  .array(
    z
      .number({ error: 'employee_ids must be a list of staff ids' })
      .int('employee_ids must be a list of staff ids')
      .positive('employee_ids must be a list of staff ids')
      .max(2_147_483_647, 'employee_ids must be a list of staff ids'),
    { error: 'employee_ids must be a list of staff ids' },
  )
  .max(1000, 'employee_ids is too long')
  .openapi({ description: 'Staff of the company who perform this service; empty: every staff member' });

/** A company id inside a JSON body: a real integer, never a coerced string or boolean. */
const BodyCompanyId = z
  .number({ error: 'company_id must be a positive integer' })
  .int('company_id must be a positive integer')
  .positive('company_id must be a positive integer')
  .max(2_147_483_647, 'company_id is too large');

export const CreateServiceTypeBody = z
  .object({
    name: Name,
    duration_minutes: Duration,
    price: Price.optional(),
    hide_price: HidePrice.optional(),
    available_slots: AvailableSlots.optional(),
    buffer_before_minutes: bufferField('buffer_before_minutes').optional().openapi({ description: 'Default 0' }),
    buffer_after_minutes: bufferField('buffer_after_minutes').optional().openapi({ description: 'Default 0' }),
    employee_ids: EmployeeIds.optional(),
    company_id: BodyCompanyId.optional().openapi({ description: 'Required for global_admin; others act on their own company' }),
  })
  .openapi('CreateServiceType');

export const UpdateServiceTypeBody = z
  .object({
    name: Name.optional(),
    duration_minutes: Duration.optional(),
    price: Price.optional(),
    hide_price: HidePrice.optional(),
    available_slots: AvailableSlots.optional(),
    buffer_before_minutes: bufferField('buffer_before_minutes').optional(),
    buffer_after_minutes: bufferField('buffer_after_minutes').optional(),
    employee_ids: EmployeeIds.optional().openapi({ description: 'Replaces the list; empty: every staff member' }),
    company_id: BodyCompanyId.optional().openapi({ description: 'May be sent back unchanged; a service never moves to another company' }),
  })
  .openapi('UpdateServiceType');

export type CreateServiceTypeInput = z.infer<typeof CreateServiceTypeBody>;
export type UpdateServiceTypeInput = z.infer<typeof UpdateServiceTypeBody>;

export const ServiceTypeSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    company_id: z.number().int(),
    duration_minutes: z.number().int(),
    price: z
      .number()
      .nullable()
      .openapi({ description: 'null when not set, or when hide_price is on and the caller is not staff of the company' }),
    hide_price: z.boolean(),
    available_slots: z.number().int().openapi({ description: 'How many overlapping appointments with this service may exist at once' }),
    archived_at: z.string().nullable().openapi({ description: 'Set when deleted while appointments refer to it' }),
    buffer_before_minutes: z
      .number()
      .int()
      .openapi({ description: 'Minutes the employee and capacity are also held before the service (customers see only the service time)' }),
    buffer_after_minutes: z.number().int().openapi({ description: 'Minutes held after the service (cleanup)' }),
    employee_ids: z.array(z.number().int()).openapi({ description: 'Staff who perform it, ascending; empty: every staff member' }),
  })
  .openapi('ServiceType');

export type ServiceTypeDto = z.infer<typeof ServiceTypeSchema>;

export const ServiceTypeWriteResult = z.object({ message: z.string(), service_type: ServiceTypeSchema }).openapi('ServiceTypeWriteResult');

export const ServiceTypeListQuery = z.object({
  company_id: z.coerce
    .number({ message: 'company_id must be a positive integer' })
    .int('company_id must be a positive integer')
    .positive('company_id must be a positive integer')
    .max(2_147_483_647, 'company_id is too large')
    .optional()
    .openapi({ param: { name: 'company_id', in: 'query' }, description: "Defaults to the caller's company; required when anonymous" }),
});
