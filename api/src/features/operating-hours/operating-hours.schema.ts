// Request and response shapes of operating hours (company hours and per-person work hours) and time slots.
import { z } from '@hono/zod-openapi';
import { bodyId, queryId } from '../../lib/validation.ts';
import { CLOSE_TIME_PATTERN, OPEN_TIME_PATTERN } from './operating-hours.rules.ts';

const DayOfWeek = z
  .number({ error: 'day_of_week must be a number from 1 (Monday) to 7 (Sunday)' })
  .int('day_of_week must be a number from 1 (Monday) to 7 (Sunday)')
  .min(1, 'day_of_week must be a number from 1 (Monday) to 7 (Sunday)')
  .max(7, 'day_of_week must be a number from 1 (Monday) to 7 (Sunday)')
  .openapi({ description: '1 Monday .. 7 Sunday' });

const OpenTime = z
  .string({ error: 'open_time must be a time as HH:MM or HH:MM:SS' })
  .trim()
  .regex(OPEN_TIME_PATTERN, 'open_time must be a time as HH:MM or HH:MM:SS')
  .nullable()
  .openapi({ example: '09:00:00', description: 'Company-local wall time' });

const CloseTime = z
  .string({ error: 'close_time must be a time as HH:MM or HH:MM:SS' })
  .trim()
  .regex(CLOSE_TIME_PATTERN, 'close_time must be a time as HH:MM or HH:MM:SS')
  .nullable()
  .openapi({ example: '18:00:00', description: 'Company-local wall time; 00:00:00 (or 24:00) is midnight at the end of the day' });

const IsClosed = z.boolean({ error: 'is_closed must be true or false' });

const hoursFields = {
  open_time: OpenTime.optional(),
  close_time: CloseTime.optional(),
  open_time_slot_id: bodyId('open_time_slot_id').nullable().optional().openapi({ description: 'Instead of open_time: a time slot id' }),
  close_time_slot_id: bodyId('close_time_slot_id')
    .nullable()
    .optional()
    .openapi({ description: 'Instead of close_time: a time slot id (00:00 = end of day)' }),
  is_closed: IsClosed.optional(),
};

export const CreateHoursBody = z
  .object({
    company_id: bodyId('company_id')
      .optional()
      .openapi({ description: "Defaults to the caller's company; global_admin names it (or gives user_id)" }),
    user_id: bodyId('user_id')
      .nullable()
      .optional()
      .openapi({ description: "A staff member for their work hours; null or absent for the company's hours" }),
    day_of_week: DayOfWeek,
    ...hoursFields,
  })
  .openapi('CreateOperatingHours');

export const UpdateHoursBody = z
  .object({
    company_id: bodyId('company_id').optional().openapi({ description: 'May be sent back unchanged; rows never move' }),
    user_id: bodyId('user_id').nullable().optional().openapi({ description: 'May be sent back unchanged; rows never move' }),
    day_of_week: DayOfWeek.optional(),
    ...hoursFields,
  })
  .openapi('UpdateOperatingHours');

export type CreateHoursInput = z.infer<typeof CreateHoursBody>;
export type UpdateHoursInput = z.infer<typeof UpdateHoursBody>;

export const HoursListQuery = z.object({
  company_id: queryId('company_id')
    .optional()
    .openapi({ param: { name: 'company_id', in: 'query' }, description: "Defaults to the caller's company (or to user_id's company)" }),
  user_id: queryId('user_id')
    .optional()
    .openapi({ param: { name: 'user_id', in: 'query' }, description: "That person's work hours; without it, the company's own hours" }),
  day_of_week: z.coerce
    .number({ message: 'day_of_week must be a number from 1 (Monday) to 7 (Sunday)' })
    .int('day_of_week must be a number from 1 (Monday) to 7 (Sunday)')
    .min(1, 'day_of_week must be a number from 1 (Monday) to 7 (Sunday)')
    .max(7, 'day_of_week must be a number from 1 (Monday) to 7 (Sunday)')
    .optional()
    .openapi({ param: { name: 'day_of_week', in: 'query' } }),
});

export const OperatingHoursSchema = z
  .object({
    id: z.number().int(),
    hours_id: z.number().int().openapi({ description: 'Same as id' }),
    company_id: z.number().int(),
    user_id: z.number().int().nullable(),
    day_of_week: z.number().int(),
    open_time: z.string().nullable().openapi({ example: '09:00:00' }),
    close_time: z.string().nullable().openapi({ example: '18:00:00', description: '00:00:00 is midnight at the end of the day' }),
    open_time_slot_id: z.number().int().nullable(),
    close_time_slot_id: z.number().int().nullable(),
    is_closed: z.boolean(),
  })
  .openapi('OperatingHours');

export type OperatingHoursDto = z.infer<typeof OperatingHoursSchema>;

export const TimeSlotSchema = z
  .object({
    id: z.number().int(),
    display_value: z.string().openapi({ example: '09:15' }),
  })
  .openapi('TimeSlot');
