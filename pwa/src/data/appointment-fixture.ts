// A complete appointment as the API returns it, for unit tests to vary one field at a time.
import type { Appointment } from './appointments.ts';

export function appointmentFixture(over: Partial<Appointment> = {}): Appointment {
  return {
    id: 1,
    company_id: 1,
    user_id: 7,
    employee_id: null,
    start_time: '2026-03-02T15:00:00Z',
    end_time: '2026-03-02T15:30:00Z',
    description: null,
    appointment_duration_option_id: null,
    status: 'booked',
    version: 1,
    service_types: [],
    customer_name: null,
    employee_name: null,
    sms_consent: false,
    created_at: '2026-03-01T12:00:00Z',
    updated_at: '2026-03-01T12:00:00Z',
    ...over,
  };
}
