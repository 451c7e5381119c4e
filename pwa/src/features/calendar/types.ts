// What the calendar reads from the appointments API (DECISIONS.md sections 2 and 5).
import type { Appointment, ServiceType, User } from '../../lib/api-types.ts';

export type AppointmentStatus = 'booked' | 'cancelled';

export interface CalendarAppointment extends Appointment {
  status: AppointmentStatus;
  version: number;
  service_types: { id: number; name: string }[];
  appointment_duration_option_id?: number | null;
  customer_name?: string | null;
  customer_email?: string | null;
  customer_phone?: string | null;
  employee_name?: string | null;
}

/** A duration the company offers: the global option's id and its length. */
export interface DurationChoice {
  /** appointment_duration_option_id */
  id: number;
  minutes: number;
}

export type CompanyUser = User;
export type CompanyService = ServiceType;

/** If-Match value for an appointment version (the API sends ETag: "<version>"). */
export const ifMatch = (version: number) => `"${version}"`;
