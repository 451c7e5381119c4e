// DECISIONS 3 as docs/decisions/03-tenancy-and-roles.md keeps it: "a request for another company's
// resource answers 404, whatever the role". A role a route refuses learns no more than a role it
// admits: 404 for another company's row (or one that does not exist), 403 only for its own company's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from './testing/harness.ts';
import { companyWithPeople, type TestCompany, type TestPerson } from './testing/company-people.ts';
import { bookableCompany, customerContact, type BookableCompany } from './testing/booking-fixtures.ts';
import { databaseFingerprint } from './testing/fingerprint.ts';

type Role = 'admin' | 'manager' | 'employee' | 'customer';
interface Case {
  call: string;
  /** The roles the route refuses (global_admin aside). */
  refused: Role[];
}

describe.each(testDialects())('tenancy for refused roles on %s', (dialect) => {
  let t: TestServer;
  let a: BookableCompany;
  let b: TestCompany;
  let ids: Record<string, number>;

  beforeAll(async () => {
    t = await startTestServer(dialect);
    a = await bookableCompany(t, { name: 'Tenant A' });
    b = await companyWithPeople(t, 'Tenant B');
    const hours = await t.call('POST', '/operating-hours', {
      token: a.admin.token,
      body: { user_id: a.employee.id, day_of_week: 3, open_time: '09:00', close_time: '12:00' },
    });
    const override = await t.call('POST', '/date-overrides', {
      token: a.admin.token,
      body: { company_id: a.companyId, date: '2027-01-05', is_closed: true },
    });
    const booking = await t.call('POST', '/appointments', {
      token: a.admin.token,
      body: {
        company_id: a.companyId,
        service_type_ids: [a.serviceId],
        start_time: '2027-01-06T10:00:00Z',
        customer: customerContact('Tenant'),
      },
    });
    for (const r of [hours, override, booking]) expect(r.status, r.text).toBe(201);
    const option = await t.db
      .selectFrom('company_duration_options')
      .select('id')
      .where('company_id', '=', a.companyId)
      .executeTakeFirstOrThrow();
    const byDefault = await t.db
      .selectFrom('company_duration_defaults')
      .select('id')
      .where('company_id', '=', a.companyId)
      .executeTakeFirstOrThrow();
    ids = {
      company: a.companyId,
      service: a.serviceId,
      hours: hours.body.id,
      override: override.body.id,
      appointment: booking.body.id,
      employee: a.employee.id,
      option: option.id,
      default: byDefault.id,
    };
  });
  afterAll(async () => t?.close());

  const staffOnly: Role[] = ['customer'];
  const adminsOnly: Role[] = ['employee', 'customer'];
  const CASES: Case[] = [
    { call: 'PUT /service-types/:service', refused: adminsOnly },
    { call: 'DELETE /service-types/:service', refused: adminsOnly },
    { call: 'PUT /companies/:company', refused: adminsOnly },
    { call: 'DELETE /companies/:company', refused: ['admin', 'manager', 'employee', 'customer'] },
    { call: 'GET /companies/:company/messages', refused: adminsOnly },
    { call: 'POST /companies/:company/messages/1/retry', refused: adminsOnly },
    { call: 'GET /companies/:company/calendar-feed', refused: adminsOnly },
    { call: 'PUT /admin/companies/:company/subscription', refused: ['admin', 'manager', 'employee', 'customer'] },
    { call: 'PUT /company-duration-options/:option', refused: adminsOnly },
    { call: 'DELETE /company-duration-defaults/:default', refused: adminsOnly },
    { call: 'PUT /operating-hours/:hours', refused: staffOnly },
    { call: 'DELETE /operating-hours/:hours', refused: staffOnly },
    { call: 'DELETE /date-overrides/:override', refused: staffOnly },
    { call: 'DELETE /users/:employee', refused: adminsOnly },
    { call: 'DELETE /appointments/:appointment', refused: staffOnly },
  ];
  const request = (c: Case, who: TestPerson, id?: number) => {
    const [method, template] = c.call.split(' ');
    const path = template.replace(/:(\w+)/, (_, name: string) => String(id ?? ids[name]));
    return t.call(method, path, { token: who.token, body: method === 'PUT' ? {} : undefined });
  };

  it("answers 404 to another company's people whom the route refuses, for a row there or none, and changes nothing", async () => {
    const before = await databaseFingerprint(t.db);
    const wrong: string[] = [];
    for (const c of CASES)
      for (const role of c.refused) {
        for (const [what, id] of [
          ["company A's", undefined],
          ['a missing', 999_999],
        ] as const) {
          const res = await request(c, b[role], id);
          if (res.status !== 404) wrong.push(`${c.call} as B's ${role} on ${what} row: ${res.status} ${res.text}`);
        }
      }
    expect(wrong).toEqual([]);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('still answers 403 to the same roles on their own company', async () => {
    const wrong: string[] = [];
    for (const c of CASES)
      for (const role of c.refused) {
        const res = await request(c, a[role]);
        if (res.status !== 403) wrong.push(`${c.call} as A's ${role}: ${res.status} ${res.text}`);
      }
    expect(wrong).toEqual([]);
  });
});
