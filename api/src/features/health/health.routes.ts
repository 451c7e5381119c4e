// Liveness and database reachability, for the PWA's connection checks and for load balancers.
import { z } from '@hono/zod-openapi';
import { createRouter, defineRoute, jsonResponse } from '../../lib/openapi.ts';
import { APP_VERSION } from '../../version.ts';
import { databaseReachable } from './health.service.ts';

const HealthSchema = z.object({ status: z.enum(['ok', 'error']), db: z.enum(['ok', 'error']), version: z.string() }).openapi('Health');

const health = defineRoute({
  method: 'get',
  path: '/health',
  access: 'public',
  tags: ['health'],
  summary: 'Server and database health',
  responses: { 200: jsonResponse(HealthSchema, 'Healthy'), 503: jsonResponse(HealthSchema, 'Database unreachable') },
});

export const healthRoutes = createRouter().openapi(health, async (c) => {
  c.header('Cache-Control', 'no-store');
  if (await databaseReachable(c.get('deps').db)) {
    return c.json({ status: 'ok' as const, db: 'ok' as const, version: APP_VERSION }, 200);
  }
  return c.json({ status: 'error' as const, db: 'error' as const, version: APP_VERSION }, 503);
});
