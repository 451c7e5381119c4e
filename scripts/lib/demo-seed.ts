// The demo company (slug `demo`): services (one group class), opening and per-person hours, 5 staff,
// 30 customers and a month of appointments around today. Deterministic, and skipped when present.
import { DateTime } from 'luxon';
import type { Kysely } from 'kysely';
import type { Database, Role } from '@bookwell/db';
import { hashPassword } from '../../api/src/lib/auth.ts';
import { createCompany } from '../../api/src/features/companies/company.repository.ts';
import { insertUser } from '../../api/src/features/users/user.repository.ts';

export const DEMO_PASSWORD = 'demo1234';
export const DEMO_TIMEZONE = 'America/New_York';

export interface DemoLogin {
  role: Role;
  email: string;
  password: string;
}

const STAFF: { name: string; email: string; role: Role }[] = [
  { name: 'Olivia Owner', email: 'owner@demo.test', role: 'admin' },
  { name: 'Marco Manager', email: 'manager@demo.test', role: 'manager' },
  { name: 'Emma Stylist', email: 'emma@demo.test', role: 'employee' },
  { name: 'Noah Barber', email: 'noah@demo.test', role: 'employee' },
  { name: 'Ava Coach', email: 'ava@demo.test', role: 'employee' },
];

const SERVICES = [
  { name: 'Haircut', duration_minutes: 30, price: 35, hide_price: 0, available_slots: 3 },
  { name: 'Colour & Style', duration_minutes: 90, price: 120, hide_price: 0, available_slots: 3 },
  { name: 'Beard Trim', duration_minutes: 15, price: 15, hide_price: 0, available_slots: 3 },
  { name: 'Consultation', duration_minutes: 30, price: null, hide_price: 1, available_slots: 3 },
  { name: 'Yoga Group Class', duration_minutes: 60, price: 20, hide_price: 0, available_slots: 8 },
];

