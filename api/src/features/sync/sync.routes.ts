// The offline calendar's change feed endpoint (docs/decisions/08-offline-pwa.md); its cursors are explained in sync.service.ts.
import { currentActor, STAFF_OR_GLOBAL } from '../../lib/authorize.ts';
import { createRouter, defineRoute, jsonResponse } from '../../lib/openapi.ts';
import { SyncQuery, SyncResponse } from './sync.schema.ts';
import { appointmentChanges } from './sync.service.ts';

const feed = defineRoute({
  method: 'get',
  path: '/sync/appointments',
  access: STAFF_OR_GLOBAL,
  tags: ['sync'],
  summary: "Appointment changes of the caller's company after a cursor (without one: every appointment, then changes)",
  request: { query: SyncQuery },
  responses: { 200: jsonResponse(SyncResponse, 'Changes in order, the cursor to send next time, and whether more are waiting') },
});

export const syncRoutes = createRouter().openapi(feed, async (c) =>
  c.json(await appointmentChanges(c.get('deps').db, currentActor(c), c.req.valid('query')), 200),
);
