// What the sign-in and sign-up forms say when their call fails (docs/product/08-errors.md).
import { GENERIC_TEXT, isApiError, serverMessage } from '../../lib/api-errors.ts';

/**
 * The call's catalogue: a refusal (4xx: email taken, rate limited) in the server's words, or the
 * page's `fallback` when it gave none; a failure of the server (5xx, any other status) is the call's
 * `otherwise` text ('Failed to login. Please try again later.'), never "check your credentials":
 * that would send the user hunting for a typo that isn't there. No answer at all keeps the generic
 * 'Cannot connect...' text, which tells the user more.
 */
export function failureText(err: unknown, texts: { otherwise: string; fallback: string }): string {
  if (isApiError(err) && err.status === null) return GENERIC_TEXT.noResponse;
  if (isApiError(err) && err.status !== null && err.status >= 400 && err.status < 500) return serverMessage(err) ?? texts.fallback;
  if (isApiError(err)) return texts.otherwise;
  return serverMessage(err) ?? texts.fallback;
}
