// POST /me/change-password: answers {message, token}; the fresh token keeps the user signed in
// (changing a password invalidates older tokens, DECISIONS.md section 2).
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { isApiError, serverMessage, GENERIC_TEXT } from '../../../lib/api-errors.ts';
import { useAuth } from '../../../lib/auth.tsx';

export interface ChangePasswordInput {
  current_password: string;
  new_password: string;
}

export interface ChangePasswordResult {
  message: string;
  token?: string;
}

export function changePassword(input: ChangePasswordInput): Promise<ChangePasswordResult> {
  return api.post<ChangePasswordResult>('/me/change-password', input);
}

/** SPEC.md section 8, 'Change password'. */
export function changePasswordError(err: unknown): string {
  if (!isApiError(err)) return 'Failed to change password';
  if (err.status === null) return GENERIC_TEXT.noResponse;
  if (err.status === 400) return serverMessage(err) ?? 'Invalid password information';
  if (err.status === 401) return 'User not authenticated. Please log in again.';
  return 'Failed to change password. Please try again.';
}

export function useChangePassword() {
  const { replaceToken } = useAuth();
  return useMutation({
    mutationFn: changePassword,
    meta: { errorBanner: false },
    onSuccess: (res) => {
      if (res.token) replaceToken(res.token);
    },
  });
}
