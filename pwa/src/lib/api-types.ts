// The signed-in person's shape and the role lists, which the session (auth.tsx), the route guards
// and the shared components need below the data layer. Every other API type is inferred from the
// API's AppType in the data module of its resource (src/data/<resource>.ts).
import type { InferResponseType } from 'hono/client';
import type { client } from './rpc.ts';

/** The signed-in user, as GET /me answers it (the same shape as any person, GET /users/{id}). */
export type User = InferResponseType<typeof client.me.$get, 200>;

export type Role = User['role'];

/** Every role that works for a company (docs/decisions/03-tenancy-and-roles.md); customers book. */
export const STAFF_ROLES: readonly Role[] = ['admin', 'manager', 'employee', 'user'];
export const COMPANY_ROLES: readonly Role[] = [...STAFF_ROLES, 'customer'];
