// The appointment endpoints: booking (public, customer and staff), the calendar list, one appointment,
// partial updates and cancellation, deletion; writes honour Idempotency-Key and If-Match. Each handler
// validates, calls one use case of appointment.service.ts and maps the answer.
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import type { AppEnv } from '../../lib/context.ts';
import { auditContext } from '../../lib/audit-context.ts';
import { currentActor, STAFF_OR_GLOBAL } from '../../lib/authorize.ts';
import { AppError } from '../../lib/errors.ts';
import { idempotency, recordIdempotentResponse } from '../../lib/idempotency.ts';
import { createRouter, defineRoute, definePutAndPatch, jsonBody, jsonResponse } from '../../lib/openapi.ts';
import { consume } from '../../lib/rate-limit.ts';
import { ErrorSchema, IdParam } from '../../lib/validation.ts';
import { etagOf } from './appointment.mapper.ts';
import {
  AppointmentSchema,
  CreateAppointmentBody,
  ListAppointmentsQuery,
  UpdateAppointmentBody,
  type UpdateAppointmentInput,
} from './appointment.schema.ts';
import { bookAppointment, changeAppointment, getAppointment, listAppointments, removeAppointment } from './appointment.service.ts';

const RATE_LIMITED = 'Too many booking requests. Please wait a minute and try again.';

const writeErrors = {
  409: jsonResponse(ErrorSchema, 'The time is no longer available (slot_taken), or a request with this Idempotency-Key is still running'),
  412: jsonResponse(
    ErrorSchema.extend({ current: AppointmentSchema }),
    'If-Match names an older version (version_mismatch); `current` is the appointment now',
  ),
  422: jsonResponse(ErrorSchema, 'The Idempotency-Key was used with another body (idempotency_mismatch)'),
};

const writeHeaders = z.object({
  'idempotency-key': z.string().optional().openapi({ description: 'Replays of the same key and body return the first response' }),
  'if-match': z.string().optional().openapi({ description: 'Entity tag from ETag, such as "3"; a stale one answers 412' }),
});

const createRoute = defineRoute({
  method: 'post',
  path: '/appointments',
  access: 'public',
  tags: ['appointments'],
  summary: 'Book an appointment: anonymously or as a customer (one service, at an offered slot), or as staff (any time without conflicts)',
  request: { body: jsonBody(CreateAppointmentBody), headers: writeHeaders.pick({ 'idempotency-key': true }) },
  responses: { 201: jsonResponse(AppointmentSchema, 'Booked; ETag carries the version'), ...writeErrors },
});

const listRoute = defineRoute({
  method: 'get',
  path: '/appointments',
  access: 'authenticated',
  tags: ['appointments'],
  summary: "The company's appointments overlapping the range (customers: their own)",
  request: { query: ListAppointmentsQuery },
  responses: { 200: jsonResponse(z.array(AppointmentSchema), 'Appointments in start order') },
});

const getRoute = defineRoute({
  method: 'get',
  path: '/appointments/{id}',
  access: 'authenticated',
  tags: ['appointments'],
  summary: 'One appointment',
  request: { params: IdParam },
  responses: { 200: jsonResponse(AppointmentSchema, 'The appointment; ETag carries the version') },
});

const updateRoute = definePutAndPatch({
  path: '/appointments/{id}',
  access: 'authenticated',
  tags: ['appointments'],
  summary: "Change an appointment (fields left out keep their value); status 'cancelled' cancels it (staff, or the customer for their own)",
  request: { params: IdParam, body: jsonBody(UpdateAppointmentBody), headers: writeHeaders },
  responses: { 200: jsonResponse(AppointmentSchema, 'The updated appointment; ETag carries the new version'), ...writeErrors },
});

const deleteRoute = defineRoute({
  method: 'delete',
  path: '/appointments/{id}',
  access: STAFF_OR_GLOBAL,
  owner: 'appointments',
  tags: ['appointments'],
  summary: 'Remove an appointment (staff); the customer is told',
  request: { params: IdParam, headers: writeHeaders },
  responses: { 204: { description: 'Deleted' }, ...writeErrors },
});

async function update(c: Context<AppEnv>, id: number, body: UpdateAppointmentInput) {
  const dto = await changeAppointment(
    c.get('deps'),
    currentActor(c),
    id,
    body,
    c.req.header('if-match'),
    (trx, result, at) => recordIdempotentResponse(trx, c, { status: 200, body: result, headers: { ETag: etagOf(result.version) } }, at),
    auditContext(c),
  );
  return c.json(dto, 200, { ETag: etagOf(dto.version) });
}

// ---------------------------------------------------------------------------

const router = createRouter();
// Idempotency-Key covers every appointment write (POST, PUT, PATCH, DELETE); reads pass through.
// ('/appointments/*' also matches '/appointments' itself.) Each records its answer in its own
// transaction, so the key is written there, not claimed in a commit of its own first.
router.use('/appointments/*', idempotency({ recordedInTransaction: true }));

export const appointmentRoutes = router
  .openapi(createRoute, async (c) => {
    const deps = c.get('deps');
    const actor = c.get('actor');
    if (!actor && !(await consume(deps.db, 'public', c.get('clientIp'), deps.config.RATE_LIMIT_PUBLIC, 60_000, deps.now()))) {
      throw new AppError('rate_limited', RATE_LIMITED, { headers: { 'Retry-After': '60' } });
    }
    const dto = await bookAppointment(
      deps,
      actor,
      c.req.valid('json'),
      (trx, result, at) => recordIdempotentResponse(trx, c, { status: 201, body: result, headers: { ETag: etagOf(result.version) } }, at),
      auditContext(c),
    );
    return c.json(dto, 201, { ETag: etagOf(dto.version) });
  })
  .openapi(listRoute, async (c) => c.json(await listAppointments(c.get('deps').db, currentActor(c), c.req.valid('query')), 200))
  .openapi(getRoute, async (c) => {
    const dto = await getAppointment(c.get('deps').db, currentActor(c), c.req.valid('param').id);
    return c.json(dto, 200, { ETag: etagOf(dto.version) });
  })
  .openapi(updateRoute.put, async (c) => update(c, c.req.valid('param').id, c.req.valid('json')))
  .openapi(updateRoute.patch, async (c) => update(c, c.req.valid('param').id, c.req.valid('json')))
  .openapi(deleteRoute, async (c) => {
    await removeAppointment(
      c.get('deps'),
      currentActor(c),
      c.req.valid('param').id,
      c.req.header('if-match'),
      (trx, _, at) => recordIdempotentResponse(trx, c, { status: 204 }, at),
      auditContext(c),
    );
    return c.body(null, 204);
  });
