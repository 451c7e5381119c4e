// The audit log over real HTTP on every test dialect (docs/decisions/12-operations-security-privacy.md, docs/decisions/31-audit-log.md):
// each audited write leaves exactly one entry, a refused or rolled-back write none; changed fields
// only, never a secret; failed logins; who reads what; paging; and no route that changes an entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, uniqueEmail, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, type TestPerson } from '../../testing/company-people.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';

// Monday 23 November 2026, 08:00 in London: Tuesday's 09:30 is bookable.
const NOW = new Date('2026-11-23T08:00:00.000Z');
const TUESDAY_0930 = '2026-11-24T09:30:00.000Z';
const TUESDAY_1030 = '2026-11-24T10:30:00.000Z';
const SECRET = /password|token|hash|nonce|secret/i;

describe.each(testDialects())('audit log on %s', (dialect) => {
  let t: TestServer;
  let a: BookableCompany;
  let b: BookableCompany;
  let global: TestPerson;

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW });
    a = await bookableCompany(t, { name: 'Audit Salon' });
    b = await bookableCompany(t, { name: 'Other Audit Spa' });
    global = await addGlobalAdmin(t);
  });
  afterAll(async () => t?.close());

  const entries = () => t.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
  /** Runs a call and answers it with the entries it added. */
  async function added<T>(run: () => Promise<T>): Promise<{ result: T; rows: Awaited<ReturnType<typeof entries>> }> {
    const before = (await entries()).at(-1)?.id ?? 0;
    const result = await run();
    return { result, rows: (await entries()).filter((r) => r.id > before) };
  }
  const changesOf = (row: { changes: string | null }) => (row.changes ? JSON.parse(row.changes) : null);

  it('records an anonymous booking once, with the ip and request id and no actor or secret', async () => {
    const ann = customerContact('Ann Audit');
    const { result: res, rows } = await added(() =>
      t.call('POST', '/appointments', {
        body: {
          company_id: a.companyId,
          service_type_ids: [a.serviceId],
          start_time: TUESDAY_0930,
          customer: ann,
        },
      }),
    );
    expect(res.status, res.text).toBe(201);
    // The booking creates the company's record of Ann (a write to users), then the appointment.
    expect(rows.map((r) => [r.entity, r.action])).toEqual([
      ['user', 'create'],
      ['appointment', 'create'],
    ]);
    const [person, row] = rows;
    expect(person).toMatchObject({ company_id: a.companyId, entity_id: res.body.user_id, actor_user_id: null });
    expect(changesOf(person!).name).toEqual({ new: 'Ann Audit' });
    expect(row).toMatchObject({
      company_id: a.companyId,
      action: 'create',
      entity: 'appointment',
      entity_id: res.body.id,
      actor_user_id: null,
      actor_role: null,
    });
    expect(row!.ip).toBeTruthy();
    const requestId = res.headers.get('x-request-id');
    if (requestId) expect(row!.request_id).toBe(requestId);
    const changes = changesOf(row!);
    expect(changes.start_time).toEqual({ new: TUESDAY_0930 });
    expect(changes.customer_name).toEqual({ new: 'Ann Audit' });
    expect(Object.keys(changes).filter((k) => SECRET.test(k))).toEqual([]);
    expect(row!.changes).not.toMatch(/manage_/);

    // Ann books again with the same email: her record exists, so only the appointment is recorded.
    const again = await added(() =>
      t.call('POST', '/appointments', {
        body: { company_id: a.companyId, service_type_ids: [a.serviceId], start_time: TUESDAY_1030, customer: ann },
      }),
    );
    expect(again.result.status, again.result.text).toBe(201);
    expect(again.rows.map((r) => [r.entity, r.action])).toEqual([['appointment', 'create']]);
  });

  it('records a staff change with old and new of the changed fields only, a cancellation and a deletion', async () => {
    const created = await t.call('POST', '/appointments', {
      token: a.admin.token,
      body: { service_type_ids: [a.serviceId], start_time: '2026-11-25T10:00:00.000Z', end_time: '2026-11-25T10:30:00.000Z' },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const moved = await added(() =>
      t.call('PATCH', `/appointments/${id}`, {
        token: a.manager.token,
        body: { start_time: '2026-11-25T11:00:00.000Z', description: 'Moved' },
      }),
    );
    expect(moved.result.status, moved.result.text).toBe(200);
    expect(moved.rows).toHaveLength(1);
    expect(moved.rows[0]).toMatchObject({ action: 'update', actor_user_id: a.manager.id, actor_role: 'manager', entity_id: id });
    expect(changesOf(moved.rows[0]!)).toEqual({
      start_time: { old: '2026-11-25T10:00:00.000Z', new: '2026-11-25T11:00:00.000Z' },
      end_time: { old: '2026-11-25T10:30:00.000Z', new: '2026-11-25T11:30:00.000Z' },
      description: { old: null, new: 'Moved' },
    });
    const cancelled = await added(() => t.call('PATCH', `/appointments/${id}`, { token: a.admin.token, body: { status: 'cancelled' } }));
    expect(cancelled.rows.map((r) => [r.action, changesOf(r)])).toEqual([['cancel', { status: { old: 'booked', new: 'cancelled' } }]]);
    const removed = await added(() => t.call('DELETE', `/appointments/${id}`, { token: a.admin.token }));
    expect(removed.result.status).toBe(204);
    expect(removed.rows.map((r) => r.action)).toEqual(['delete']);
  });

  it('leaves no entry for a refused or rolled-back write', async () => {
    const created = await t.call('POST', '/appointments', {
      token: a.admin.token,
      body: { service_type_ids: [a.serviceId], start_time: '2026-11-26T10:00:00.000Z', end_time: '2026-11-26T10:30:00.000Z' },
    });
    const id = created.body.id as number;
    // The same time again: refused inside the booking transaction (409) after the lock was taken.
    const clash = await added(() =>
      t.call('POST', '/appointments', {
        token: a.admin.token,
        body: { service_type_ids: [a.serviceId], start_time: '2026-11-26T10:00:00.000Z', end_time: '2026-11-26T10:30:00.000Z' },
      }),
    );
    expect(clash.result.status).toBe(409);
    expect(clash.rows).toEqual([]);
    // A stale If-Match: the transaction reads the row, then rolls back (412).
    const stale = await added(() =>
      t.call('PATCH', `/appointments/${id}`, { token: a.admin.token, body: { description: 'x' }, headers: { 'if-match': '"99"' } }),
    );
    expect(stale.result.status).toBe(412);
    expect(stale.rows).toEqual([]);
    // Validation refused before any write, and an unchanged edit, record nothing either.
    expect(
      (await added(() => t.call('PATCH', `/companies/${a.companyId}`, { token: a.admin.token, body: { time_increment_minutes: -5 } })))
        .rows,
    ).toEqual([]);
    expect((await added(() => t.call('PATCH', `/appointments/${id}`, { token: a.admin.token, body: {} }))).rows).toEqual([]);
  });

  it('records people, roles, settings, services, hours, overrides and durations, one entry each', async () => {
    const email = uniqueEmail('staff');
    const person = await added(() =>
      t.call('POST', '/users', { token: a.admin.token, body: { name: 'New Hire', email, role: 'employee' } }),
    );
    expect(person.result.status, person.result.text).toBe(201);
    expect(person.rows.map((r) => [r.entity, r.action])).toEqual([['user', 'create']]);
    expect(changesOf(person.rows[0]!)).toMatchObject({ name: { new: 'New Hire' }, email: { new: email }, role: { new: 'employee' } });
    const userId = person.result.body.id as number;

    const promoted = await added(() => t.call('PATCH', `/users/${userId}`, { token: a.admin.token, body: { role: 'manager' } }));
    expect(promoted.result.status, promoted.result.text).toBe(200);
    expect(promoted.rows.map((r) => [r.action, changesOf(r)])).toEqual([['change_role', { role: { old: 'employee', new: 'manager' } }]]);
    const gone = await added(() => t.call('DELETE', `/users/${userId}`, { token: a.admin.token }));
    expect(gone.rows.map((r) => [r.entity, r.action, r.entity_id])).toEqual([['user', 'delete', userId]]);

    const settings = await added(() =>
      t.call('PATCH', `/companies/${a.companyId}`, { token: a.admin.token, body: { time_increment_minutes: 15, name: 'Audit Salon' } }),
    );
    expect(settings.result.status, settings.result.text).toBe(200);
    // The name did not change: only the increment is recorded.
    expect(settings.rows.map((r) => [r.entity, changesOf(r)])).toEqual([['company', { time_increment_minutes: { old: 30, new: 15 } }]]);

    const service = await added(() =>
      t.call('POST', '/service-types', { token: a.admin.token, body: { name: 'Colour', duration_minutes: 60 } }),
    );
    expect(service.rows.map((r) => [r.entity, r.action])).toEqual([['service_type', 'create']]);
    const serviceId = service.result.body.service_type.id as number;
    const renamed = await added(() =>
      t.call('PATCH', `/service-types/${serviceId}`, { token: a.admin.token, body: { name: 'Colour & cut' } }),
    );
    expect(renamed.rows.map((r) => changesOf(r))).toEqual([{ name: { old: 'Colour', new: 'Colour & cut' } }]);
    const dropped = await added(() => t.call('DELETE', `/service-types/${serviceId}`, { token: a.admin.token }));
    expect(dropped.rows.map((r) => r.action)).toEqual(['delete']);

    const hours = await added(() =>
      t.call('POST', '/operating-hours', { token: a.admin.token, body: { day_of_week: 1, open_time: '10:00', close_time: '17:00' } }),
    );
    expect(hours.rows.map((r) => [r.entity, r.action, changesOf(r)])).toEqual([
      ['operating_hours', 'update', { open_time: { old: '09:00:00', new: '10:00:00' } }],
    ]);

    const closure = await added(() =>
      t.call('POST', '/date-overrides', { token: a.admin.token, body: { date: '2026-12-25', is_closed: true } }),
    );
    expect(closure.rows.map((r) => [r.entity, r.action])).toEqual([['date_override', 'create']]);
    // Flags are kept as the API's booleans, not the 0/1 they are stored as, and read so.
    expect(changesOf(closure.rows[0]!).is_closed).toEqual({ new: true });
    const log = await t.call('GET', `/audit-log?company_id=${a.companyId}&entity=date_override`, { token: a.admin.token });
    expect(log.body.map((e: { changes: Record<string, unknown> }) => e.changes.is_closed)).toEqual([{ new: true }]);
    // An entry written before flags were kept as booleans reads as booleans too.
    await t.db
      .insertInto('audit_log')
      .values({
        actor_user_id: null,
        actor_role: 'admin',
        company_id: a.companyId,
        action: 'update',
        entity: 'service_type',
        entity_id: 999_999,
        changes: JSON.stringify({ hide_price: { old: 0, new: 1 }, available_slots: { old: 1, new: 0 } }),
        ip: null,
        request_id: null,
      })
      .execute();
    const legacy = await t.call('GET', `/audit-log?company_id=${a.companyId}&entity=service_type&entity_id=999999`, {
      token: a.admin.token,
    });
    expect(legacy.body[0].changes).toEqual({ hide_price: { old: false, new: true }, available_slots: { old: 1, new: 0 } });
    const reopened = await added(() => t.call('DELETE', `/date-overrides/${closure.result.body.id}`, { token: a.admin.token }));
    expect(reopened.rows.map((r) => [r.entity, r.action])).toEqual([['date_override', 'delete']]);

    for (const r of await entries()) expect(Object.keys(changesOf(r) ?? {}).filter((k) => SECRET.test(k))).toEqual([]);
  });

  it('records failed logins: a known email in its company, an unknown one with no company; a password change without values', async () => {
    const known = await t.call('GET', '/me', { token: a.admin.token });
    const wrong = await added(() => t.call('POST', '/login', { body: { email: known.body.email, password: 'wrong-password' } }));
    expect(wrong.result.status).toBe(400);
    expect(wrong.rows.map((r) => [r.company_id, r.action, r.entity, r.entity_id])).toEqual([
      [a.companyId, 'login_failed', 'user', a.admin.id],
    ]);
    expect(wrong.rows[0]!.changes).not.toContain('wrong-password');
    const stranger = uniqueEmail('nobody');
    const unknown = await added(() => t.call('POST', '/login', { body: { email: stranger, password: 'whatever1' } }));
    expect(unknown.rows.map((r) => [r.company_id, r.action, r.entity_id])).toEqual([[null, 'login_failed', null]]);

    const changed = await added(() =>
      t.call('POST', '/me/change-password', { token: b.admin.token, body: { current_password: 'secret123', new_password: 'secret456' } }),
    );
    expect(changed.result.status, changed.result.text).toBe(200);
    expect(changed.rows.map((r) => [r.company_id, r.action, r.entity_id, r.changes])).toEqual([
      [b.companyId, 'change_password', b.admin.id, null],
    ]);

    // Company admins never see the company-less entry; global_admin does.
    const mine = await t.call('GET', '/audit-log?limit=200', { token: a.admin.token });
    expect(mine.body.some((e: { id: number }) => e.id === unknown.rows[0]!.id)).toBe(false);
    const all = await t.call('GET', '/audit-log?limit=200', { token: global.token });
    expect(all.body.some((e: { id: number }) => e.id === unknown.rows[0]!.id)).toBe(true);
  });

  it('lets a company admin read their company only, global_admin any; everyone else is refused', async () => {
    const mine = await t.call('GET', '/audit-log', { token: a.admin.token });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.length).toBeGreaterThan(0);
    expect(new Set(mine.body.map((e: { company_id: number }) => e.company_id))).toEqual(new Set([a.companyId]));
    expect(mine.body[0]).toEqual({
      id: expect.any(Number),
      at: expect.stringMatching(/Z$/),
      actor_user_id: expect.toBeOneOf([expect.any(Number), null]),
      actor_role: expect.toBeOneOf([expect.any(String), null]),
      actor_name: expect.toBeOneOf([expect.any(String), null]),
      company_id: a.companyId,
      action: expect.any(String),
      entity: expect.any(String),
      entity_id: expect.toBeOneOf([expect.any(Number), null]),
      changes: expect.toBeOneOf([expect.any(Object), null]),
      ip: expect.toBeOneOf([expect.any(String), null]),
      request_id: expect.toBeOneOf([expect.any(String), null]),
    });
    expect((await t.call('GET', `/audit-log?company_id=${b.companyId}`, { token: a.admin.token })).status).toBe(404);
    for (const who of [a.manager, a.employee, a.user, a.customer]) {
      expect((await t.call('GET', '/audit-log', { token: who.token })).status).toBe(403);
    }
    expect((await t.call('GET', '/audit-log')).status).toBe(401);
    const theirs = await t.call('GET', `/audit-log?company_id=${b.companyId}`, { token: global.token });
    expect(theirs.status).toBe(200);
    expect(theirs.body.length).toBeGreaterThan(0);
    expect(theirs.body.every((e: { company_id: number }) => e.company_id === b.companyId)).toBe(true);
    // No route changes an entry.
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect([404, 405]).toContain((await t.call(method, '/audit-log', { token: global.token, body: {} })).status);
    }
    expect([404, 405]).toContain((await t.call('DELETE', `/audit-log/${mine.body[0].id}`, { token: global.token })).status);
  });

  it('pages newest first with before and limit, and filters by entity and id', async () => {
    const first = await t.call('GET', '/audit-log?limit=3', { token: a.admin.token });
    expect(first.body).toHaveLength(3);
    const ids = first.body.map((e: { id: number }) => e.id);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
    const next = await t.call('GET', `/audit-log?limit=3&before=${ids[2]}`, { token: a.admin.token });
    expect(next.body.length).toBeGreaterThan(0);
    expect(next.body.every((e: { id: number }) => e.id < ids[2])).toBe(true);
    const total = (await t.call('GET', '/audit-log?limit=200', { token: a.admin.token })).body.map((e: { id: number }) => e.id);
    expect(total.slice(0, 6)).toEqual([...ids, ...next.body.map((e: { id: number }) => e.id)]);

    const one = (await t.call('GET', '/audit-log?limit=200&entity=appointment', { token: a.admin.token })).body;
    expect(one.every((e: { entity: string }) => e.entity === 'appointment')).toBe(true);
    const target = one[0].entity_id;
    const history = (await t.call('GET', `/audit-log?entity=appointment&entity_id=${target}`, { token: a.admin.token })).body;
    expect(history.every((e: { entity_id: number }) => e.entity_id === target)).toBe(true);
    expect((await t.call('GET', '/audit-log?limit=0', { token: a.admin.token })).status).toBe(400);
    expect((await t.call('GET', '/audit-log?before=abc', { token: a.admin.token })).status).toBe(400);
  });
});
