// Request and response shapes of date overrides (company closures and special hours, a person's time off).
import { z } from '@hono/zod-openapi';
import { bodyId, queryId } from '../../lib/validation.ts';
import { CLOSE_TIME_PATTERN, OPEN_TIME_PATTERN } from '../operating-hours/operating-hours.rules.ts';
import { MAX_INTERVALS, isCalendarDate } from './date-override.rules.ts';

const dateField = (field: string) =>
  z
    .string({ error: `${field} must be a date as YYYY-MM-DD` })
    .refine(isCalendarDate, `${field} must be a date as YYYY-MM-DD`)
    .openapi({ example: '2026-12-25' });

const Interval = z
  .object({
    open_time: z
      .string({ error: 'open_time must be a time as HH:MM or HH:MM:SS' })
      .regex(OPEN_TIME_PATTERN, 'open_time must be a time as HH:MM or HH:MM:SS')
      .openapi({ example: '10:00:00' }),
    close_time: z
      .string({ error: 'close_time must be a time as HH:MM or HH:MM:SS' })
      .regex(CLOSE_TIME_PATTERN, 'close_time must be a time as HH:MM or HH:MM:SS')
      .openapi({ example: '14:00:00', description: '00:00 or 24:00 is midnight at the end of the date' }),
  })
  .openapi('DateOverrideInterval');

export const CreateDateOverrideBody = z
  .object({
    company_id: bodyId('company_id')
      .optional()
      .openapi({ description: "Defaults to the caller's company; global_admin names it (or gives user_id)" }),
    user_id: bodyId('user_id')
      .nullable()
      .optional()
      .openapi({ description: "A staff member's time off; null or absent: the company's date" }),
    date: dateField('date').openapi({ description: "The date in the company's time zone" }),
    is_closed: z.boolean({ error: 'is_closed must be true or false' }).openapi({ description: 'Closed all day (a holiday, a day off)' }),
    intervals: z
      .array(Interval, { error: 'intervals must be a list of {open_time, close_time}' })
      .max(MAX_INTERVALS, `At most ${MAX_INTERVALS} intervals`)
      .nullable()
      .optional()
      .openapi({
        description: "The hours that replace the weekday's (special hours, part-day time off); none (absent, null or []) when closed",
      }),
    note: z.string({ error: 'note must be text' }).trim().max(500, 'note is too long').nullable().optional(),
  })
  .openapi('CreateDateOverride');

export type CreateDateOverrideInput = z.infer<typeof CreateDateOverrideBody>;

export const DateOverrideListQuery = z.object({
  company_id: queryId('company_id')
    .optional()
    .openapi({ param: { name: 'company_id', in: 'query' }, description: "Defaults to the caller's company (or to user_id's company)" }),
  user_id: queryId('user_id')
    .optional()
    .openapi({
      param: { name: 'user_id', in: 'query' },
      description: "That person's time off only; without it, the company's dates and everyone's",
    }),
  from: dateField('from')
    .optional()
    .openapi({ param: { name: 'from', in: 'query' }, description: 'First date (included)' }),
  to: dateField('to')
    .optional()
    .openapi({ param: { name: 'to', in: 'query' }, description: 'Last date (included)' }),
});

export const DateOverrideSchema = z
  .object({
    id: z.number().int(),
    company_id: z.number().int(),
    user_id: z.number().int().nullable(),
    date: z.string().openapi({ example: '2026-12-25' }),
    is_closed: z.boolean(),
    intervals: z
      .array(z.object({ open_time: z.string(), close_time: z.string() }))
      .openapi({ description: "'HH:MM:SS'; a close of 00:00:00 is midnight at the end of the date; empty when closed" }),
    note: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'Left out for public readers, customers, other companies and colleagues of the person it belongs to' }),
    created_at: z.string(),
  })
  .openapi('DateOverride');

export type DateOverrideDto = z.infer<typeof DateOverrideSchema>;
