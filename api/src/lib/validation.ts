// Shared request-validation pieces: zod issues -> our 400 body, and the schemas every route reuses.
import { z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { AppError, type ErrorDetail } from './errors.ts';

type Issue = { path: PropertyKey[]; message: string; code?: string };

function label(path: PropertyKey[]): string {
  return path.length ? path.map(String).join('.') : 'body';
}

/** Turns zod issues into readable details; missing fields say "x is required" instead of type jargon. */
export function issuesToDetails(issues: readonly Issue[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const i of issues) {
    const path = label(i.path);
    // One problem per field: the first is the one a form shows next to it.
    if (details.some((d) => d.path === path)) continue;
    let message = i.message;
    if (/received undefined/.test(message)) message = `${path} is required`;
    else if (/^Invalid input: expected (\w+), received (\w+)/.test(message)) {
      const [, expected, received] = /^Invalid input: expected (\w+), received (\w+)/.exec(message)!;
      message = `${path} must be ${/^[aeiou]/.test(expected!) ? 'an' : 'a'} ${expected} (got ${received})`;
    } else if (/^Unrecognized key/.test(message)) message = `${message} in ${path}`;
    // Messages shared by many fields ("must be a positive integer") name the field they are about.
    else if (/^(must|is|should|cannot) /.test(message)) message = `${path} ${message}`;
    details.push({ path, message });
  }
  return details;
}

/** The message shown for a failed validation: the first problem, which is what a form can show. */
export function validationMessage(details: ErrorDetail[]): string {
  return details[0]?.message ?? 'Validation failed';
}

/** Ids fit a 32-bit column. */
export const MAX_ID = 2_147_483_647;

// Ids are positive integers that fit a 32-bit column, written as plain digits ('1e3', '0x10' and
// ' 7' are not ids); anything else is a 400.
export const Id = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v),
  z
    .number({ message: 'must be a positive integer' })
    .int('must be a positive integer')
    .positive('must be a positive integer')
    .max(MAX_ID, 'is too large'),
);

/** An id inside a JSON body, named in its messages: a real integer, never a coerced string or boolean. */
export const bodyId = (field: string) =>
  z
    .number({ error: `${field} must be a positive integer` })
    .int(`${field} must be a positive integer`)
    .positive(`${field} must be a positive integer`)
    .max(MAX_ID, `${field} is too large`);

/** An id in a query string, named in its messages. */
export const queryId = (field: string) =>
  z.coerce
    .number({ message: `${field} must be a positive integer` })
    .int(`${field} must be a positive integer`)
    .positive(`${field} must be a positive integer`)
    .max(MAX_ID, `${field} is too large`);

export const IdParam = z.object({ id: Id.openapi({ param: { name: 'id', in: 'path' }, example: 1 }) });

export const Email = z.string().trim().toLowerCase().max(254, 'Email is too long').email('Invalid email address');
export const Password = z.string().min(6, 'Password must be at least 6 characters long').max(256, 'Password is too long');
export const PersonName = z.string().trim().min(1, 'Name is required').max(200, 'Name is too long');
export const Phone = z
  .string()
  .trim()
  .max(40, 'Phone is too long')
  .regex(/^[0-9+().\-\s]*$/, 'Phone may contain digits, spaces and + ( ) - . only');

