// The one place an appointment row becomes what the API shows; contact details only for the company's staff.
import type { AppointmentDto } from './appointment.schema.ts';
import type { AppointmentView } from './appointment.repository.ts';

export function toAppointmentDto(v: AppointmentView, opts: { staff: boolean }): AppointmentDto {
  const dto: AppointmentDto = {
    id: v.id,
    company_id: v.company_id,
    user_id: v.user_id,
    employee_id: v.employee_id,
    start_time: v.start_time,
    end_time: v.end_time,
    description: v.description,
    appointment_duration_option_id: v.appointment_duration_option_id,
    status: v.status,
    version: v.version,
    service_types: v.service_types,
    // Staff see the customer's record first, what the booker typed when there is none (or it lost its
    // name). Anyone else sees what was typed first: a booking under someone's email must not tell the
    // booker the name that company has on record for it.
    customer_name: opts.staff ? (v.customer_user_name ?? v.customer_name) : (v.customer_name ?? v.customer_user_name),
    employee_name: v.employee_name,
    sms_consent: v.sms_consent === 1,
    created_at: v.created_at,
    updated_at: v.updated_at,
  };
  if (opts.staff) {
    dto.customer_email = v.customer_user_email ?? v.customer_email;
    dto.customer_phone = v.customer_user_phone ?? v.customer_phone;
    dto.booking_contact =
      v.customer_name || v.customer_email || v.customer_phone
        ? { name: v.customer_name, email: v.customer_email, phone: v.customer_phone }
        : null;
  }
  return dto;
}

/** `ETag: "<version>"`: what If-Match compares with. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/**
 * The versions an If-Match header accepts: null for `*` (any current version), otherwise the listed
 * tags; W/"7" counts as "7" because compressing proxies weaken tags (docs/decisions/05-scheduling-rules.md).
 * Undefined when the header is not a list of entity tags.
 */
export function parseIfMatch(header: string): number[] | null | undefined {
  const value = header.trim();
  if (value === '*') return null;
  const versions: number[] = [];
  for (const part of value.split(',')) {
    const m = /^(?:W\/)?"?(\d{1,10})"?$/i.exec(part.trim());
    if (!m) return undefined;
    versions.push(Number(m[1]));
  }
  return versions.length ? versions : undefined;
}
