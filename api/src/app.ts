// createApp(deps): the whole HTTP API as a Hono app that never listens (tests call it directly or via a real server).
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import type { AppDeps, AppEnv } from './lib/context.ts';
import { actorFromToken, bearerToken } from './lib/auth.ts';
import { clientIp } from './lib/client-ip.ts';
import { compression } from './lib/compression.ts';
import { securityHeaders } from './lib/security-headers.ts';
import { requestId } from './lib/request-id.ts';
import { AppError, errorResponse, handleError } from './lib/errors.ts';
import { MemoRouter } from './lib/memo-router.ts';
import { buildApiRoutes, type ApiRoutes } from './routes.ts';
import { docsRoutes } from './features/docs/docs.routes.ts';
import { APP_VERSION } from './version.ts';

/** The typed API contract the PWA's `hc<AppType>` client is built from (paths relative to /api). */
export type AppType = ApiRoutes;

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Paths that carry a secret are logged without it: calendar feed tokens and self-service tokens,
 * each a credential for as long as it is valid (docs/decisions/23-self-service.md).
 */
function loggablePath(path: string): string {
  return path.replace(/^\/api\/calendar\/[^/]+?(\.ics)?$/, '/api/calendar/***$1').replace(/^\/api\/manage\/[^/]+/, '/api/manage/***');
}

async function drainBody(req: Request, max: number): Promise<void> {
  if (!req.body || req.bodyUsed) return;
  try {
    const reader = req.body.getReader();
    let read = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > max) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    /* the client went away: nothing to answer */
  }
}

/** The whole body if it is at most `max` bytes; null (after reading on up to `drainMax`) if larger. */
async function readLimited(req: Request, max: number, drainMax: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size <= max) chunks.push(value);
      else if (size > drainMax) {
        await reader.cancel();
        break;
      }
    }
  }
  return size > max ? null : Buffer.concat(chunks);
}

/** HTTP/1.1 framing: a request has a body only with a non-zero Content-Length or a Transfer-Encoding. */
function hasBody(c: Context<AppEnv>): boolean {
  const length = c.req.header('content-length');
  return c.req.header('transfer-encoding') !== undefined || (length !== undefined && length.trim() !== '0');
}

export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>({ router: new MemoRouter() });
  const api = buildApiRoutes();

  // First: every answer below, errors and static files included, carries the request id.
  app.use('*', requestId());
  app.use('*', async (c, next) => {
    // The request's own logger, carrying its id, reaches every service through `deps`
    // (docs/decisions/29-input-rate-limits-request-ids.md). An AsyncLocalStorage did this before;
    // on Node 20 its hook on every promise cost about 7% of a booking's CPU.
    const requestDeps: AppDeps = { ...deps, log: deps.log.child({ requestId: c.get('requestId') }) };
    c.set('deps', requestDeps);
    c.set('actor', null);
    c.set('clientIp', clientIp(c, deps.config.TRUST_PROXY));
    const started = performance.now();
    await next();
    if (c.req.path.startsWith('/api/')) {
      const ms = performance.now() - started;
      const status = c.res.status;
      // By route template (`/api/users/:id`), never the raw path: ids would make a series per record.
      const route = c.req.routePath;
      deps.metrics.observeRequest(c.req.method, route, status, ms / 1000);
      if (status === 201 && route === '/api/appointments' && c.req.method === 'POST' && !c.res.headers.has('idempotent-replayed')) {
        deps.metrics.bookingMade();
      }
      requestDeps.log.info('request', {
        method: c.req.method,
        path: loggablePath(c.req.path),
        status,
        ms: Math.round(ms * 10) / 10,
      });
    }
    // While shutting down, each answer closes its connection, so kept-alive clients reconnect
    // elsewhere (docs/decisions/32-privacy-and-operations.md).
    if (deps.lifecycle.state === 'stopping') c.header('Connection', 'close');
  });
  app.use('*', compression());
  // nosniff on every answer, the CSP on HTML, HSTS on https (docs/decisions/30-csp-and-small-public-pages.md).
  app.use('*', securityHeaders({ appUrl: deps.config.APP_URL, apiUrls: [deps.config.PUBLIC_API_URL, deps.config.PUBLIC_DIRECT_API_URL] }));
  if (deps.config.corsOrigins.length) {
    app.use(
      '/api/*',
      cors({
        origin: deps.config.corsOrigins,
        allowHeaders: ['Authorization', 'Content-Type', 'If-Match', 'Idempotency-Key'],
        allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        // What the web app reads from answers: versions, request ids, when to retry, replays, downloads.
        exposeHeaders: ['ETag', 'X-Request-Id', 'Retry-After', 'Idempotent-Replayed', 'Content-Disposition'],
        maxAge: 600,
      }),
    );
  }
  const tooLarge = async (c: Context<AppEnv>) => {
    // Read (and drop) a moderately oversized body first, so the client gets the 413 instead of
    // a reset connection while it is still sending.
    await drainBody(c.req.raw, 16 * BODY_LIMIT_BYTES);
    return errorResponse(c, new AppError('payload_too_large', 'Request body is too large (limit 1 MB)'));
  };
  // With Content-Length the size is known before reading, and the JSON is then read straight from
  // Node's request (touching c.req.raw.body would build a web Request and a web stream over the
  // socket). A chunked body is counted as it arrives; an oversized one is read on (up to 16 MB) and
  // dropped, so the client gets the 413 rather than a connection closed under its upload.
  app.use('/api/*', async (c, next) => {
    if (!hasBody(c)) return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number(length) > BODY_LIMIT_BYTES ? tooLarge(c) : next();
    }
    const body = await readLimited(c.req.raw, BODY_LIMIT_BYTES, 16 * BODY_LIMIT_BYTES);
    if (body === null) return errorResponse(c, new AppError('payload_too_large', 'Request body is too large (limit 1 MB)'));
    c.req.raw = new Request(c.req.raw, { body });
    return next();
  });
  // Who is calling: read on every request from the database. A bad token makes protected routes
  // answer 401 (via the authorisation layer) and is ignored by public ones.
  app.use('/api/*', async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    if (token) c.set('actor', await actorFromToken(deps.db, deps.jwtKey, token, deps.now()));
    await next();
    // An answer given without reading the body (401, 403, 404 before validation) would leave the
    // body's bytes on a kept-alive connection, which then breaks under the client's next request.
    // A request without a body is left alone: touching c.req.raw builds a full Request object, a
    // tenth of the cost of a GET on the booking page's hot path.
    if (hasBody(c) && !c.req.raw.bodyUsed) {
      await drainBody(c.req.raw, BODY_LIMIT_BYTES);
    }
  });

  app.route('/api', api);
  app.route(
    '/api',
    docsRoutes(() => openApiDocument(api)),
  );
  app.all('/api/*', (c) => c.json({ error: `No API route for ${c.req.method} ${c.req.path}`, code: 'not_found' }, 404));
  app.onError((err, c) => handleError(err, c, (msg) => (c.get('deps') ?? deps).log.error(msg)));
  return app;
}

export function openApiDocument(api: ApiRoutes) {
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  return api.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Bookwell API',
      version: APP_VERSION,
      description:
        'Appointment booking for small businesses. Errors are {error, code, details?}. Appointment writes accept Idempotency-Key and If-Match.',
    },
    servers: [{ url: '/api' }],
  });
}
