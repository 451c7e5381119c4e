// Whether an error means the database could not be reached (rather than that a statement was wrong):
// the API answers those 503 with Retry-After instead of a 500, as /api/ready does
// (docs/decisions/32-privacy-and-operations.md, "Readiness and graceful shutdown").

/** Socket errors of a connection that could not be made or was cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * PostgreSQL's SQLSTATEs for a server that is not taking work: class 08 (connection exception),
 * 57P01-57P03 (shut down by an administrator, crashed, cannot connect now) and 53300 (too many
 * connections).
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/** node-postgres's own errors for a connection lost or never made, which carry no code. */
const PG_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error/,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code)))) return true;
  // pg-pool wraps a failed connect in AggregateError for several addresses (localhost: ::1 and 127.0.0.1).
  if (err instanceof AggregateError) return err.errors.some(isDatabaseUnavailable);
  return PG_CONNECTION_MESSAGES.some((re) => re.test(err.message));
}
