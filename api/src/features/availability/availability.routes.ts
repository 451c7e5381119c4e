// The public availability endpoints: a day's bookable slots and the next 30 days that still have one.
// Answers may come from the change-stamped cache (see availability.service.ts for when they may).
import type { TypedResponse } from 'hono';
import type { z } from 'zod';
import { createRouter, defineRoute, jsonResponse } from '../../lib/openapi.ts';
import { availabilityLimit } from '../../lib/rate-limit.ts';
import { jsonAnswer } from '../../lib/compression.ts';
import { ErrorSchema } from '../../lib/validation.ts';
import { DatesQuery, DatesResponse, SlotsQuery, SlotsResponse } from './availability.schema.ts';
import { availableDatesJson, availableSlotsJson } from './availability.service.ts';

const errorResponses = {
  403: jsonResponse(ErrorSchema, 'The business is not taking online bookings (code not_accepting_bookings)'),
  404: jsonResponse(ErrorSchema, 'Unknown company, service or employee'),
};

const availableSlots = defineRoute({
  method: 'get',
  path: '/appointments/available-slots',
  access: 'public',
  tags: ['availability'],
  summary: 'Start times that can be booked for one service on one company-local date',
  request: { query: SlotsQuery },
  responses: { 200: jsonResponse(SlotsResponse, "The day's free slots, in time order"), ...errorResponses },
});

const availableDates = defineRoute({
  method: 'get',
  path: '/appointments/available-dates',
  access: 'public',
  tags: ['availability'],
  summary:
    "The dates within the company's booking window (booking_window_days, default 30 company-local days) that still have at least one free slot",
  request: { query: DatesQuery },
  responses: { 200: jsonResponse(DatesResponse, 'Dates as YYYY-MM-DD'), ...errorResponses },
});

// The service answers with JSON text (a cached answer is not serialised again), sent compressed for
// clients that take it (lib/compression.ts, jsonAnswer); the typed client reads each route's 200 as
// the response schema, which is what the text holds.

export const availabilityRoutes = createRouter()
  .openapi(availableSlots, async (c) => {
    availabilityLimit(c.get('deps'), c.get('clientIp'));
    const text = await availableSlotsJson(c.get('deps'), c.get('actor'), c.req.valid('query'));
    return jsonAnswer(c, text) as unknown as TypedResponse<z.infer<typeof SlotsResponse>, 200, 'json'>;
  })
  .openapi(availableDates, async (c) => {
    availabilityLimit(c.get('deps'), c.get('clientIp'));
    const text = await availableDatesJson(c.get('deps'), c.get('actor'), c.req.valid('query'));
    return jsonAnswer(c, text) as unknown as TypedResponse<z.infer<typeof DatesResponse>, 200, 'json'>;
  });
