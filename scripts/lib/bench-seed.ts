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

export async function seedBenchCompany(h: DatabaseHandle, appointments: number, now: Date): Promise<World> {
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
