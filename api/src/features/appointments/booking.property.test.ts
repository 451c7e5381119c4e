// Property: through the real endpoints, the slots offered and the bookings accepted always agree.
// For random services (duration, capacity) and random sequences of bookings at offered or arbitrary
// times and of cancellations: every offered slot can be booked, every time not offered is refused
// without writing anything, and no moment ever holds more bookings of a service than its capacity.
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
        async (duration, capacity, ops) => {
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
              archived_at: null,
              created_at: iso,
              updated_at: iso,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          day = (day % 28) + 1;
          const date = new Date(Date.parse('2026-11-24T00:00:00Z') + (day - 1) * 86_400_000).toISOString().slice(0, 10);
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

            // Capacity: at every booking's start, the overlapping booked appointments fit.
            const rows = await t.db
              .selectFrom('appointments as a')
              .innerJoin('appointment_service_types as s', 's.appointment_id', 'a.id')
              .select(['a.start_time', 'a.end_time'])
              .where('s.service_type_id', '=', service.id)
              .where('a.status', '=', 'booked')
              .execute();
            for (const r of rows) {
              const atOnce = rows.filter((o) => o.start_time <= r.start_time && o.end_time > r.start_time).length;
              expect(atOnce).toBeLessThanOrEqual(capacity);
            }
            // And no offered slot overlaps a moment that is already full.
            for (const s of await slots()) {
              const overlapping = rows.filter((o) => o.start_time < s.end && o.end_time > s.start);
              const points = [s.start, ...overlapping.map((o) => o.start_time).filter((x) => x > s.start && x < s.end)];
              for (const p of points) {
                expect(overlapping.filter((o) => o.start_time <= p && o.end_time > p).length).toBeLessThan(capacity);
              }
            }
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);
});
