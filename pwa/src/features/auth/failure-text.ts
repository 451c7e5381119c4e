// What the sign-in and sign-up forms say when their call fails.
import { GENERIC_TEXT, errorMessage, isApiError, serverMessage } from '../../lib/api-errors.ts';

/**
 * The server's own words for a refusal (wrong password, email taken, rate limited), the page's
 * fallback otherwise; but never "check your credentials" when the server could not be reached
 * or failed (no response, 5xx): that would send the user hunting for a typo that isn't there.
 */
export function failureText(err: unknown, fallback: string): string {
  if (isApiError(err) && err.status === null) return GENERIC_TEXT.noResponse;
  if (isApiError(err) && err.status !== null && err.status >= 500) return errorMessage(err);
  return serverMessage(err) ?? fallback;
}
