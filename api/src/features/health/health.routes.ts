// Liveness (/health), readiness (/ready) and Prometheus metrics (/metrics), for the PWA's connection
// checks, load balancers and monitoring (docs/decisions/32-privacy-and-operations.md).
import { z } from '@hono/zod-openapi';
import { createRouter, defineRoute, jsonResponse } from '../../lib/openapi.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { APP_VERSION } from '../../version.ts';
import { databaseReachable, metricsAuthorised, readiness } from './health.service.ts';

const HealthSchema = z.object({ status: z.enum(['ok', 'error']), db: z.enum(['ok', 'error']), version: z.string() }).openapi('Health');

const ReadySchema = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    reason: z.enum(['starting', 'stopping', 'database', 'migrations']).optional(),
  })
  .openapi('Readiness');

const health = defineRoute({
  method: 'get',
  path: '/health',
  access: 'public',
  tags: ['health'],
  summary: 'Liveness: the server answers, and whether its database does',
  responses: { 200: jsonResponse(HealthSchema, 'Healthy'), 503: jsonResponse(HealthSchema, 'Database unreachable') },
});

const ready = defineRoute({
  method: 'get',
  path: '/ready',
  access: 'public',
  tags: ['health'],
  summary: 'Readiness: 200 when the database answers and its migrations are current; 503 while starting or shutting down',
  responses: { 200: jsonResponse(ReadySchema, 'Send traffic here'), 503: jsonResponse(ReadySchema, 'Do not send traffic here now') },
});

const metrics = defineRoute({
  method: 'get',
  path: '/metrics',
  access: 'public',
  tags: ['health'],
  summary: 'Prometheus metrics; needs Authorization: Bearer <METRICS_TOKEN> (404 when METRICS_TOKEN is not set)',
  responses: { 200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: z.string() } } } },
});

export const healthRoutes = createRouter()
  .openapi(health, async (c) => {
    c.header('Cache-Control', 'no-store');
    if (await databaseReachable(c.get('deps').db)) {
      return c.json({ status: 'ok' as const, db: 'ok' as const, version: APP_VERSION }, 200);
    }
    return c.json({ status: 'error' as const, db: 'error' as const, version: APP_VERSION }, 503);
  })
  .openapi(ready, async (c) => {
    c.header('Cache-Control', 'no-store');
    const r = await readiness(c.get('deps'));
    if (r.ready) return c.json({ status: 'ready' as const }, 200);
    return c.json({ status: 'unavailable' as const, reason: r.reason }, 503);
  })
  .openapi(metrics, async (c) => {
    const deps = c.get('deps');
    // Unset: the endpoint does not exist (docs/decisions/12-operations-security-privacy.md), so it reveals nothing to scanners.
    if (!deps.config.METRICS_TOKEN) throw notFound(`No API route for GET ${c.req.path}`);
    if (!metricsAuthorised(deps.config.METRICS_TOKEN, c.req.header('authorization'))) {
      throw new AppError('unauthenticated', 'Authentication required: Authorization: Bearer <METRICS_TOKEN>', {
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      });
    }
    const text = await deps.metrics.render();
    return c.text(text, 200, { 'Content-Type': deps.metrics.contentType, 'Cache-Control': 'no-store' });
  });
