// The packed availability reads (availability.repository.ts): each row's timestamps read in place at
// fixed offsets, then its other fields. What they return must be what is stored, on both databases,
// and a timestamp stored in any other form than the database's one (db/src/time.ts) must fail the
// read, never be misread as another time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { appointmentRow, companyRow, userRow } from '../../testing/rows.ts';
import {
  employeeAppointments,
  qualifiedAppointments,
  serviceAndEmployeeAppointments,
  serviceAppointments,
  unpackBuffers,
} from './availability.repository.ts';

describe.each(testDialects())('packed availability reads on %s', (dialect) => {
  let t: TestServer;
  /** The statements sent to PostgreSQL (none on SQLite). */
  let sent: string[] = [];
  let companyId: number;
  let employeeId: number;
  const serviceIds: number[] = [];
  const iso = '2026-05-01T00:00:00.000Z';
  // Ten appointments from 09:00, some with two services, one without an employee, one cancelled.
  const stored: { id: number; start: string; end: string; employeeId: number | null; services: number[] }[] = [];

  beforeAll(async () => {
    t = await startTestServer(dialect, { connectOptions: { onRoundTrip: (text) => sent.push(text) } });
    ({ id: companyId } = await t.db
      .insertInto('companies')
      .values(companyRow({ name: 'Packed', slug: 'packed', created_at: iso, updated_at: iso }))
      .returning('id')
      .executeTakeFirstOrThrow());
    for (const name of ['Cut', 'Colour']) {
      const s = await t.db
        .insertInto('service_types')
        .values({
          company_id: companyId,
          name,
          duration_minutes: 45,
          price: null,
          hide_price: 0,
          available_slots: 2,
          archived_at: null,
          created_at: iso,
          updated_at: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      serviceIds.push(s.id);
    }
    ({ id: employeeId } = await t.db
      .insertInto('users')
      .values(userRow({ company_id: companyId, name: 'Emma', email: 'emma@packed.test', updated_at: iso }))
      .returning('id')
      .executeTakeFirstOrThrow());
    for (let i = 0; i < 10; i++) {
      const start = Date.parse('2026-06-10T09:00:00.000Z') + i * 50 * 60_000 + i * 7;
      const row = appointmentRow({
        company_id: companyId,
        employee_id: i === 3 ? null : employeeId,
        start_time: new Date(start).toISOString(),
        end_time: new Date(start + 45 * 60_000 + 999).toISOString(),
        status: i === 5 ? 'cancelled' : 'booked',
        created_at: iso,
        updated_at: iso,
      });
      const { id } = await t.db.insertInto('appointments').values(row).returning('id').executeTakeFirstOrThrow();
      const services = i % 4 === 0 ? serviceIds : [serviceIds[0]];
      await t.db
        .insertInto('appointment_service_types')
        .values(services.map((s) => ({ appointment_id: id, service_type_id: s })))
        .execute();
      if (i !== 5) stored.push({ id, start: row.start_time, end: row.end_time, employeeId: row.employee_id ?? null, services });
    }
  });
  afterAll(async () => t?.close());

  const range = { startFrom: '2026-06-10T00:00:00.000Z', startBefore: '2026-06-11T00:00:00.000Z' };
  const expected = (list: typeof stored, employee: (s: (typeof stored)[number]) => number | null) =>
    list.map((s) => ({
      id: s.id,
      start: s.start,
      end: s.end,
      startMs: Date.parse(s.start),
      endMs: Date.parse(s.end),
      employeeId: employee(s),
      services: [...s.services].sort(),
    }));
  const read = (list: Awaited<ReturnType<typeof qualifiedAppointments>>) =>
    list.map((a) => ({
      id: a.id,
      start: a.start,
      end: a.end,
      startMs: a.startMs,
      endMs: a.endMs,
      employeeId: a.employeeId,
      services: [...a.serviceTypeIds].sort(),
    }));

  it('read back every booked appointment as stored: times to the millisecond, employee and all services', async () => {
    const any = await qualifiedAppointments(t.db, { companyId, serviceTypeId: serviceIds[0], ...range });
    expect(read(any).sort((x, y) => x.id! - y.id!)).toEqual(expected(stored, (s) => s.employeeId));

    const own = await employeeAppointments(t.db, { companyId, employeeId, ...range });
    expect(read(own)).toEqual(
      expected(
        stored.filter((s) => s.employeeId === employeeId),
        () => employeeId,
      ),
    );

    const colour = await serviceAppointments(t.db, { serviceTypeId: serviceIds[1], ...range });
    expect(read(colour)).toEqual(
      expected(
        stored.filter((s) => s.services.includes(serviceIds[1])),
        () => null,
      ).map((a) => ({ ...a, services: [serviceIds[1]] })),
    );
  });

  it("date pickers asking in the same round each get their own question's rows, from one statement on PostgreSQL", async () => {
    const evening = { startFrom: '2026-06-10T12:00:00.000Z', startBefore: '2026-06-11T00:00:00.000Z' };
    const questions = [
      { serviceTypeId: serviceIds[0], employeeId, companyId, ...range },
      { serviceTypeId: serviceIds[1], employeeId, companyId, ...range },
      { serviceTypeId: serviceIds[0], employeeId, companyId, ...evening },
      { serviceTypeId: serviceIds[1], employeeId: employeeId + 1000, companyId, ...range },
      { serviceTypeId: serviceIds[0], employeeId, companyId, ...range },
    ];
    sent = [];
    const answers = await Promise.all(questions.map((q) => serviceAndEmployeeAppointments(t.db, q)));
    if (dialect === 'postgres') expect(sent.filter((m) => m.includes('from "service_bookings"'))).toHaveLength(1);
    questions.forEach((q, i) => {
      const inRange = stored.filter((s) => s.start >= q.startFrom && s.start < q.startBefore);
      expect(read(answers[i].service)).toEqual(
        expected(
          inRange.filter((s) => s.services.includes(q.serviceTypeId)),
          () => null,
        ).map((a) => ({ ...a, services: [q.serviceTypeId] })),
      );
      expect(read(answers[i].own)).toEqual(
        expected(
          inRange.filter((s) => s.employeeId === q.employeeId),
          () => q.employeeId,
        ),
      );
    });
    expect(answers[3].own).toEqual([]);
    expect(answers[2].service.length).toBeGreaterThan(0);
    expect(answers[2].service.length).toBeLessThan(answers[0].service.length);
  });

  it("employees' own reads asked in the same round each get their own question's rows, from one statement on PostgreSQL", async () => {
    const evening = { startFrom: '2026-06-10T12:00:00.000Z', startBefore: '2026-06-11T00:00:00.000Z' };
    const questions = [
      { employeeId, companyId, ...range },
      { employeeId, companyId, ...evening },
      { employeeId: employeeId + 1000, companyId, ...range },
      { employeeId, companyId: companyId + 1000, ...range },
      { employeeId, companyId, ...range },
    ];
    sent = [];
    const answers = await Promise.all(questions.map((q) => employeeAppointments(t.db, q)));
    if (dialect === 'postgres') expect(sent.filter((m) => m.includes('from "appointments"'))).toHaveLength(1);
    questions.forEach((q, i) => {
      const mine = stored.filter(
        (s) => q.companyId === companyId && s.employeeId === q.employeeId && s.start >= q.startFrom && s.start < q.startBefore,
      );
      expect(read(answers[i])).toEqual(expected(mine, () => q.employeeId));
    });
    expect(answers[1].length).toBeGreaterThan(0);
    expect(answers[1].length).toBeLessThan(answers[0].length);
    expect(answers[2]).toEqual([]);
    expect(answers[3]).toEqual([]);
  });

  it('a timestamp written in another form: SQLite (which keeps the text) fails the read instead of misreading it, PostgreSQL (which keeps the instant) reads it right', async () => {
    const { id } = await t.db
      .insertInto('appointments')
      .values(
        appointmentRow({
          company_id: companyId,
          employee_id: employeeId,
          start_time: '2026-06-10T20:00:00Z',
          end_time: '2026-06-10T20:45:00Z',
          created_at: iso,
          updated_at: iso,
        }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('appointment_service_types').values({ appointment_id: id, service_type_id: serviceIds[0] }).execute();
    const reads = [
      () => employeeAppointments(t.db, { companyId, employeeId, ...range }),
      () => serviceAppointments(t.db, { serviceTypeId: serviceIds[0], ...range }),
      () => qualifiedAppointments(t.db, { companyId, serviceTypeId: serviceIds[0], ...range }),
    ];
    for (const r of reads) {
      if (dialect === 'sqlite') await expect(r()).rejects.toThrow(/not in the database's form/);
      else
        expect((await r()).find((a) => a.id === id)).toMatchObject({
          start: '2026-06-10T20:00:00.000Z',
          endMs: Date.parse('2026-06-10T20:45:00Z'),
        });
    }
    await t.db.deleteFrom('appointments').where('id', '=', id).execute();
  });
});

// The booking transaction reads the company's buffers packed in one column (packedBuffersColumn).
describe('unpackBuffers', () => {
  it('reads every service with its buffers, and refuses a row it cannot read', () => {
    expect(unpackBuffers(null)).toEqual(new Map());
    expect(unpackBuffers('12\x1f5\x1f10\x1e7\x1f0\x1f15')).toEqual(
      new Map([
        [12, { before: 5, after: 10 }],
        [7, { before: 0, after: 15 }],
      ]),
    );
    expect(() => unpackBuffers('12\x1f5')).toThrow(/id before after/);
  });
});
