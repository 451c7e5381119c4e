// The one error type of the API and the root handler that turns any failure into {error, code, details?}.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isDatabaseUnavailable } from '@bookwell/db';

export type ErrorCode =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'slot_taken'
  | 'version_mismatch'
  | 'idempotency_mismatch'
  | 'idempotency_in_progress'
  | 'rate_limited'
  | 'plan_limit'
  | 'payload_too_large'
  | 'not_accepting_bookings'
  | 'not_configured'
  | 'too_late'
  | 'unavailable'
  | 'internal';

export interface ErrorDetail {
  path: string;
  message: string;
}

const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  slot_taken: 409,
  version_mismatch: 412,
  idempotency_mismatch: 422,
  idempotency_in_progress: 409,
  rate_limited: 429,
  plan_limit: 403,
  payload_too_large: 413,
  not_accepting_bookings: 403,
  not_configured: 503,
  too_late: 403,
  unavailable: 503,
  internal: 500,
};

/**
 * `message` is safe to show to the caller; `internal` (optional) is for logs only.
 * `extra` fields are merged into the response body (for example `current` on 412).
 */
export class AppError extends Error {
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: {
      status?: ContentfulStatusCode;
      details?: ErrorDetail[];
      extra?: Record<string, unknown>;
      internal?: string;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.status = options.status ?? STATUS[code];
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) => new AppError('validation', message, { details });
export const notFound = (what = 'Not found') => new AppError('not_found', what);
export const forbidden = (message = 'You do not have permission to perform this action') => new AppError('forbidden', message);
export const unauthenticated = (message = 'Authentication required') => new AppError('unauthenticated', message);

export function errorBody(err: AppError) {
  return {
    error: err.message,
    code: err.code,
    ...(err.options.details?.length ? { details: err.options.details } : {}),
    ...(err.options.extra ?? {}),
  };
}

export function errorResponse(c: Context, err: AppError) {
  for (const [k, v] of Object.entries(err.options.headers ?? {})) c.header(k, v);
  return c.json(errorBody(err), err.status);
}

/** Root onError: known errors keep their status; anything else is a logged 500 without internals. */
export function handleError(err: Error, c: Context, log: (msg: string, extra?: unknown) => void) {
  if (err instanceof AppError) {
    if (err.options.internal) log(`${err.code}: ${err.options.internal}`);
    return errorResponse(c, err);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    if (status === 413) return errorResponse(c, new AppError('payload_too_large', 'Request body is too large (limit 1 MB)'));
    if (status === 400) {
      const message = /json/i.test(err.message) ? 'Malformed JSON in request body' : err.message || 'Invalid request';
      return errorResponse(c, badRequest(message));
    }
    // A body that is not sent as JSON is bad input like malformed JSON: 400, one of the statuses the
    // API answers (docs/decisions/02-api-conventions.md), not the validator's 415.
    if (status === 415) return errorResponse(c, badRequest('Send the request body as JSON (Content-Type: application/json)'));
    if (status === 401) return errorResponse(c, unauthenticated(err.message || 'Authentication required'));
    return c.json(
      { error: err.message || 'Request failed', code: status >= 500 ? 'internal' : 'validation' },
      status as ContentfulStatusCode,
    );
  }
  // Malformed bodies that slipped past the validator surface as SyntaxError.
  if (err instanceof SyntaxError) return errorResponse(c, badRequest('Malformed JSON in request body'));
  // The database could not be reached: a 503 to retry shortly (as /api/ready says), not a 500.
  if (isDatabaseUnavailable(err)) {
    log(`database unavailable on ${c.req.method} ${c.req.path}: ${err.message}`);
    return errorResponse(
      c,
      new AppError('unavailable', 'The service is temporarily unavailable. Please try again shortly.', {
        headers: { 'Retry-After': '5' },
      }),
    );
  }
  log(`unhandled error on ${c.req.method} ${c.req.path}: ${err.stack ?? err.message}`);
  return c.json({ error: 'An internal server error occurred', code: 'internal' }, 500);
}
