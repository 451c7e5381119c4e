// Response shapes of the privacy calls: a person's data export and the erasure's answer
// (docs/decisions/32-privacy-and-operations.md).
import { z } from '@hono/zod-openapi';

const ExportProfile = z.object({
  id: z.number().int(),
  company_id: z.number().int().nullable(),
  company_name: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  role: z.string(),
  booking_notices: z.boolean(),
  sms_opted_out_at: z.string().nullable(),
  archived_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

const ExportAppointment = z.object({
  id: z.number().int(),
  /** 'customer': booked for them; 'employee': performed by them. */
  as: z.enum(['customer', 'employee']),
  start_time: z.string(),
  end_time: z.string(),
  status: z.string(),
  services: z.array(z.string()),
  employee_name: z.string().nullable(),
  description: z.string().nullable(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  customer_phone: z.string().nullable(),
  sms_consent: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

const ExportMessage = z.object({
  id: z.number().int(),
  channel: z.enum(['email', 'sms']),
  kind: z.string(),
  to_address: z.string(),
  subject: z.string().nullable(),
  state: z.string(),
  appointment_id: z.number().int().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});

export const PersonExportSchema = z
  .object({
    exported_at: z.string(),
    profile: ExportProfile,
    appointments: z.array(ExportAppointment),
    messages: z.array(ExportMessage).openapi({
      description:
        'Messages sent or queued to their email address or phone; bodies are left out (they carry sign-in and self-service links)',
    }),
  })
  .openapi('PersonExport');

export type PersonExport = z.infer<typeof PersonExportSchema>;

export const ErasureSchema = z
  .object({
    id: z.number().int(),
    erased: z.literal(true),
    appointments_kept: z.number().int(),
    messages_cancelled: z.number().int(),
  })
  .openapi('Erasure');

export type ErasureDto = z.infer<typeof ErasureSchema>;
