// API failures as one error type, and the texts users see for them (docs/product/08-errors.md).

/** One field problem reported by the server's validation. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** The server's error body: `{"error": "...", "code": "...", "details"?: [...]}`. */
export interface ErrorBody {
  error?: string;
  code?: string;
  message?: string;
  details?: ErrorDetail[];
  [key: string]: unknown;
}

export type ApiErrorKind = 'http' | 'network' | 'timeout';

export class ApiError extends Error {
  /** HTTP status, or null when no response arrived (network error or timeout). */
  readonly status: number | null;
  readonly kind: ApiErrorKind;
  /** Machine code from the server (`slot_taken`, `validation`, ...). */
  readonly code: string | undefined;
  readonly body: ErrorBody | undefined;

  constructor(kind: ApiErrorKind, status: number | null, body?: ErrorBody, cause?: unknown) {
    super(body?.error ?? body?.message ?? (status ? `Request failed with status ${status}` : 'No response'), {
      cause,
    });
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.body = body;
    this.code = typeof body?.code === 'string' ? body.code : undefined;
  }

  /** True when the request never got an answer: offline, DNS, refused, timed out. */
  get isNetworkError(): boolean {
    return this.kind !== 'http';
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

export const GENERIC_TEXT = {
  400: 'Invalid request. Please check your input and try again.',
  401: 'You are not authorized to perform this action.',
  403: 'You do not have permission to perform this action.',
  404: 'The requested resource was not found.',
  500: 'An internal server error occurred. Please try again later.',
  noResponse: 'Cannot connect to the server. Please check your network connection.',
  unexpected: 'An unexpected error occurred. Please try again.',
  noApi: 'Cannot connect to the API. Please check your network or configuration.',
} as const;

/** What the server said, if anything: details joined behind the error prefix, else error, else message. */
export function serverMessage(err: unknown): string | null {
  if (!isApiError(err) || !err.body) return null;
  const { error, message, details } = err.body;
  if (Array.isArray(details) && details.length > 0) {
    const parts = details.map((d) => d?.message).filter((m): m is string => typeof m === 'string' && m.length > 0);
    // The server's error is the first detail's message when there is one detail (api/src/lib/validation.ts):
    // "X: X" would say it twice.
    if (parts.length === 1 && parts[0] === error) return error;
    if (parts.length > 0) return `${error || 'Validation failed'}: ${parts.join(', ')}`;
  }
  if (typeof error === 'string' && error) return error;
  if (typeof message === 'string' && message) return message;
  return null;
}

/**
 * A 400 about one field, as a form shows it beside that field: the field's path (`customer.phone`)
 * and the server's message without the path it starts with (a refusal names its field for API
 * callers, docs/decisions/10-reminders-and-sms.md), so "customer.phone is not a possible phone
 * number: ..." reads "Not a possible phone number: ..." under the Phone Number field.
 */
export function fieldProblem(err: unknown): { path: string; message: string } | null {
  if (!isApiError(err) || err.status !== 400) return null;
  const detail = err.body?.details?.[0];
  if (typeof detail?.path !== 'string' || typeof detail.message !== 'string' || !detail.path) return null;
  const rest = detail.message.startsWith(`${detail.path} `)
    ? detail.message.slice(detail.path.length + 1).replace(/^is /, '')
    : detail.message;
  return { path: detail.path, message: rest.charAt(0).toUpperCase() + rest.slice(1) };
}

/** The generic text for a status (docs/product/08-errors.md), ignoring what the server said. */
export function statusText(err: unknown): string {
  if (!isApiError(err)) return GENERIC_TEXT.unexpected;
  if (err.status === null) return GENERIC_TEXT.noResponse;
  switch (err.status) {
    case 400:
    case 401:
    case 403:
    case 404:
    case 500:
      return GENERIC_TEXT[err.status];
    default:
      return `Request failed with status ${err.status}`;
  }
}

/** The message to show for any failure: the server's words when it gave some, else the generic text. */
export function errorMessage(err: unknown): string {
  return serverMessage(err) ?? statusText(err);
}

/**
 * A call-specific catalogue: texts by status, a fallback for every other HTTP failure, and the
 * server's message preferred where `preferServer` (default true). Network failures keep the
 * generic 'Cannot connect...' text, which tells the user more than a call fallback would.
 */
export function messageFor(
  err: unknown,
  catalogue: { byStatus?: Partial<Record<number, string>>; fallback: string; preferServer?: boolean },
): string {
  if (isApiError(err) && err.status === null) return GENERIC_TEXT.noResponse;
  if (catalogue.preferServer !== false) {
    const fromServer = serverMessage(err);
    if (fromServer) return fromServer;
  }
  if (isApiError(err) && err.status !== null) {
    const byStatus = catalogue.byStatus?.[err.status];
    if (byStatus) return byStatus;
  }
  return catalogue.fallback;
}
