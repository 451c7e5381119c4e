// Answers made complete: with every header the app's middlewares would add to them (the request id,
// the security headers) already in, so those middlewares leave them alone and their headers stay the
// plain object they were made with, which the Node adapter writes as it is. A header added to (or
// read from) a finished answer turns its headers into a web Headers object, every name and value
// validated, lower-cased and sorted one by one: on the cached availability answers, the hottest the
// server gives, that was about a sixth of its throughput (docs/decisions/25-compression.md).
import type { Context } from 'hono';

const complete = new WeakSet<Response>();

/** Whether `res` was made by completeAnswer (the middlewares' headers are in it already). */
export function isComplete(res: Response): boolean {
  return complete.has(res);
}

/**
 * A 200 answer of `body` with `headers` (a fresh object, completed in place), the security headers
 * and the request id, made complete; or, where those middlewares did not run (a bare router), the
 * same answer through Hono. A header set with c.header() before it is not carried over: a route that
 * sets one answers with c.body instead.
 */
export function completeAnswer(c: Context, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>): Response {
  // Set by securityHeaders() and requestId() (security-headers.ts, request-id.ts) before the route runs.
  const security: Readonly<Record<string, string>> | undefined = c.get('securityHeaders');
  const id: string | undefined = c.get('requestId');
  if (security === undefined || id === undefined) return c.body(body, 200, headers);
  Object.assign(headers, security);
  headers['X-Request-Id'] = id;
  const res = new Response(body, { status: 200, headers });
  complete.add(res);
  return res;
}
