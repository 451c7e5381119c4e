// Request and response shapes of the offline calendar's change feed.
import { z } from '@hono/zod-openapi';
import { Id } from '../../lib/validation.ts';
import { AppointmentSchema } from '../appointments/appointment.schema.ts';

export const SyncQuery = z.object({
  since: z.string().max(64, 'is not a valid cursor').optional(),
  company_id: Id.optional(),
});

export const SyncResponse = z
  .object({
    changes: z.array(
      z.union([
        z.object({ op: z.literal('upsert'), appointment: AppointmentSchema }),
        z.object({ op: z.literal('delete'), id: z.number().int() }),
      ]),
    ),
    cursor: z.string(),
    has_more: z.boolean(),
  })
  .openapi('AppointmentChanges');
