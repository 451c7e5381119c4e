// Test fixtures for the offline store: a fresh database and appointment rows.
import { LocalDb, type ServerAppointment } from './local-db.ts';

let dbCount = 0;

/** A new, empty database (a second LocalDb with the same name is a second tab). */
export async function freshDb(name = `test-${++dbCount}-${Math.random()}`): Promise<LocalDb> {
  const db = new LocalDb(name);
  await db.open();
  return db;
}

export function appointmentRow(start: string, overrides: Partial<ServerAppointment> = {}): Omit<ServerAppointment, 'id' | 'version'> {
  return {
    company_id: 1,
    user_id: 7,
    employee_id: 3,
    start_time: start,
    end_time: start.replace(/T(\d\d)/, (_, h: string) => `T${String(Number(h) + 1).padStart(2, '0')}`),
    description: null,
    appointment_duration_option_id: null,
    status: 'booked',
    service_types: [],
    customer_name: 'Ada',
    employee_name: 'Bea',
    sms_consent: false,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

export function serverAppointment(id: number, start: string, version = 1, overrides: Partial<ServerAppointment> = {}): ServerAppointment {
  return { ...appointmentRow(start, overrides), id, version };
}
