// Request ids (docs/decisions/29-input-rate-limits-request-ids.md): every response carries
// X-Request-Id, and every log line written while the request runs carries the same id (the request's
// logger, app.ts).
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { isComplete } from './complete-answer.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';

const VALID = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's id when it is safe to echo and log (at most 128 of [A-Za-z0-9._-]); otherwise a new one. */
export function requestIdFrom(incoming: string | undefined): string {
  return incoming !== undefined && VALID.test(incoming) ? incoming : randomUUID();
}

/**
 * First middleware of the app: sets `requestId` on the context and the header on the answer,
 * whatever produced it (route, 404, error handler, static file, 429), once it is made: an answer
 * made complete (complete-answer.ts) has it already.
 */
export function requestId(): MiddlewareHandler<{ Variables: { requestId: string } }> {
  return async (c, next) => {
    const id = requestIdFrom(c.req.header(REQUEST_ID_HEADER));
    c.set('requestId', id);
    await next();
    if (!isComplete(c.res)) {
      try {
        c.res.headers.set(REQUEST_ID_HEADER, id);
      } catch {
        // Immutable headers (a Response passed through as-is): copy it.
        c.res = new Response(c.res.body, c.res);
        c.res.headers.set(REQUEST_ID_HEADER, id);
      }
    }
  };
}
