// Request and response shapes of appointment durations: the global catalogue, what each company offers, and its default.
import { z } from '@hono/zod-openapi';
import { MAX_ID, bodyId } from '../../lib/validation.ts';

const minutes = (field: string) =>
  z
    .number({ error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a number`) })
    .int(`${field} must be a whole number of minutes`)
    .min(1, `${field} must be at least 1 minute`)
    .max(1440, `${field} must be at most 1440 minutes (one day)`);

const CompanyIdField = bodyId('company_id').optional().openapi({ description: "Defaults to the caller's company; global_admin names it" });

export const CompanyIdQuery = z.object({
  company_id: z.coerce
    .number({ message: 'company_id must be a positive integer' })
    .int('company_id must be a positive integer')
    .positive('company_id must be a positive integer')
    .max(MAX_ID, 'company_id is too large')
    .optional()
    .openapi({ param: { name: 'company_id', in: 'query' }, description: "Defaults to the caller's company; required when anonymous" }),
});

export const CompanyIdParam = z.object({
  companyId: z.coerce
    .number({ message: 'must be a positive integer' })
    .int('must be a positive integer')
    .positive('must be a positive integer')
    .max(MAX_ID, 'is too large')
    .openapi({ param: { name: 'companyId', in: 'path' }, example: 1 }),
});

// --- the global catalogue
export const DurationOptionBody = z.object({ duration_minutes: minutes('duration_minutes') }).openapi('DurationOptionWrite');
export const DurationOptionSchema = z
  .object({
    id: z.number().int(),
    duration_minutes: z.number().int(),
  })
  .openapi('AppointmentDurationOption');

// --- what a company offers
export const CreateCompanyDurationOptionBody = z
  .object({
    company_id: CompanyIdField,
    appointment_duration_option_id: bodyId('appointment_duration_option_id').optional(),
    duration_minutes: minutes('duration_minutes')
      .optional()
      .openapi({ description: 'Instead of appointment_duration_option_id: the catalogue entry with these minutes' }),
  })
  .openapi('CreateCompanyDurationOption');

export const UpdateCompanyDurationOptionBody = CreateCompanyDurationOptionBody.openapi('UpdateCompanyDurationOption');
export type CompanyDurationOptionInput = z.infer<typeof CreateCompanyDurationOptionBody>;

export const CompanyDurationOptionSchema = z
  .object({
    id: z.number().int(),
    company_id: z.number().int(),
    appointment_duration_option_id: z.number().int(),
    duration_minutes: z.number().int().openapi({ description: "The catalogue entry's minutes, joined for convenience" }),
  })
  .openapi('CompanyDurationOption');

// --- a company's default
export const CreateCompanyDurationDefaultBody = z
  .object({
    company_id: CompanyIdField,
    default_appointment_duration: minutes('default_appointment_duration'),
  })
  .openapi('CreateCompanyDurationDefault');

export const UpdateCompanyDurationDefaultBody = z
  .object({
    company_id: bodyId('company_id').optional().openapi({ description: 'May be sent back unchanged' }),
    default_appointment_duration: minutes('default_appointment_duration').optional(),
  })
  .openapi('UpdateCompanyDurationDefault');
export type UpdateCompanyDurationDefaultInput = z.infer<typeof UpdateCompanyDurationDefaultBody>;

export const CompanyDurationDefaultSchema = z
  .object({
    id: z.number().int(),
    company_id: z.number().int(),
    default_appointment_duration: z.number().int().openapi({ description: 'Minutes; one of the durations the company offers' }),
  })
  .openapi('CompanyDurationDefault');
