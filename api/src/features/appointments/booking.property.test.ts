// Property: through the real endpoints, the slots offered and the bookings accepted always agree.
// For random services (duration, capacity, buffers, who performs them), random hours of the day
// (special hours with breaks, or a closure), random time off, and random sequences of bookings at
// offered or arbitrary times and of cancellations: every offered slot can be booked, every time not
// offered is refused without writing anything, no moment ever holds more bookings of a service than
// its capacity (buffers included), and no employee is ever in two holds at once except one group
// session (docs/decisions/27-scheduling-rules.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';

const NOW = new Date('2026-11-23T08:00:00.000Z');

type Op = { kind: 'offered'; pick: number } | { kind: 'anytime'; minute: number } | { kind: 'cancel'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('offered' as const), pick: fc.nat(1000) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('anytime' as const), minute: fc.integer({ min: 7 * 60, max: 18 * 60 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(1000) }) },
);

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`;

/** The day's company hours: the weekday's (null), a closure ([]), or one to three intervals with breaks. */
const dayHoursArb: fc.Arbitrary<[number, number][] | null> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant<[number, number][]>([]) },
  {
    weight: 4,
    arbitrary: fc
      .uniqueArray(
        fc.integer({ min: 28, max: 76 }).map((q) => q * 15),
        { minLength: 2, maxLength: 6 },
      )
      .map((points) => {
        const sorted = points.sort((x, y) => x - y);
        const out: [number, number][] = [];
        for (let i = 0; i + 1 < sorted.length; i += 2) out.push([sorted[i], sorted[i + 1]]);
        return out;
      }),
  },
);

const bufferArb = fc.oneof(fc.constant(0), fc.constantFrom(5, 15, 30), fc.integer({ min: 0, max: 90 }));

describe.each(testDialects())('slots and bookings agree on %s', (dialect) => {
  let t: TestServer;
  let co: BookableCompany;
  let day = 0;

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW });
    // London, open 09:00-17:00 every day, 15-minute grid.
    co = await bookableCompany(t, { name: 'Property Salon', incrementMinutes: 15 });
  });
  afterAll(async () => t?.close());

  it('offered slots can be booked, others are refused, capacity is never exceeded', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(15, 30, 45, 60, 90),
        fc.integer({ min: 1, max: 3 }),
        fc.array(opArb, { minLength: 4, maxLength: 12 }),
        fc.record({
          before: bufferArb,
          after: bufferArb,
          hours: dayHoursArb,
          // Indexes into the company's four staff: who performs the service (none: everyone), who is off.
          performers: fc.subarray([0, 1, 2, 3]),
          off: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
        }),
        async (duration, capacity, ops, rules) => {
          // A fresh service and a fresh day for every run, so runs do not see each other.
          const iso = NOW.toISOString();
          const service = await t.db
            .insertInto('service_types')
            .values({
              company_id: co.companyId,
              name: `P${duration}x${capacity}`,
              duration_minutes: duration,
              price: null,
              hide_price: 0,
              available_slots: capacity,
              buffer_before_minutes: rules.before,
              buffer_after_minutes: rules.after,
              archived_at: null,
              created_at: iso,
              updated_at: iso,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          day = (day % 28) + 1;
          const date = new Date(Date.parse('2026-11-24T00:00:00Z') + (day - 1) * 86_400_000).toISOString().slice(0, 10);
          const staff = [co.admin.id, co.manager.id, co.employee.id, co.user.id];
          if (rules.performers.length)
            await t.db
              .insertInto('service_employees')
              .values(rules.performers.map((i) => ({ service_type_id: service.id, user_id: staff[i] })))
              .execute();
          const qualified = rules.performers.length ? rules.performers.map((i) => staff[i]) : staff;
          await t.db.deleteFrom('date_overrides').where('company_id', '=', co.companyId).where('date', '=', date).execute();
          if (rules.hours)
            await t.db
              .insertInto('date_overrides')
              .values({
                company_id: co.companyId,
                user_id: null,
                date,
                is_closed: rules.hours.length ? 0 : 1,
                intervals: rules.hours.length
                  ? JSON.stringify(rules.hours.map(([o, c]) => ({ open_time: hhmm(o), close_time: hhmm(c) })))
                  : null,
                note: null,
              })
              .execute();
          if (rules.off !== undefined)
            await t.db
              .insertInto('date_overrides')
              .values({ company_id: co.companyId, user_id: staff[rules.off], date, is_closed: 1, intervals: null, note: null })
              .execute();
          const booked: number[] = [];
          const slots = async () => {
            const res = await t.call(
              'GET',
              `/appointments/available-slots?company_id=${co.companyId}&service_type_id=${service.id}&date=${date}`,
            );
            expect(res.status).toBe(200);
            return res.body.slots as { value: string; start: string; end: string }[];
          };
          const book = (start: string) =>
            t.call('POST', '/appointments', {
              body: { company_id: co.companyId, service_type_ids: [service.id], start_time: start, customer: customerContact() },
            });

          for (const op of ops) {
            const offered = await slots();
            if (op.kind === 'offered') {
              if (!offered.length) continue;
              const slot = offered[op.pick % offered.length];
              const res = await book(slot.start);
              expect(res.status, res.text).toBe(201);
              expect(res.body.end_time).toBe(slot.end);
              booked.push(res.body.id);
            } else if (op.kind === 'anytime') {
              // London is on GMT in November and December: local minutes are UTC minutes.
              const start = `${date}T${String(Math.floor(op.minute / 60)).padStart(2, '0')}:${String(op.minute % 60).padStart(2, '0')}:00.000Z`;
              const isOffered = offered.some((s) => s.start === start);
              const before = await t.db
                .selectFrom('appointments')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow();
              const res = await book(start);
              if (isOffered) {
                expect(res.status, res.text).toBe(201);
                booked.push(res.body.id);
              } else {
                expect([400, 409], res.text).toContain(res.status);
                const after = await t.db
                  .selectFrom('appointments')
                  .select((eb) => eb.fn.countAll<number>().as('n'))
                  .executeTakeFirstOrThrow();
                expect(Number(after.n)).toBe(Number(before.n));
              }
            } else if (booked.length) {
              const id = booked.splice(op.pick % booked.length, 1)[0];
              const res = await t.call('PUT', `/appointments/${id}`, { token: co.admin.token, body: { status: 'cancelled' } });
              expect(res.status).toBe(200);
            }

            // Capacity: at every hold's start (buffers included), the overlapping holds fit.
            const held = (r: { start_time: string; end_time: string }) => ({
              start: Date.parse(r.start_time) - rules.before * 60_000,
              end: Date.parse(r.end_time) + rules.after * 60_000,
            });
            const rows = (
              await t.db
                .selectFrom('appointments as a')
                .innerJoin('appointment_service_types as s', 's.appointment_id', 'a.id')
                .select(['a.start_time', 'a.end_time', 'a.employee_id'])
                .where('s.service_type_id', '=', service.id)
                .where('a.status', '=', 'booked')
                .execute()
            ).map((r) => ({ ...r, ...held(r) }));
            for (const r of rows) {
              const atOnce = rows.filter((o) => o.start <= r.start && o.end > r.start).length;
              expect(atOnce).toBeLessThanOrEqual(capacity);
              // Every booking was given a qualified employee, never one in another hold (a group session shares a start).
              expect(qualified).toContain(r.employee_id);
              const clash = rows.filter(
                (o) => o.employee_id === r.employee_id && o.start < r.end && o.end > r.start && o.start_time !== r.start_time,
              );
              expect(clash).toEqual([]);
            }
            // And no offered slot's hold overlaps a moment that is already full.
            for (const s of await slots()) {
              const h = held({ start_time: s.start, end_time: s.end });
              const overlapping = rows.filter((o) => o.start < h.end && o.end > h.start);
              const points = [h.start, ...overlapping.map((o) => o.start).filter((x) => x > h.start && x < h.end)];
              for (const p of points) {
                expect(overlapping.filter((o) => o.start <= p && o.end > p).length).toBeLessThan(capacity);
              }
            }
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);
});
