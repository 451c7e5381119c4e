// Shared request-validation pieces: zod issues -> our 400 body, and the schemas every route reuses.
import { z } from '@hono/zod-openapi';
import type { ErrorDetail } from './errors.ts';

type Issue = { path: PropertyKey[]; message: string; code?: string };

function label(path: PropertyKey[]): string {
  return path.length ? path.map(String).join('.') : 'body';
}

/** Turns zod issues into readable details; missing fields say "x is required" instead of type jargon. */
export function issuesToDetails(issues: readonly Issue[]): ErrorDetail[] {
  return issues.map((i) => {
    const path = label(i.path);
    let message = i.message;
    if (/received undefined/.test(message)) message = `${path} is required`;
    else if (/^Invalid input: expected (\w+), received (\w+)/.test(message)) {
      const [, expected, received] = /^Invalid input: expected (\w+), received (\w+)/.exec(message)!;
      message = `${path} must be a ${expected} (got ${received})`;
    } else if (/^Unrecognized key/.test(message)) message = `${message} in ${path}`;
    return { path, message };
  });
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
