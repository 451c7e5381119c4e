// The benchmark's company: 50 staff, 20 services, opening hours and N appointments at a steady
// density (about 100,000 a year), inserted in bulk. Used by `npm run bench` and profiling scripts.
import crypto from 'node:crypto';
import { DateTime } from 'luxon';
import { sql, type Kysely } from 'kysely';
import type { Database, DatabaseHandle } from '@bookwell/db';
import { hashPassword, issueToken, loadJwtKey } from '../../api/src/lib/auth.ts';
import { createCompany } from '../../api/src/features/companies/company.repository.ts';

export const TZ = 'America/New_York';
export const STAFF = 50;
export const SERVICES = 20;
const PER_DAY = 274;

export interface World {
  companyId: number;
  serviceIds: number[];
  contentionServiceId: number;
  throughputServiceId: number;
  staffIds: number[];
  customerId: number;
  token: string;
  appointments: number;
}

async function bulkInsert<T extends Record<string, unknown>>(
  db: Kysely<Database>,
  table: 'appointments' | 'appointment_service_types',
  rows: T[],
  returning: boolean,
): Promise<number[]> {
  const ids: number[] = [];
  const chunk = table === 'appointments' ? 400 : 2000;
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk);
    if (returning) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one bulk insert for every seeded table
      const out = await (db.insertInto(table as 'appointments').values(part as never) as any).returning('id').execute();
      for (const r of out) ids.push(r.id);
    } else {
      await db
        .insertInto(table as 'appointment_service_types')
        .values(part as never)
        .execute();
    }
  }
  return ids;
}

/**
 * The availability questions the benchmarks ask of the seeded company, each call the next one:
 * available-slots over the next 28 days and the 30-day available-dates, of the services from the
 * third on, every third one for a chosen employee. One counter serves both, as scripts/bench.ts
 * has always asked them.
 */
export function benchQuestions(world: World, now: Date) {
  const today = DateTime.fromJSDate(now, { zone: TZ }).startOf('day');
  const dates = Array.from({ length: 28 }, (_, i) => today.plus({ days: i + 1 }).toISODate()!);
  let i = 0;
  const employee = () => (i % 3 === 0 ? `&employee_id=${world.staffIds[i % STAFF]}` : '');
  return {
    slots: () => {
      i++;
      const service = world.serviceIds[2 + (i % (SERVICES - 2))];
      return `/api/appointments/available-slots?company_id=${world.companyId}&service_type_id=${service}&date=${dates[i % dates.length]}${employee()}`;
    },
    dates: () => {
      i++;
      return `/api/appointments/available-dates?company_id=${world.companyId}&service_type_id=${world.serviceIds[2 + (i % (SERVICES - 2))]}${employee()}`;
    },
  };
}
/**
 * The scheduling rules of issue 13's Measured (docs/decisions/27-scheduling-rules.md), when asked for:
 * every staff member works 08:00-12:00 and 13:00-20:00 (a lunch break), 10 company holidays and 20
 * personal days off inside the window, buffers on half the services, and every service assigned
 * (the two booking-load services to everyone, each other service to half the staff).
 */
async function seedRules(h: DatabaseHandle, companyId: number, staffIds: number[], serviceIds: number[], now: Date) {
  const hours: Record<string, unknown>[] = [];
  for (const userId of staffIds)
    for (let day = 1; day <= 7; day++)
      for (const [open_time, close_time] of [
        ['08:00:00', '12:00:00'],
        ['13:00:00', '20:00:00'],
      ])
        hours.push({ company_id: companyId, user_id: userId, day_of_week: day, is_closed: 0, open_time, close_time });
  for (let i = 0; i < hours.length; i += 500)
    await h.db
      .insertInto('operating_hours')
      .values(hours.slice(i, i + 500) as never)
      .execute();
  const today = DateTime.fromJSDate(now, { zone: TZ }).startOf('day');
  const overrides: Record<string, unknown>[] = [];
  // Holidays every third day from day 2 (the benchmark's busiest dates stay open some days).
  for (let i = 0; i < 10; i++)
    overrides.push({
      company_id: companyId,
      user_id: null,
      date: today.plus({ days: 2 + i * 3 }).toISODate(),
      is_closed: 1,
      intervals: null,
      note: 'Holiday',
    });
  for (let i = 0; i < 20; i++)
    overrides.push({
      company_id: companyId,
      user_id: staffIds[(i * 7) % staffIds.length],
      date: today.plus({ days: 1 + i }).toISODate(),
      is_closed: 1,
      intervals: null,
      note: 'Day off',
    });
  await h.db
    .insertInto('date_overrides')
    .values(overrides as never)
    .execute();
  for (let i = 0; i < serviceIds.length; i += 2)
    await h.db
      .updateTable('service_types')
      .set({ buffer_before_minutes: 5, buffer_after_minutes: 10 })
      .where('id', '=', serviceIds[i])
      .execute();
  const links: { service_type_id: number; user_id: number }[] = [];
  serviceIds.forEach((serviceTypeId, i) => {
    const who = i < 2 ? staffIds : staffIds.filter((_, k) => (k + i) % 2 === 0);
    for (const userId of who) links.push({ service_type_id: serviceTypeId, user_id: userId });
  });
  for (let i = 0; i < links.length; i += 500)
    await h.db
      .insertInto('service_employees')
      .values(links.slice(i, i + 500))
      .execute();
}

