// How every route is declared: zod schemas that both validate requests and generate /api/openapi.json,
// plus the route's access rule, enforced by the authorisation layer and listed in the document.
import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { AppEnv } from './context.ts';
import { requireAccess, type Access, type OwnedTable } from './authorize.ts';
import { AppError } from './errors.ts';
import { ErrorSchema, issuesToDetails, rejectUnsafeText, validationMessage } from './validation.ts';

type Issues = Parameters<typeof issuesToDetails>[0];

/** Our 400 body for a request that failed its schema. */
function validationFailure(issues: Issues): AppError {
  const details = issuesToDetails(issues);
  return new AppError('validation', validationMessage(details), { details });
}

/** A route group. Validation failures become our 400 body. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationFailure(result.error.issues);
    },
  });
}

const errorContent = { 'application/json': { schema: ErrorSchema } };
const STANDARD_ERRORS = {
  400: { description: 'Invalid input', content: errorContent },
  401: { description: 'Missing or invalid token', content: errorContent },
  403: { description: 'Not allowed', content: errorContent },
  404: { description: "Not found (also another company's resource)", content: errorContent },
  429: {
    description: 'Rate limited',
    content: errorContent,
    headers: { 'Retry-After': { description: 'Seconds until a request would be admitted again', schema: { type: 'integer' } } },
  },
} as const;

export function accessLabel(access: Access): string {
  return typeof access === 'string' ? access : access.join(',');
}

/**
 * createRoute plus `access`: the route's middleware checks it, and the document lists it as
 * `x-access` (the permission-matrix test reads it to know every route's rule).
 */
export function defineRoute<const R extends RouteConfig>(
  config: R & { access: Access; unauthenticatedMessage?: string; owner?: OwnedTable },
): R {
  const { access, unauthenticatedMessage, owner, ...rest } = config;
  // A caller whose role may not use the route is told so (403) only when its path ids are well formed:
  // an id that is not a positive integer answers 400 to everyone signed in (docs/decisions/02-api-conventions.md).
  const params = rest.request?.params as { safeParse(v: unknown): { success: boolean; error?: { issues: Issues } } } | undefined;
  const checkParams = params
    ? (pathParams: Record<string, string>) => {
        const r = params.safeParse(pathParams);
        if (!r.success) throw validationFailure(r.error!.issues);
      }
    : undefined;
  return createRoute({
    ...rest,
    responses: { ...STANDARD_ERRORS, ...rest.responses },
    // Access first (an anonymous caller gets 401 whatever it sent), then text no database stores.
    middleware: [requireAccess(access, unauthenticatedMessage, checkParams, owner), rejectUnsafeText()],
    security: access === 'public' ? [] : [{ bearerAuth: [] }],
    'x-access': accessLabel(access),
  } as unknown as R);
}

export function jsonBody<T>(schema: T, description = 'JSON body') {
  return { content: { 'application/json': { schema } }, required: true, description };
}

export function jsonResponse<T>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

/**
 * An update route declared once and served as PUT and as PATCH (its documented alias): both take the
 * same partial body, so clients that send either keep working.
 */
export function definePutAndPatch<const R extends Omit<RouteConfig, 'method'>>(
  config: R & { access: Access; owner?: OwnedTable },
  patchSummary = 'Alias of PUT',
): { put: R & { method: 'put' }; patch: R & { method: 'patch' } } {
  return {
    put: defineRoute({ ...config, method: 'put' as const }),
    patch: defineRoute({ ...config, method: 'patch' as const, summary: patchSummary }) as R & { method: 'patch' },
  };
}

/** A documented error answer beyond the standard ones (409 and the like), in the shape every error has. */
export function errorResponse(description: string) {
  return { description, content: errorContent };
}