const FIRST = [
  'Liam',
  'Sophia',
  'Lucas',
  'Mia',
  'Ethan',
  'Isabella',
  'James',
  'Amelia',
  'Benjamin',
  'Harper',
  'Elijah',
  'Evelyn',
  'Henry',
  'Abigail',
  'Jack',
  'Emily',
  'Owen',
  'Ella',
  'Leo',
  'Grace',
  'Daniel',
  'Chloe',
  'Samuel',
  'Zoe',
  'David',
  'Nora',
  'Joseph',
  'Lily',
  'Carter',
  'Hannah',
];
const LAST = ['Smith', 'Johnson', 'Brown', 'Garcia', 'Miller', 'Davis', 'Martinez', 'Lopez', 'Wilson', 'Anderson'];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function seedDemo(db: Kysely<Database>, now = new Date()): Promise<{ created: boolean; logins: DemoLogin[] }> {
  const logins: DemoLogin[] = [
    { role: 'global_admin', email: 'admin@demo.test', password: DEMO_PASSWORD },
    ...STAFF.map((s) => ({ role: s.role, email: s.email, password: DEMO_PASSWORD })),
    { role: 'customer', email: 'customer@demo.test', password: DEMO_PASSWORD },
  ];
  if (await db.selectFrom('companies').select('id').where('slug', '=', 'demo').executeTakeFirst()) return { created: false, logins };

  const hash = await hashPassword(DEMO_PASSWORD);
  const iso = now.toISOString();
  await db.transaction().execute(async (trx) => {
    const company = await createCompany(trx, { name: 'Demo Studio', email: 'hello@demo.test', timezone: DEMO_TIMEZONE, slug: 'demo' }, now);
    await trx
      .updateTable('companies')
      .set({
        enable_employee_booking: 1,
        listed_publicly: 1,
        subscription_plan: 'standard',
        subscription_expires_at: new Date(now.getTime() + 365 * 86_400_000).toISOString(),
        logo_url: null,
      })
      .where('id', '=', company.id)
      .execute();

    const user = (name: string, email: string, role: Role, withPassword: boolean, phone: string | null = null) =>
      insertUser(
        trx,
        {
          company_id: role === 'global_admin' ? null : company.id,
          name,
          email,
          phone,
          role,
          password_hash: withPassword ? hash : null,
        },
        now,
      );
    const exists = await trx.selectFrom('users').select('id').where('email', '=', 'admin@demo.test').executeTakeFirst();
    if (!exists) await user('Demo Administrator', 'admin@demo.test', 'global_admin', true);
    const staff = [];
    for (const s of STAFF) staff.push(await user(s.name, s.email, s.role, true, '+121255501' + (10 + staff.length)));
    const customers = [await user('Casey Customer', 'customer@demo.test', 'customer', true, '+12125550199')];
    for (let i = 0; i < 29; i++) {
      const name = `${FIRST[i]} ${LAST[i % LAST.length]}`;
      customers.push(
        await user(
          name,
          `${FIRST[i].toLowerCase()}.${LAST[i % LAST.length].toLowerCase()}@example.com`,
          'customer',
          false,
          `+1917555${String(1000 + i)}`,
        ),
      );
    }
    const services = [];
    for (const s of SERVICES) {
      services.push(
        await trx
          .insertInto('service_types')
          .values({ ...s, company_id: company.id, archived_at: null, created_at: iso, updated_at: iso })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    }
    // Company hours: Mon-Fri 9-18, Sat 10-16, Sunday closed.
    for (let day = 1; day <= 7; day++) {
      const closed = day === 7;
      await trx
        .insertInto('operating_hours')
        .values({
          company_id: company.id,
          user_id: null,
          day_of_week: day,
          is_closed: closed ? 1 : 0,
          open_time: closed ? null : day === 6 ? '10:00:00' : '09:00:00',
          close_time: closed ? null : day === 6 ? '16:00:00' : '18:00:00',
        })
        .execute();
    }
    // Personal hours: Noah works afternoons on weekdays only.
    const noah = staff[3];
    for (let day = 1; day <= 5; day++) {
      await trx
        .insertInto('operating_hours')
        .values({ company_id: company.id, user_id: noah.id, day_of_week: day, is_closed: 0, open_time: '12:00:00', close_time: '18:00:00' })
        .execute();
    }

    // A month of appointments around today, placed one after another per employee so none overlap.
    const random = rng(20261122);
    const today = DateTime.fromJSDate(now, { zone: DEMO_TIMEZONE }).startOf('day');
    const employees = staff.slice(2);
    const oneToOne = services.filter((s) => s.name !== 'Yoga Group Class');
    const yoga = services.find((s) => s.name === 'Yoga Group Class')!;
    for (let d = -14; d <= 16; d++) {
      const day = today.plus({ days: d });
      if (day.weekday === 7) continue;
      const open = day.weekday === 6 ? 10 : 9;
      const close = day.weekday === 6 ? 16 : 18;
      for (const emp of employees) {
        if (emp.id === noah.id && day.weekday > 5) continue;
        let cursor = day.set({ hour: emp.id === noah.id ? 12 : open });
        const end = day.set({ hour: close });
        while (true) {
          cursor = cursor.plus({ minutes: Math.floor(random() * 4) * 30 });
          const svc = oneToOne[Math.floor(random() * oneToOne.length)];
          const finish = cursor.plus({ minutes: svc.duration_minutes });
          if (finish > end) break;
          if (random() < 0.75) {
            const cust = customers[Math.floor(random() * customers.length)];
            const cancelled = random() < 0.06;
            const appt = await trx
              .insertInto('appointments')
              .values({
                company_id: company.id,
                user_id: cust.id,
                employee_id: emp.id,
                start_time: cursor.toUTC().toISO()!,
                end_time: finish.toUTC().toISO()!,
                description: random() < 0.3 ? 'Prefers a quiet chair' : null,
                appointment_duration_option_id: null,
                status: cancelled ? 'cancelled' : 'booked',
                version: 1,
                customer_name: cust.name,
                customer_email: cust.email,
                customer_phone: cust.phone,
                sms_consent: 0,
                created_by: staff[0].id,
                created_at: iso,
                updated_at: iso,
              })
              .returning('id')
              .executeTakeFirstOrThrow();
            await trx.insertInto('appointment_service_types').values({ appointment_id: appt.id, service_type_id: svc.id }).execute();
          }
          cursor = finish;
        }
      }
      // Tuesday and Thursday evening group class with Ava: several customers, same start, within capacity.
      if (day.weekday === 2 || day.weekday === 4) {
        const start = day.set({ hour: 17 });
        const ava = staff[4];
        const takenByAva = await trx
          .selectFrom('appointments')
          .select('id')
          .where('employee_id', '=', ava.id)
          .where('start_time', '<', start.plus({ hours: 1 }).toUTC().toISO()!)
          .where('end_time', '>', start.toUTC().toISO()!)
          .execute();
        if (takenByAva.length) {
          await trx
            .deleteFrom('appointments')
            .where(
              'id',
              'in',
              takenByAva.map((r) => r.id),
            )
            .execute();
        }
        const size = 3 + Math.floor(random() * 4);
        for (let k = 0; k < size; k++) {
          const cust = customers[(((d * 7 + k * 3) % customers.length) + customers.length) % customers.length];
          const appt = await trx
            .insertInto('appointments')
            .values({
              company_id: company.id,
              user_id: cust.id,
              employee_id: ava.id,
              start_time: start.toUTC().toISO()!,
              end_time: start.plus({ hours: 1 }).toUTC().toISO()!,
              description: null,
              appointment_duration_option_id: null,
              status: 'booked',
              version: 1,
              customer_name: cust.name,
              customer_email: cust.email,
              customer_phone: cust.phone,
              sms_consent: 0,
              created_by: staff[0].id,
              created_at: iso,
              updated_at: iso,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx.insertInto('appointment_service_types').values({ appointment_id: appt.id, service_type_id: yoga.id }).execute();
        }
      }
    }
    const all = await trx.selectFrom('appointments').select('id').where('company_id', '=', company.id).execute();
    for (const a of all)
      await trx
        .insertInto('sync_changes')
        .values({ company_id: company.id, appointment_id: a.id, op: 'upsert', created_at: iso })
        .execute();
  });
  return { created: true, logins };
}
