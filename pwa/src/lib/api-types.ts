// Shapes of the API's JSON as the PWA reads them (SPEC.md section 3, DECISIONS.md sections 2-3).
// Derived from the API's AppType wherever a route declares them, so a change on the server
// shows up here as a type error.
import type { InferResponseType } from 'hono/client';
import type { client } from './rpc.ts';

export type Role = 'global_admin' | 'admin' | 'manager' | 'employee' | 'user' | 'customer';

export const STAFF_ROLES: readonly Role[] = ['admin', 'manager', 'employee', 'user'];
export const COMPANY_ROLES: readonly Role[] = [...STAFF_ROLES, 'customer'];

/** The signed-in user, as GET /me answers it. */
export type User = InferResponseType<typeof client.me.$get, 200>;

/** What anyone may read about a company (by id, slug, or the public list); members get more. */
export type CompanyView = InferResponseType<(typeof client.companies)[':id']['$get'], 200>;

/** The public fields every company view carries. */
export type PublicCompany = Pick<
  CompanyView,
  'id' | 'name' | 'slug' | 'logo_url' | 'enable_employee_booking' | 'timezone' | 'accepting_bookings'
>;

/**
 * A service as lists show it. Written by hand (the API's type adds archived_at and a required
 * available_slots) so screens can build stand-ins for archived services; kept assignable from
 * the API's own type by the booking fetchers.
 */
export interface ServiceType {
  id: number;
  name: string;
  company_id: number;
  duration_minutes: number;
  price: number | null;
  hide_price: boolean;
  available_slots?: number | null;
}

/** Public staff listing entry: id and name. */
export type Employee = InferResponseType<typeof client.employees.$get, 200>[number];

/** A free start time: `value` 'HH:MM' in the company's zone, `label` for people, `start`/`end` ISO instants. */
export type AvailableSlot = InferResponseType<(typeof client.appointments)['available-slots']['$get'], 200>['slots'][number];

export interface Appointment {
  id: number;
  company_id: number;
  user_id: number | null;
  employee_id: number | null;
  start_time: string;
  end_time: string;
  description: string | null;
  status?: 'booked' | 'cancelled';
  version?: number;
  service_types?: { id: number; name: string }[];
}

export type TokenResponse = InferResponseType<typeof client.login.$post, 200>;

export interface MessageResponse {
  message: string;
}
