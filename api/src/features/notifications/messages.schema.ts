// The company's outbox as its admins see it (docs/decisions/10-reminders-and-sms.md): what each message is, to whom, and where
// it stands; never its body, token or link.
import { z } from '@hono/zod-openapi';
import { Id } from '../../lib/validation.ts';

export const MESSAGE_KINDS = [
  'confirmation',
  'reminder',
  'reschedule',
  'cancellation',
  'staff_notice',
  'invitation',
  'password_reset',
] as const;
export const MESSAGE_STATES = ['pending', 'sending', 'sent', 'failed', 'dead', 'cancelled'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const DEFAULT_MESSAGE_LIMIT = 50;
export const MAX_MESSAGE_LIMIT = 500;

export const CompanyMessagesParam = z.object({ id: Id.openapi({ param: { name: 'id', in: 'path' }, example: 1 }) });
export const CompanyMessageParam = CompanyMessagesParam.extend({
  message_id: Id.openapi({ param: { name: 'message_id', in: 'path' }, example: 1 }),
});

export const ListMessagesQuery = z.object({
  state: z.enum(MESSAGE_STATES, { message: `state must be one of ${MESSAGE_STATES.join(', ')}` }).optional(),
  kind: z.enum(MESSAGE_KINDS, { message: `kind must be one of ${MESSAGE_KINDS.join(', ')}` }).optional(),
  appointment_id: Id.optional(),
  limit: z
    .preprocess(
      (v) => (typeof v === 'string' && /^\d{1,4}$/.test(v) ? Number(v) : v),
      z
        .number({ message: `limit must be a whole number from 1 to ${MAX_MESSAGE_LIMIT}` })
        .int(`limit must be a whole number from 1 to ${MAX_MESSAGE_LIMIT}`)
        .min(1, `limit must be a whole number from 1 to ${MAX_MESSAGE_LIMIT}`)
        .max(MAX_MESSAGE_LIMIT, `limit must be a whole number from 1 to ${MAX_MESSAGE_LIMIT}`),
    )
    .optional(),
});

export const OutboxMessageSchema = z
  .object({
    id: z.number().int(),
    kind: z.string().openapi({ description: `One of ${MESSAGE_KINDS.join(', ')}` }),
    channel: z.enum(['email', 'sms']),
    to: z.string().openapi({ description: 'The email address or E.164 phone number' }),
    state: z.enum(MESSAGE_STATES),
    due_at: z.string(),
    sent_at: z.string().nullable(),
    attempts: z.number().int(),
    last_error: z.string().nullable().openapi({ description: 'Why the last attempt failed (failed and dead messages)' }),
    appointment_id: z.number().int().nullable(),
  })
  .openapi('OutboxMessage');

export type OutboxMessageDto = z.infer<typeof OutboxMessageSchema>;