export const ErrorSchema = z
  .object({
    error: z.string(),
    code: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('Error');

export const MessageSchema = z.object({ message: z.string() }).openapi('Message');

/** IANA time zone names the runtime knows. */
export const TimeZone = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'Unknown time zone');

// Text PostgreSQL cannot store (NUL) or that no database stores faithfully (lone UTF-16 surrogates,
// invalid UTF-8) is refused before any schema sees it, so both databases answer the same 400
// (docs/decisions/29-input-rate-limits-request-ids.md).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const UTF8_LOOSE = new TextDecoder('utf-8');

/** A request body as text, and whether its bytes were UTF-8 (if not, bad bytes read as U+FFFD). */
export interface RequestBody {
  text: string;
  wellFormed: boolean;
}
// Hono's cache holds promises (hono/dist/request.js, #cachedBody), whatever its declared type says.
type BodyCache = Record<string, Promise<unknown>>;
const bodies = new WeakMap<Request, Promise<RequestBody>>();

/**
 * The request body, read once as bytes and decoded once for every middleware that needs it (the
 * idempotency key's hash, the unsafe-text check), and left in Hono's cache as bytes and text so a
 * later `c.req.text()` takes it as is. Hono makes a body kept in one form into another through a
 * whole web Response: 6-8% of a booking's server CPU (docs/benchmarks.md, sessions 31 and 32).
 */
export function readBody(c: Context): Promise<RequestBody> {
  let body = bodies.get(c.req.raw);
  if (body === undefined) {
    body = c.req.arrayBuffer().then((buffer) => {
      const bytes = new Uint8Array(buffer);
      let read: RequestBody;
      try {
        read = { text: UTF8.decode(bytes), wellFormed: true };
      } catch {
        read = { text: UTF8_LOOSE.decode(bytes), wellFormed: false };
      }
      (c.req.bodyCache as BodyCache).text = Promise.resolve(read.text);
      return read;
    });
    bodies.set(c.req.raw, body);
  }
  return body;
}

/** Whether a string holds a NUL character or a lone surrogate. */
export function isUnsafeText(s: string): boolean {
  return s.includes('\0') || LONE_SURROGATE.test(s);
}

/** A path segment safe to show in a message (the bad characters themselves are not echoed). */
function shown(key: string): string {
  return key.replaceAll('\0', '\\0').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
}

/**
 * How deep a request body may nest: ours go four levels at most. Deeper ones (a few kilobytes of
 * `[[[[...` reach the stack's limit in any walk over them) are refused with a 400, not a 500.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * The path (as in validation details, `items.0.name`) of the first string in `value` that `bad`
 * flags, keys included. Throws the 400 for a value nested deeper than MAX_BODY_DEPTH.
 */
export function findText(value: unknown, bad: (s: string) => boolean, path: string[] = []): string | null {
  if (typeof value === 'string') return bad(value) ? label(path) : null;
  if (path.length >= MAX_BODY_DEPTH && value !== null && typeof value === 'object') {
    const message = `body must not nest deeper than ${MAX_BODY_DEPTH} levels`;
    throw new AppError('validation', message, { details: [{ path: 'body', message }] });
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findText(value[i], bad, [...path, String(i)]);
      if (found !== null) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (bad(k)) return label([...path, shown(k)]);
      const found = findText(v, bad, [...path, k]);
      if (found !== null) return found;
    }
  }
  return null;
}

export function unsafeInput(path: string): AppError {
  const message = `${path} must not contain NUL characters or invalid Unicode`;
  return new AppError('validation', message, { details: [{ path, message }] });
}

/** `decodeURIComponent` that answers null instead of throwing on bytes that are not UTF-8. */
function decodeComponent(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

function checkQuery(url: string): void {
  const q = url.indexOf('?');
  if (q < 0) return;
  const end = url.indexOf('#', q);
  for (const pair of url.slice(q + 1, end < 0 ? undefined : end).split('&')) {
    const eq = pair.indexOf('=');
    const rawKey = (eq < 0 ? pair : pair.slice(0, eq)).replaceAll('+', ' ');
    const key = decodeComponent(rawKey);
    if (key === null || isUnsafeText(key)) throw unsafeInput('query');
    if (eq < 0) continue;
    const value = decodeComponent(pair.slice(eq + 1).replaceAll('+', ' '));
    if (value === null || isUnsafeText(value)) throw unsafeInput(key);
  }
}

/**
 * Route middleware (every defineRoute route): path parameters, query string and JSON body hold no
 * NUL, no lone surrogate and no invalid UTF-8, else a 400 naming the field. A URL without '%'
 * cannot hold any of them, so the booking page's GETs pay one `includes`.
 */
export function rejectUnsafeText(): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    if (url.includes('%')) {
      for (const [name, value] of Object.entries(c.req.param() as Record<string, string>)) {
        // Hono leaves a parameter whose escapes are not UTF-8 undecoded.
        if (isUnsafeText(value) || (/%[0-9A-Fa-f]{2}/.test(value) && decodeComponent(value) === null)) throw unsafeInput(name);
      }
      checkQuery(url);
    }
    const type = c.req.header('content-type');
    if (type !== undefined && /json/i.test(type) && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const { text, wellFormed } = await readBody(c);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Malformed JSON is the body validator's 400; bytes that are not UTF-8 are ours.
        if (!wellFormed) throw unsafeInput('body');
        return next();
      }
      // Bytes that are not UTF-8 decode as U+FFFD: the field holding one is the one to name.
      const found = !wellFormed ? (findText(parsed, (s) => s.includes('\uFFFD')) ?? 'body') : findText(parsed, isUnsafeText);
      if (found !== null) throw unsafeInput(found);
      // Handed on as parsed, so the body validator's json() does not parse it again.
      (c.req.bodyCache as BodyCache).json = Promise.resolve(parsed);
    }
    await next();
  };
}
