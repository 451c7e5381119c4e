// The offline sync feed over real HTTP on every test dialect: a first full copy, then every change in
// order (cancellations as upserts, deletions as tombstones), paging, tenancy and bad cursors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, type TestPerson } from '../../testing/company-people.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { appointmentRow } from '../../testing/rows.ts';
import { SYNC_PAGE_SIZE } from './sync.service.ts';

const NOW = new Date('2026-11-23T08:00:00.000Z');

describe.each(testDialects())('sync feed on %s', (dialect) => {
  let t: TestServer;
  let co: BookableCompany;
  let other: BookableCompany;
  let global: TestPerson;

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW });
    co = await bookableCompany(t, { name: 'Sync Salon', capacity: 5 });
    other = await bookableCompany(t, { name: 'Elsewhere' });
    global = await addGlobalAdmin(t);
  });
  afterAll(async () => t?.close());

  const feed = (since?: string, token = co.employee.token, extra = '') =>
    t.call('GET', `/sync/appointments?${since === undefined ? '' : `since=${encodeURIComponent(since)}`}${extra}`, { token });
  const book = (start: string) =>
    t.call('POST', '/appointments', { token: co.admin.token, body: { service_type_ids: [co.serviceId], start_time: start } });

  it('gives a full copy, then each change after the cursor in order, with tombstones', async () => {
    const a1 = (await book('2026-11-24T09:00:00Z')).body;
    const a2 = (await book('2026-11-24T10:00:00Z')).body;
    await t.call('POST', '/appointments', {
      token: other.admin.token,
      body: { service_type_ids: [other.serviceId], start_time: '2026-11-24T09:00:00Z' },
    });

    const first = await feed();
    expect(first.status, first.text).toBe(200);
    expect(first.body.has_more).toBe(false);
    expect(first.body.changes).toEqual([
      { op: 'upsert', appointment: expect.objectContaining({ id: a1.id, version: 1 }) },
      { op: 'upsert', appointment: expect.objectContaining({ id: a2.id, version: 1 }) },
    ]);
    const cursor = first.body.cursor as string;
    expect(cursor).toMatch(/^\d+$/);

    expect((await feed(cursor)).body).toEqual({ changes: [], cursor, has_more: false });

    const a3 = (
      await t.call('POST', '/appointments', {
        body: {
          company_id: co.companyId,
          service_type_ids: [co.serviceId],
          start_time: '2026-11-24T11:00:00Z',
          customer: customerContact(),
        },
      })
    ).body;
    await t.call('PUT', `/appointments/${a1.id}`, { token: co.admin.token, body: { status: 'cancelled' } });
    await t.call('PUT', `/appointments/${a1.id}`, { token: co.admin.token, body: { description: 'after cancel' } });
    await t.call('DELETE', `/appointments/${a2.id}`, { token: co.admin.token });

    const next = await feed(cursor);
    expect(next.body.has_more).toBe(false);
    expect(next.body.changes).toEqual([
      { op: 'upsert', appointment: expect.objectContaining({ id: a3.id, customer_email: expect.any(String) }) },
      // Two changes of a1 collapse into its latest state.
      { op: 'upsert', appointment: expect.objectContaining({ id: a1.id, status: 'cancelled', version: 3, description: 'after cancel' }) },
      { op: 'delete', id: a2.id },
    ]);
    expect(Number(next.body.cursor)).toBeGreaterThan(Number(cursor));
    expect((await feed(next.body.cursor)).body.changes).toEqual([]);

    // From the very beginning of the log: every change, the deleted appointment only as a tombstone.
    const all = await feed('0');
    expect(all.body.changes.map((c: any) => (c.op === 'delete' ? `delete:${c.id}` : `upsert:${c.appointment.id}`))).toEqual([
      `upsert:${a3.id}`,
      `upsert:${a1.id}`,
      `delete:${a2.id}`,
    ]);
    // A copy made now has the cancelled one and not the deleted one.
    const copy = await feed();
    expect(copy.body.changes.map((c: any) => c.appointment.id)).toEqual([a1.id, a3.id]);
  });

  it('sends again the appointments showing a renamed customer, employee or service, with the new name', async () => {
    const c = await bookableCompany(t, { name: 'Rename Salon' });
    const mine = await t.call('POST', '/appointments', {
      token: c.admin.token,
      body: { service_type_ids: [c.serviceId], start_time: '2026-11-25T09:00:00Z', user_id: c.customer.id, employee_id: c.employee.id },
    });
    expect(mine.status, mine.text).toBe(201);
    const other = await t.call('POST', '/appointments', {
      token: c.admin.token,
      body: { service_type_ids: [c.serviceId], start_time: '2026-11-25T11:00:00Z', employee_id: c.manager.id },
    });
    expect(other.status, other.text).toBe(201);
    let cursor = '';
    const drain = async () => {
      let page = await t.call('GET', `/sync/appointments${cursor ? `?since=${cursor}` : ''}`, { token: c.employee.token });
      const all = [...page.body.changes];
      while (page.body.has_more) {
        page = await t.call('GET', `/sync/appointments?since=${page.body.cursor}`, { token: c.employee.token });
        all.push(...page.body.changes);
      }
      cursor = page.body.cursor;
      return all as { op: string; appointment: any }[];
    };
    await drain();

    const renamed = async (path: string, body: Record<string, unknown>) =>
      expect((await t.call('PUT', path, { token: c.admin.token, body })).status).toBe(200);
    await renamed(`/users/${c.customer.id}`, { name: 'Renamed Customer' });
    expect((await drain()).map((ch) => [ch.appointment.id, ch.appointment.customer_name])).toEqual([[mine.body.id, 'Renamed Customer']]);
    await renamed(`/users/${c.employee.id}`, { name: 'Renamed Employee' });
    expect((await drain()).map((ch) => [ch.appointment.id, ch.appointment.employee_name])).toEqual([[mine.body.id, 'Renamed Employee']]);
    await renamed(`/service-types/${c.serviceId}`, { name: 'Renamed Cut' });
    const both = await drain();
    expect(both.map((ch) => ch.appointment.id).sort()).toEqual([mine.body.id, other.body.id].sort());
    for (const ch of both) expect(ch.appointment.service_types).toEqual([{ id: c.serviceId, name: 'Renamed Cut' }]);
    // A change that shows nowhere on an appointment (a price) sends nothing.
    await renamed(`/service-types/${c.serviceId}`, { price: 42 });
    expect(await drain()).toEqual([]);
  });

  it(`pages by ${SYNC_PAGE_SIZE}: the first copy and the change log alike`, async () => {
    const c = await bookableCompany(t, { name: 'Many' });
    const iso = NOW.toISOString();
    const rows = Array.from({ length: SYNC_PAGE_SIZE + 20 }, (_, i) =>
      appointmentRow({
        company_id: c.companyId,
        start_time: new Date(Date.parse('2026-12-01T00:00:00Z') + i * 3600_000).toISOString(),
        end_time: new Date(Date.parse('2026-12-01T00:30:00Z') + i * 3600_000).toISOString(),
        created_at: iso,
        updated_at: iso,
      }),
    );
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 200) {
      ids.push(
        ...(
          await t.db
            .insertInto('appointments')
            .values(rows.slice(i, i + 200))
            .returning('id')
            .execute()
        ).map((r) => r.id),
      );
    }
    await t.db
      .insertInto('sync_changes')
      .values(ids.map((id) => ({ company_id: c.companyId, appointment_id: id, op: 'upsert' as const, created_at: iso })))
      .execute();

    const p1 = await feed(undefined, c.admin.token);
    expect(p1.body.changes).toHaveLength(SYNC_PAGE_SIZE);
    expect(p1.body.has_more).toBe(true);
    expect(p1.body.cursor).toMatch(/^snapshot:/);
    const p2 = await feed(p1.body.cursor, c.admin.token);
    expect(p2.body.changes).toHaveLength(20);
    expect(p2.body.has_more).toBe(false);
    expect([...p1.body.changes, ...p2.body.changes].map((x: any) => x.appointment.id)).toEqual(ids);
    // The snapshot noted the log position first: nothing is replayed that was already in the log then.
    expect((await feed(p2.body.cursor, c.admin.token)).body.changes).toEqual([]);

    const l1 = await feed('0', c.admin.token);
    expect(l1.body.changes).toHaveLength(SYNC_PAGE_SIZE);
    expect(l1.body.has_more).toBe(true);
    const l2 = await feed(l1.body.cursor, c.admin.token);
    expect(l2.body.changes).toHaveLength(20);
    expect(l2.body.has_more).toBe(false);
  });

  it("is for the company's staff (global_admin names the company); bad cursors answer 400", async () => {
    expect((await t.call('GET', '/sync/appointments')).status).toBe(401);
    expect((await feed(undefined, co.customer.token)).status).toBe(403);
    expect((await feed(undefined, other.admin.token, `&company_id=${co.companyId}`)).status).toBe(404);
    expect((await feed(undefined, global.token)).status).toBe(400);
    const g = await feed(undefined, global.token, `&company_id=${co.companyId}`);
    expect(g.status).toBe(200);
    expect((await feed(undefined, global.token, '&company_id=999999')).status).toBe(404);
    // Another company's feed never shows this company's appointments.
    const theirs = await feed('0', other.employee.token);
    expect(theirs.body.changes.every((c: any) => c.op === 'delete' || c.appointment.company_id === other.companyId)).toBe(true);
    for (const bad of ['abc', '-1', '1.5', 'snapshot:1', 'snapshot:a:b', '9'.repeat(40), "1' or '1'='1"]) {
      const res = await feed(bad);
      expect(res.status, bad).toBe(400);
    }
  });
});
