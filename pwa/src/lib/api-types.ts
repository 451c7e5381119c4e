// Shapes of the API's JSON as the PWA reads them (SPEC.md section 3, DECISIONS.md sections 2-3).
// Types of routes already chained into the API's AppType are derived from it; the others are
// written by hand until their route group lands in api/src/routes.ts, then derived the same way.
import type { InferResponseType } from 'hono/client';
import type { client } from './rpc.ts';

export type Role = 'global_admin' | 'admin' | 'manager' | 'employee' | 'user' | 'customer';

export const STAFF_ROLES: readonly Role[] = ['admin', 'manager', 'employee', 'user'];
export const COMPANY_ROLES: readonly Role[] = [...STAFF_ROLES, 'customer'];

/** The signed-in user, as GET /me answers it. */
export type User = InferResponseType<typeof client.me.$get, 200>;

/** What anyone may read about a company (by id, slug, or the public list). */
export interface PublicCompany {
  id: number;
  name: string;
  slug: string;
  logo_url: string | null;
  enable_employee_booking: boolean;
  timezone: string;
  accepting_bookings: boolean;
}

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
export interface Employee {
  id: number;
  name: string;
}

export interface AvailableSlot {
  /** 'HH:MM' in the company's time zone. */
  value: string;
  label: string;
  /** ISO instant of the slot start, when the server sends it. */
  start?: string;
}

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
