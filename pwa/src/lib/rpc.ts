// The typed API client: hc<AppType> from the API's own route types (types only; no API code
// reaches the bundle), sending every request through apiFetch (proxy/direct, timeout, token, 401).
//
//   const res = await client.login.$post({ json: { email, password } });
//   const { token } = await unwrap<typeof res>(res)   // or: await rpc(client.login.$post({ json }))
import { hc, type ClientResponse, type InferResponseType } from 'hono/client';
import type { AppType } from '@bookwell/api/app';
import { RPC_PLACEHOLDER_BASE, apiFetch, unwrap } from './api-client.ts';

export const client = hc<AppType>(`${RPC_PLACEHOLDER_BASE}/`, { fetch: apiFetch });

/** The success body of a typed call; failures throw ApiError (see api-errors.ts). */
export type SuccessBody<R> = R extends ClientResponse<infer T, infer S, 'json'> ? (S extends 200 | 201 | 202 ? T : never) : never;

/** Awaits a typed call and returns its JSON body, or throws ApiError with the server's error. */
export async function rpc<R extends ClientResponse<unknown, number, string>>(call: Promise<R>): Promise<SuccessBody<R>> {
  return unwrap<SuccessBody<R>>((await call) as unknown as Response);
}

export type { InferResponseType };
