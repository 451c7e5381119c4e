// The appointment form's values and their rules, without React: what the form starts with (a new
// appointment or an existing one), which required fields are missing, and the request it sends.
import type { Appointment, AppointmentInput, AppointmentStatus } from '../../data/appointments.ts';
import { toWallTime, zonedTimeToUtc } from '../../lib/zoned-time.ts';
import { durationValueFor, preferredChoice, type DurationChoice } from './durations.ts';

export interface AppointmentModalInitial {
  /** Prefill the customer (Directory's Schedule Appointment). */
  customerId?: number;
  /** Prefill the start date, 'YYYY-MM-DD' in the company's zone (a clicked day). */
  date?: string;
  /** Prefill the start time, 'HH:MM' (a clicked slot in week or day view). */
  time?: string;
  /** Edit this appointment instead of creating one. */
  appointment?: Appointment;
}

export interface AppointmentFormValues {
  customerId: string;
  employeeId: string;
  /** 'YYYY-MM-DD', company-local. */
  date: string;
  /** 'HH:MM', company-local. */
  time: string;
  /** A DurationChoice id, or 'm:<minutes>' for an appointment whose length no option matches. */
  duration: string;
  description: string;
  serviceIds: number[];
  status: AppointmentStatus;
}

/** The fields that must be filled, in the order the first missing one gets the focus. */
export const REQUIRED_FIELDS = ['customerId', 'date', 'time', 'duration'] as const;
export type RequiredField = (typeof REQUIRED_FIELDS)[number];

export const FIELD_ERRORS: Record<RequiredField, string> = {
  customerId: 'Please select a customer.',
  date: 'Please enter a start date.',
  time: 'Please enter a start time.',
  duration: 'Please select a duration.',
};

export type FieldErrors = Partial<Record<RequiredField, string>>;

/** The form showing an existing appointment, at the company's wall time. */
export function valuesFromAppointment(a: Appointment, zone: string, choices: DurationChoice[]): AppointmentFormValues {
  const start = toWallTime(a.start_time, zone);
  return {
    customerId: a.user_id != null ? String(a.user_id) : '',
    employeeId: a.employee_id != null ? String(a.employee_id) : '',
    date: start.date,
    time: start.time,
    duration: durationValueFor(a, choices),
    description: a.description ?? '',
    serviceIds: (a.service_types ?? []).map((s) => s.id),
    status: a.status ?? 'booked',
  };
}

/**
 * What the form opens with: the appointment being edited, else a new one with the company's
 * preferred length and what the caller prefilled (a clicked date or time, a customer). The Create
 * Appointment button opens it empty (docs/product/02-screens.md): no date until one is chosen.
 */
export function initialValues(
  initial: AppointmentModalInitial | undefined,
  zone: string,
  choices: DurationChoice[],
  defaultMinutes: number | null,
): AppointmentFormValues {
  if (initial?.appointment) return valuesFromAppointment(initial.appointment, zone, choices);
  const preferred = preferredChoice(defaultMinutes, choices);
  return {
    customerId: initial?.customerId != null ? String(initial.customerId) : '',
    employeeId: '',
    date: initial?.date ?? '',
    time: initial?.time ?? '',
    duration: preferred ? String(preferred.id) : '',
    description: '',
    serviceIds: [],
    status: 'booked',
  };
}

/** The required fields left empty (or malformed); `minutes` is the chosen length, null when none. */
export function missingFields(values: AppointmentFormValues, minutes: number | null): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.customerId) errors.customerId = FIELD_ERRORS.customerId;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.date)) errors.date = FIELD_ERRORS.date;
  if (!/^\d{2}:\d{2}$/.test(values.time)) errors.time = FIELD_ERRORS.time;
  if (!minutes) errors.duration = FIELD_ERRORS.duration;
  return errors;
}

/** The request for valid values: the wall time turned into instants in the company's zone. */
export function appointmentInput(values: AppointmentFormValues, companyId: number, zone: string, minutes: number): AppointmentInput {
  const start = zonedTimeToUtc(values.date, values.time, zone);
  const end = new Date(start.getTime() + minutes * 60_000);
  return {
    company_id: companyId,
    user_id: Number(values.customerId),
    employee_id: values.employeeId ? Number(values.employeeId) : null,
    start_time: start.toISOString(),
    end_time: end.toISOString(),
    description: values.description.trim() || null,
    appointment_duration_option_id: values.duration.startsWith('m:') ? null : Number(values.duration),
    service_type_ids: values.serviceIds,
  };
}

/**
 * An edit's request: only the fields that differ from the appointment as the form showed it, so a
 * change someone else made meanwhile to another field survives this one (also when it is applied
 * again after a 412, and when it waits offline: docs/decisions/08-offline-pwa.md). Nothing changed
 * sends the status alone, which changes nothing.
 */
export function editRequest<T extends { status: string }>(now: T, before: Partial<Record<keyof T, unknown>>): Partial<T> {
  const changed = Object.fromEntries(
    Object.entries(now).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k as keyof T])),
  ) as Partial<T>;
  return Object.keys(changed).length ? changed : ({ status: now.status } as Partial<T>);
}

/** A new appointment's request leaves out an empty employee and length, as it always has. */
export function createRequest(input: AppointmentInput): AppointmentInput {
  const { employee_id, appointment_duration_option_id, ...rest } = input;
  return {
    ...rest,
    ...(employee_id !== null ? { employee_id } : {}),
    ...(appointment_duration_option_id !== null ? { appointment_duration_option_id } : {}),
  };
}
