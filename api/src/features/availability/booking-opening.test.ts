// A booking's first read (findBookingOpening, docs/decisions/39-booking-opening-read.md) answers in one
// statement what four reads answered before. For every pair of service and employee a booking can
// name (assigned or not, archived, another company's, a customer, unknown) it must answer what those
// four answer, on both databases: the booking's checks trust it to refuse exactly what they refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { companyRow, serviceTypeRow, userRow } from '../../testing/rows.ts';
import { findActiveServiceTypes } from '../service-types/service-type.repository.ts';
import { findBookingCompany, findBookingOpening, findCompanyStaffMember, performsService } from './availability.repository.ts';

const iso = '2026-05-01T00:00:00.000Z';

describe.each(testDialects())('a booking’s opening read on %s', (dialect) => {
  let t: TestServer;
  let sent: string[] = [];
  let companyId: number;
  let otherCompanyId: number;
  const services: Record<string, number> = {};
  const people: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestServer(dialect, { connectOptions: { onRoundTrip: (text) => sent.push(text) } });
    const company = async (name: string) =>
      (
        await t.db
          .insertInto('companies')
          .values(companyRow({ name, slug: name.toLowerCase(), updated_at: iso }))
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    companyId = await company('Opening');
    otherCompanyId = await company('Elsewhere');
    const service = async (name: string, company: number, extra: { archived_at?: string; buffer_before_minutes?: number } = {}) =>
      (services[name] = (
        await t.db
          .insertInto('service_types')
          .values(serviceTypeRow({ company_id: company, name, duration_minutes: 40, updated_at: iso, ...extra }))
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id);
    const person = async (name: string, company: number, extra: { role?: 'admin' | 'customer'; archived_at?: string } = {}) =>
      (people[name] = (
        await t.db
          .insertInto('users')
          .values(userRow({ company_id: company, name, email: `${name.toLowerCase()}@opening.test`, updated_at: iso, ...extra }))
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id);
    await service('Assigned', companyId, { buffer_before_minutes: 10 });
    await service('Anyone', companyId);
    await service('Archived', companyId, { archived_at: iso });
    await service('Foreign', otherCompanyId);
    await person('Ann', companyId);
    await person('Bob', companyId, { role: 'admin' });
    await person('Gone', companyId, { archived_at: iso });
    await person('Carla', companyId, { role: 'customer' });
    await person('Outsider', otherCompanyId);
    await t.db
      .insertInto('service_employees')
      .values([
        { service_type_id: services.Assigned, user_id: people.Ann },
        { service_type_id: services.Assigned, user_id: people.Gone },
      ])
      .execute();
  });
  afterAll(async () => t?.close());

  it('answers what the company, service, staff-member and performer reads answer, for every pair', async () => {
    const serviceIds = [...Object.values(services), 999_999];
    const employeeIds = [null, ...Object.values(people), 999_999];
    let refusedForPerforming = 0;
    for (const serviceId of serviceIds) {
      for (const employeeId of employeeIds) {
        const opening = await findBookingOpening(t.db, companyId, serviceId, employeeId);
        const [service] = await findActiveServiceTypes(t.db, companyId, [serviceId]);
        expect(opening?.company).toEqual(await findBookingCompany(t.db, companyId));
        expect(opening?.service ?? null).toEqual(
          service
            ? {
                id: service.id,
                name: service.name,
                duration_minutes: service.duration_minutes,
                available_slots: service.available_slots,
                buffer_before_minutes: service.buffer_before_minutes,
                buffer_after_minutes: service.buffer_after_minutes,
              }
            : null,
        );
        if (employeeId === null) {
          expect(opening?.staffMember).toBeNull();
          continue;
        }
        expect(opening?.staffMember ?? undefined).toEqual(await findCompanyStaffMember(t.db, companyId, employeeId));
        // The booking asks only about a current staff member and an active service.
        if (service && opening?.staffMember) {
          const performs = await performsService(t.db, companyId, serviceId, employeeId);
          expect(opening.performs, `service ${serviceId}, employee ${employeeId}`).toBe(performs);
          if (!performs) refusedForPerforming++;
        }
      }
    }
    // Bob is staff but not assigned to the service with assignments: the one refusal of that kind.
    expect(refusedForPerforming).toBe(1);
    expect(await findBookingOpening(t.db, 999_999, services.Anyone, null)).toBeUndefined();
  });

  // On PostgreSQL the opening reads of one round of events share a statement (availability.repository.ts,
  // docs/decisions/39-booking-opening-read.md, "Session 39"): asked together, every question gets the
  // answer it gets alone, another company's and an unknown one included.
  it('asked together in one round, each question gets the answer it gets alone, in one statement on PostgreSQL', async () => {
    const questions: [number, number, number | null][] = [];
    for (const serviceId of [...Object.values(services), 999_999])
      for (const employeeId of [null, ...Object.values(people), 999_999]) questions.push([companyId, serviceId, employeeId]);
    questions.push(
      [otherCompanyId, services.Foreign, people.Outsider],
      [otherCompanyId, services.Anyone, people.Ann],
      [999_999, services.Anyone, null],
    );
    const alone = [];
    for (const q of questions) alone.push(await findBookingOpening(t.db, ...q));
    sent = [];
    const together = await Promise.all(questions.map((q) => findBookingOpening(t.db, ...q)));
    expect(together).toEqual(alone);
    expect(together.at(-1)).toBeUndefined();
    expect(together.at(-3)?.company.id).toBe(otherCompanyId);
    expect(together.at(-2)).toMatchObject({ service: null, staffMember: null });
    if (dialect === 'postgres') expect(sent.filter((text) => text.includes('"service_types"'))).toHaveLength(1);
  });
});
