// Rows written straight to the database by tests that go around the API (another process's write,
// an old import, many companies at once): every column filled, with the values a plain row has, so
// a test names only what it is about.
import type { Insertable } from 'kysely';
import type { AppointmentTable, NewCompany, ServiceTypeTable, UserTable } from '@bookwell/db';

export function companyRow(o: Pick<NewCompany, 'name' | 'slug' | 'updated_at'> & Partial<NewCompany>): NewCompany {
  return {
    email: null,
    logo_url: null,
    timezone: 'UTC',
    enable_employee_booking: 0,
    time_increment_minutes: 30,
    listed_publicly: 0,
    hide_customer_names_in_feeds: 0,
    subscription_plan: null,
    subscription_expires_at: null,
    stripe_customer_id: null,
    stripe_subscription_id: null,
    ...o,
  };
}

/** A booked appointment with no customer record, employee, services or link: add what the test needs. */
export function appointmentRow(
  o: Pick<Insertable<AppointmentTable>, 'company_id' | 'start_time' | 'end_time' | 'updated_at'> & Partial<Insertable<AppointmentTable>>,
): Insertable<AppointmentTable> {
  return {
    user_id: null,
    employee_id: null,
    description: null,
    appointment_duration_option_id: null,
    status: 'booked',
    version: 1,
    customer_name: null,
    customer_email: null,
    customer_phone: null,
    sms_consent: 0,
    created_by: null,
    ...o,
  };
}

/** A current person of a company (staff by default) with no password, as a seed or an import writes one. */
export function userRow(
  o: Pick<Insertable<UserTable>, 'company_id' | 'name' | 'email' | 'updated_at'> & Partial<Insertable<UserTable>>,
): Insertable<UserTable> {
  return {
    phone: null,
    role: 'employee',
    password_hash: null,
    token_version: 0,
    archived_at: null,
    created_at: o.updated_at,
    ...o,
  };
}

/** A current service with capacity 1, no price and no buffers. */
export function serviceTypeRow(
  o: Pick<Insertable<ServiceTypeTable>, 'company_id' | 'name' | 'duration_minutes' | 'updated_at'> & Partial<Insertable<ServiceTypeTable>>,
): Insertable<ServiceTypeTable> {
  return {
    price: null,
    hide_price: 0,
    available_slots: 1,
    archived_at: null,
    created_at: o.updated_at,
    ...o,
  };
}
