// The time slot endpoints: the fixed 15-minute grid of a day that hours pickers offer.
import { z } from '@hono/zod-openapi';
import { createRouter, defineRoute, jsonResponse } from '../../lib/openapi.ts';
import { IdParam } from '../../lib/validation.ts';
import { TimeSlotSchema } from './operating-hours.schema.ts';
import { timeSlot, timeSlots } from './time-slot.service.ts';

const tags = ['time-slots'];
// Seeded by a migration and never edited through the API: caches may keep them a day.
const CACHE = 'public, max-age=86400';

const list = defineRoute({
  method: 'get',
  path: '/time-slots',
  access: 'public',
  tags,
  summary: 'The 96 times of a day at 15-minute steps (HH:MM)',
  responses: { 200: jsonResponse(z.array(TimeSlotSchema), 'From 00:00 to 23:45') },
});

const getOne = defineRoute({
  method: 'get',
  path: '/time-slots/{id}',
  access: 'public',
  tags,
  summary: 'One time slot',
  request: { params: IdParam },
  responses: { 200: jsonResponse(TimeSlotSchema, 'The time slot') },
});

export const timeSlotRoutes = createRouter()
  .openapi(list, async (c) => {
    c.header('Cache-Control', CACHE);
    return c.json(await timeSlots(c.get('deps').db), 200);
  })
  .openapi(getOne, async (c) => {
    const slot = await timeSlot(c.get('deps').db, c.req.valid('param').id);
    c.header('Cache-Control', CACHE);
    return c.json(slot, 200);
  });
