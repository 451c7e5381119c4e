// Sign-in, registration, password reset and password change (docs/product/07-api.md,
// docs/decisions/02-api-conventions.md and 04-customers-and-anonymous-booking.md). The session itself (token, current user) lives in lib/auth.tsx.
import { useMutation } from '@tanstack/react-query';
import type { InferRequestType } from 'hono/client';
import { client, rpc } from '../lib/rpc.ts';
import { useAuth } from '../lib/auth.tsx';

export type LoginInput = InferRequestType<typeof client.login.$post>['json'];
export type RegisterInput = InferRequestType<typeof client.register.$post>['json'];
export type ChangePasswordInput = InferRequestType<(typeof client.me)['change-password']['$post']>['json'];

export function login(json: LoginInput) {
  return rpc(client.login.$post({ json }));
}

/**
 * POST /register. An owner (and a new customer) gets `{token}`; a customer whose email the
 * company already knows gets 202 `{message}`: a set-password email was sent instead.
 */
export async function register(json: RegisterInput): Promise<{ token?: string; message?: string }> {
  return rpc(client.register.$post({ json }));
}

export function requestPasswordReset(json: InferRequestType<(typeof client)['password-reset']['request']['$post']>['json']) {
  return rpc(client['password-reset'].request.$post({ json }));
}

export function validateResetToken(token: string, signal?: AbortSignal) {
  return rpc(client['password-reset'].validate.$get({ query: { token } }, { init: { signal } }));
}

export function confirmPasswordReset(json: InferRequestType<(typeof client)['password-reset']['confirm']['$post']>['json']) {
  return rpc(client['password-reset'].confirm.$post({ json }));
}

/** POST /me/change-password: answers {message, token}; changing a password invalidates older tokens (docs/decisions/02-api-conventions.md). */
export function changePassword(json: ChangePasswordInput) {
  return rpc(client.me['change-password'].$post({ json }));
}

/** The fresh token keeps the user signed in after the change. */
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
