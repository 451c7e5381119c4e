// The offline benchmark's company (`npm run bench:offline`, issue 11's "Measured"): 10 staff, 200
// customers, 8 services, hours every day, and appointments laid out so no staff member is ever in
// two at once (the outbox's edits must not be refused for a clash the seed made up). Rows are
// inserted in bulk; sync_changes stays empty, since a first catch-up copies the appointments table
// itself (api/src/features/sync/sync.service.ts).
import crypto from 'node:crypto';
import { DateTime } from 'luxon';
import type { DatabaseHandle } from '@bookwell/db';
import { hashPassword, issueToken, loadJwtKey } from '../../api/src/lib/auth.ts';
import { createCompany } from '../../api/src/features/companies/company.repository.ts';

export const OFFLINE_TZ = 'America/New_York';
const STAFF = 10;
const CUSTOMERS = 200;
const SERVICES = 8;
/** Half-hour slots from 08:00 to 20:00: 24 a day for each staff member. */
const SLOTS = 24;

export interface OfflineWorld {
  companyId: number;
  adminId: number;
  adminEmail: string;
  token: string;
  /** 'YYYY-MM-DD', company-local: the date the calendar is opened on. */
  today: string;
  /** Appointments in the week FullCalendar shows for `today` (Sunday to Saturday). */
  weekCount: number;
  /** Appointments from 30 days back to 90 ahead (the window issue 11 asks the store to keep). */
  windowCount: number;
  /** Every appointment of the company (the window plus older history). */
  total: number;
}

export interface OfflineSeedOptions {
  /** Appointments in the window, [-30, +90) days around today. */
  window: number;
  /** Of those, how many fall in the viewed week. */
  week: number;
  /** Older appointments, in the 120 days before the window. */
  history: number;
}

/** Spreads `n` over `days` as evenly as whole numbers allow. */
function spread(days: DateTime[], n: number): [DateTime, number][] {
  const base = Math.floor(n / days.length);
  const extra = n % days.length;
  return days.map((d, i) => [d, base + (i < extra ? 1 : 0)]);
}

export async function seedOfflineCompany(h: DatabaseHandle, opts: OfflineSeedOptions, now: Date): Promise<OfflineWorld> {
  const company = await createCompany(
    h.db,
    {
      name: 'Offline Bench Clinic',
      email: 'offline@bench.test',
      timezone: OFFLINE_TZ,
      slug: `offline-${crypto.randomBytes(3).toString('hex')}`,
    },
    now,
  );
  await h.db
    .updateTable('companies')
    .set({ subscription_plan: 'enterprise', subscription_expires_at: null, enable_employee_booking: 1, time_increment_minutes: 15 })
    .where('id', '=', company.id)
    .execute();
  const iso = now.toISOString();
  const hash = await hashPassword('bench-password');
  const person = (name: string, email: string, role: 'admin' | 'employee' | 'customer') => ({
    company_id: company.id,
    name,
    email,
    phone: null,
    role,
    password_hash: role === 'customer' ? null : hash,
    token_version: 0,
    archived_at: null,
    created_at: iso,
    updated_at: iso,
  });
  const staff = await h.db
    .insertInto('users')
    .values(
      Array.from({ length: STAFF }, (_, i) => person(`Staff ${i}`, `staff${i}.${company.id}@bench.test`, i === 0 ? 'admin' : 'employee')),
    )
    .returning(['id', 'name'])
    .execute();
  const customers = await h.db
    .insertInto('users')
    .values(Array.from({ length: CUSTOMERS }, (_, i) => person(`Customer ${i}`, `customer${i}.${company.id}@bench.test`, 'customer')))
    .returning(['id', 'name'])
    .execute();
  const services = await h.db
    .insertInto('service_types')
    .values(
      Array.from({ length: SERVICES }, (_, i) => ({
        company_id: company.id,
        name: `Service ${i}`,
        duration_minutes: 30,
        price: 20 + i,
        hide_price: 0,
        available_slots: 5,
        archived_at: null,
        created_at: iso,
        updated_at: iso,
      })),
    )
    .returning('id')
    .execute();
  await h.db
    .insertInto('operating_hours')
    .values(
      Array.from({ length: 7 }, (_, i) => ({
        company_id: company.id,
        user_id: null,
        day_of_week: i + 1,
        is_closed: 0,
        open_time: '08:00:00',
        close_time: '20:00:00',
      })),
    )
    .execute();

  const today = DateTime.fromJSDate(now, { zone: OFFLINE_TZ }).startOf('day');
  // FullCalendar's week starts on Sunday (staff-calendar.tsx sets no firstDay).
  const sunday = today.minus({ days: today.weekday % 7 });
  const weekDays = Array.from({ length: 7 }, (_, i) => sunday.plus({ days: i }));
  const inWeek = (d: DateTime) => d >= sunday && d < sunday.plus({ days: 7 });
  const windowDays = Array.from({ length: 120 }, (_, i) => today.plus({ days: i - 30 })).filter((d) => !inWeek(d));
  const historyDays = Array.from({ length: 120 }, (_, i) => today.plus({ days: i - 150 })).filter((d) => !inWeek(d));
  const plan = [...spread(weekDays, opts.week), ...spread(windowDays, opts.window - opts.week), ...spread(historyDays, opts.history)];
  if (plan.some(([, n]) => n > STAFF * SLOTS)) throw new Error('More appointments a day than the staff can take');

  const rows: Record<string, unknown>[] = [];
  const serviceOf: number[] = [];
  let n = 0;
  for (const [day, count] of plan) {
    for (let k = 0; k < count; k++, n++) {
      // Staff k % STAFF takes its j-th appointment of the day at slot (7j + staff) mod 24: distinct
      // for j < 24 (7 and 24 are coprime), so never two at once, and spread over the whole day.
      const s = k % STAFF;
      const j = Math.floor(k / STAFF);
      const start = day.set({ hour: 8 }).plus({ minutes: ((7 * j + s) % SLOTS) * 30 });
      const customer = customers[n % CUSTOMERS];
      rows.push({
        company_id: company.id,
        user_id: customer.id,
        employee_id: staff[s].id,
        start_time: start.toUTC().toISO(),
        end_time: start.plus({ minutes: 30 }).toUTC().toISO(),
        description: `Seeded ${n}`,
        appointment_duration_option_id: null,
        status: 'booked',
        version: 1,
        customer_name: customer.name,
        customer_email: null,
        customer_phone: null,
        sms_consent: 0,
        created_by: staff[0].id,
        created_at: iso,
        updated_at: iso,
      });
      serviceOf.push(services[n % SERVICES].id);
    }
  }
  await h.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 400) {
      const ids = await trx
        .insertInto('appointments')
        .values(rows.slice(i, i + 400) as never)
        .returning('id')
        .execute();
      await trx
        .insertInto('appointment_service_types')
        .values(ids.map((r, k) => ({ appointment_id: r.id, service_type_id: serviceOf[i + k] })))
        .execute();
    }
  });

  const key = await loadJwtKey(h.db, process.env.JWT_SECRET);
  const admin = await h.db.selectFrom('users').selectAll().where('id', '=', staff[0].id).executeTakeFirstOrThrow();
  return {
    companyId: company.id,
    adminId: admin.id,
    adminEmail: admin.email,
    token: await issueToken(key, admin, now),
    today: today.toISODate()!,
    weekCount: opts.week,
    windowCount: opts.window,
    total: n,
  };
}
