// The customer's self-service link (docs/decisions/09-customer-self-service.md): read, cancel and move
// one appointment with the token from their email, no account. Public, and counted against
// RATE_LIMIT_PUBLIC like the booking page's requests.
import { auditContext } from '../../lib/audit-context.ts';
import type { Context } from 'hono';
import type { AppEnv } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { consume } from '../../lib/rate-limit.ts';
import { ManagedAppointmentSchema, ManageTokenParam, RescheduleBody } from './self-service.schema.ts';
import { cancelManagedAppointment, getManagedAppointment, rescheduleManagedAppointment } from './self-service.service.ts';

const RATE_LIMITED = 'Too many requests. Please wait a minute and try again.';

const lateOrGone = {
  403: errorResponse("Past the company's cancellation notice deadline (too_late); the message names the deadline"),
  404: errorResponse('Unknown link, or the appointment has ended or was removed'),
};

const getRoute = defineRoute({
  method: 'get',
  path: '/manage/{token}',
  access: 'public',
  tags: ['self-service'],
  summary: 'The appointment of a self-service link, with can_cancel, can_reschedule and the deadline',
  request: { params: ManageTokenParam },
  responses: { 200: jsonResponse(ManagedAppointmentSchema, 'The appointment'), 404: lateOrGone[404] },
});

const cancelRoute = defineRoute({
  method: 'post',
  path: '/manage/{token}/cancel',
  access: 'public',
  tags: ['self-service'],
  summary: 'Cancel the appointment (the cancellation email follows); again answers the same state',
  request: { params: ManageTokenParam },
  responses: { 200: jsonResponse(ManagedAppointmentSchema, 'Cancelled'), ...lateOrGone },
});

const rescheduleRoute = defineRoute({
  method: 'post',
  path: '/manage/{token}/reschedule',
  access: 'public',
  tags: ['self-service'],
  summary: 'Move the appointment to an offered slot of the same services and employee (the reschedule notice follows)',
  request: { params: ManageTokenParam, body: jsonBody(RescheduleBody) },
  responses: {
    200: jsonResponse(ManagedAppointmentSchema, 'Moved: the new times and version'),
    ...lateOrGone,
    409: errorResponse('The time is taken (slot_taken), or the appointment is cancelled'),
  },
});

async function limit(c: Context<AppEnv>): Promise<void> {
  const deps = c.get('deps');
  if (!(await consume(deps.db, 'public', c.get('clientIp'), deps.config.RATE_LIMIT_PUBLIC, 60_000, deps.now()))) {
    throw new AppError('rate_limited', RATE_LIMITED, { headers: { 'Retry-After': '60' } });
  }
}

// The token is a credential: answers are not cached, and the page that holds it sends no referrer.
const PRIVATE = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

export const selfServiceRoutes = createRouter()
  .openapi(getRoute, async (c) => {
    await limit(c);
    return c.json(await getManagedAppointment(c.get('deps'), c.req.valid('param').token), 200, PRIVATE);
  })
  .openapi(cancelRoute, async (c) => {
    await limit(c);
    return c.json(await cancelManagedAppointment(c.get('deps'), c.req.valid('param').token, auditContext(c)), 200, PRIVATE);
  })
  .openapi(rescheduleRoute, async (c) => {
    await limit(c);
    const { token } = c.req.valid('param');
    return c.json(await rescheduleManagedAppointment(c.get('deps'), token, c.req.valid('json').start_time, auditContext(c)), 200, PRIVATE);
  });
