// Test fixtures for booking suites: a company that takes bookings (zone, hours, one service), built
// through the real endpoints where they exist.
import { expect } from 'vitest';
import { companyWithPeople, type TestCompany } from './company-people.ts';
import { uniqueEmail, type TestServer } from './harness.ts';

export interface BookableCompany extends TestCompany {
  serviceId: number;
  timezone: string;
}

export interface BookableOptions {
  name?: string;
  timezone?: string;
  incrementMinutes?: number;
  employeeBooking?: boolean;
  capacity?: number;
  durationMinutes?: number;
  open?: string;
  close?: string;
  email?: string | null;
}

export async function addService(
  t: TestServer,
  token: string,
  body: { name: string; duration_minutes: number; available_slots?: number; company_id?: number },
): Promise<number> {
  const res = await t.call('POST', '/service-types', { token, body });
  expect(res.status, res.text).toBe(201);
  return res.body.service_type.id as number;
}

export async function setHours(
  t: TestServer,
  token: string,
  body: { day_of_week: number; open_time?: string | null; close_time?: string | null; is_closed?: boolean; user_id?: number },
) {
  const res = await t.call('POST', '/operating-hours', { token, body });
  expect([200, 201], res.text).toContain(res.status);
}

/** A registered company with people of every role, open every day, with one service. */
export async function bookableCompany(t: TestServer, o: BookableOptions = {}): Promise<BookableCompany> {
  const co = await companyWithPeople(t, o.name ?? 'Booking Salon');
  const timezone = o.timezone ?? 'Europe/London';
  // Settings are columns of the company row; set them directly so these suites do not depend on the settings endpoint.
  await t.db
    .updateTable('companies')
    .set({
      timezone,
      time_increment_minutes: o.incrementMinutes ?? 30,
      enable_employee_booking: o.employeeBooking ? 1 : 0,
      email: o.email === undefined ? uniqueEmail('desk') : o.email,
    })
    .where('id', '=', co.companyId)
    .execute();
  const serviceId = await addService(t, co.admin.token, {
    name: 'Haircut',
    duration_minutes: o.durationMinutes ?? 30,
    available_slots: o.capacity ?? 1,
  });
  for (let day = 1; day <= 7; day++) {
    await setHours(t, co.admin.token, { day_of_week: day, open_time: o.open ?? '09:00', close_time: o.close ?? '17:00' });
  }
  return { ...co, serviceId, timezone };
}

export function customerContact(name = 'Pat Booker') {
  return { name, email: uniqueEmail('booker'), phone: '+442079460000' }; // E.164, as the server stores it
}

export async function countRows(
  t: TestServer,
  table: 'appointments' | 'users' | 'sync_changes' | 'outbox_messages' | 'idempotency_keys',
): Promise<number> {
  const r = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Booked appointments that overlap another booked one of the same service beyond its capacity: must always be none. */
export async function doubleBookings(t: TestServer, serviceId: number, capacity: number): Promise<number> {
  const rows = await t.db
    .selectFrom('appointments as a')
    .innerJoin('appointment_service_types as ast', 'ast.appointment_id', 'a.id')
    .select(['a.id', 'a.start_time', 'a.end_time'])
    .where('ast.service_type_id', '=', serviceId)
    .where('a.status', '=', 'booked')
    .execute();
  let over = 0;
  for (const a of rows) {
    const overlapping = rows.filter((b) => b.start_time < a.end_time && b.end_time > a.start_time).length;
    if (overlapping > capacity) over++;
  }
  return over;
}
