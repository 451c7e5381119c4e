// What the Change password form says when the change fails (docs/product/08-errors.md, 'Change password').
import { GENERIC_TEXT, isApiError, serverMessage } from '../../lib/api-errors.ts';

export function changePasswordError(err: unknown): string {
  if (!isApiError(err)) return 'Failed to change password';
  if (err.status === null) return GENERIC_TEXT.noResponse;
  if (err.status === 400) return serverMessage(err) ?? 'Invalid password information';
  if (err.status === 401) return 'User not authenticated. Please log in again.';
  return 'Failed to change password. Please try again.';
}