export async function seedBenchCompany(h: DatabaseHandle, appointments: number, now: Date, opts: { rules?: boolean } = {}): Promise<World> {
  const company = await createCompany(
    h.db,
    { name: 'Bench Clinic', email: 'bench@bench.test', timezone: TZ, slug: `bench-${crypto.randomBytes(3).toString('hex')}` },
    now,
  );
  await h.db
    .updateTable('companies')
    .set({ subscription_plan: 'enterprise', subscription_expires_at: null, enable_employee_booking: 1, time_increment_minutes: 15 })
    .where('id', '=', company.id)
    .execute();
  const iso = now.toISOString();
  const hash = await hashPassword('bench-password');
  const staffIds: number[] = [];
  for (let i = 0; i < STAFF; i++) {
    const r = await h.db
      .insertInto('users')
      .values({
        company_id: company.id,
        name: `Staff ${i}`,
        email: `staff${i}.${company.id}@bench.test`,
        phone: null,
        role: i === 0 ? 'admin' : 'employee',
        password_hash: hash,
        token_version: 0,
        archived_at: null,
        created_at: iso,
        updated_at: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    staffIds.push(r.id);
  }
  const customer = await h.db
    .insertInto('users')
    .values({
      company_id: company.id,
      name: 'Bench Customer',
      email: `customer.${company.id}@bench.test`,
      phone: '+1 555 0100',
      role: 'customer',
      password_hash: null,
      token_version: 0,
      archived_at: null,
      created_at: iso,
      updated_at: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const serviceIds: number[] = [];
  for (let i = 0; i < SERVICES; i++) {
    const r = await h.db
      .insertInto('service_types')
      .values({
        company_id: company.id,
        name: `Service ${i}`,
        duration_minutes: [15, 30, 45, 60][i % 4],
        price: 10 + i,
        hide_price: 0,
        available_slots: i === 0 ? 3 : i === 1 ? 100_000 : 1 + (i % 3),
        archived_at: null,
        created_at: iso,
        updated_at: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    serviceIds.push(r.id);
  }
  for (let day = 1; day <= 7; day++) {
    await h.db
      .insertInto('operating_hours')
      .values({ company_id: company.id, user_id: null, day_of_week: day, is_closed: 0, open_time: '08:00:00', close_time: '20:00:00' })
      .execute();
  }
  if (opts.rules) await seedRules(h, company.id, staffIds, serviceIds, now);
  // Appointments: PER_DAY a day up to 32 days ahead, so the 30 days the benchmark asks about hold the
  // same bookings whatever the table size; the size only sets how far back into the past they go
  // (10,000 reach 5 weeks back, 1,000,000 ten years), which is what --scaling compares.
  const days = Math.ceil(appointments / PER_DAY);
  const last = DateTime.fromJSDate(now, { zone: TZ }).startOf('day').plus({ days: 32 });
  const rows: Record<string, unknown>[] = [];
  const links: { serviceIdx: number }[] = [];
  let n = 0;
  for (let d = days - 1; d >= 0 && n < appointments; d--) {
    const day = last.minus({ days: d });
    for (let k = 0; k < PER_DAY && n < appointments; k++, n++) {
      const staff = k % STAFF;
      const slot = Math.floor(k / STAFF); // one after another per staff member: no overlaps
      const start = day.set({ hour: 8 }).plus({ minutes: slot * 60 + (staff % 4) * 15 });
      const svc = 2 + (k % (SERVICES - 2));
      rows.push({
        company_id: company.id,
        user_id: customer.id,
        employee_id: staffIds[staff],
        start_time: start.toUTC().toISO(),
        end_time: start.plus({ minutes: 30 }).toUTC().toISO(),
        description: null,
        appointment_duration_option_id: null,
        status: 'booked',
        version: 1,
        customer_name: 'Bench Customer',
        customer_email: null,
        customer_phone: null,
        sms_consent: 0,
        created_by: staffIds[0],
        created_at: iso,
        updated_at: iso,
      });
      links.push({ serviceIdx: svc });
    }
    if (rows.length >= 20_000 || d === 0 || n >= appointments) {
      const batch = rows.splice(0);
      const l = links.splice(0);
      await h.db.transaction().execute(async (trx) => {
        const ids = await bulkInsert(trx, 'appointments', batch, true);
        await bulkInsert(
          trx,
          'appointment_service_types',
          ids.map((id, i) => ({ appointment_id: id, service_type_id: serviceIds[l[i].serviceIdx] })),
          false,
        );
      });
    }
  }
  if (h.dialect === 'postgres') await sql`analyze`.execute(h.db);
  const key = await loadJwtKey(h.db, process.env.JWT_SECRET);
  const admin = await h.db.selectFrom('users').selectAll().where('id', '=', staffIds[0]).executeTakeFirstOrThrow();
  return {
    companyId: company.id,
    serviceIds,
    contentionServiceId: serviceIds[0],
    throughputServiceId: serviceIds[1],
    staffIds,
    customerId: customer.id,
    token: await issueToken(key, admin, now),
    appointments: n,
  };
}
