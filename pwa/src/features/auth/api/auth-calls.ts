// Sign-in, registration and password-reset calls (SPEC.md section 7, DECISIONS.md sections 2 and 4),
// typed from the API's routes.
import type { InferRequestType } from 'hono/client';
import { client, rpc } from '../../../lib/rpc.ts';
import type { PublicCompany } from '../../../lib/api-types.ts';

export function login(json: InferRequestType<typeof client.login.$post>['json']) {
  return rpc(client.login.$post({ json }));
}

export type RegisterInput = InferRequestType<typeof client.register.$post>['json'];

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

export function getCompanyBySlug(slug: string, signal?: AbortSignal): Promise<PublicCompany> {
  return rpc(client.companies.slug[':slug'].$get({ param: { slug } }, { init: { signal } }));
}
