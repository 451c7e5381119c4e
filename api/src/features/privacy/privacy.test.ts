// Export and erasure through real HTTP on every dialect (docs/decisions/12-operations-security-privacy.md,
// docs/decisions/32-privacy-and-operations.md): who may call, what the export holds, and that an
// erased customer leaves no name, email or phone anywhere while their bookings stay on the calendar.
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@bookwell/db/testing';
import { issueToken } from '../../lib/auth.ts';
import { SYSTEM_AUDIT } from '../../lib/audit-context.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { addGlobalAdmin, companyWithPeople, type TestCompany, type TestPerson } from '../../testing/company-people.ts';
import { bookableCompany, customerContact, type BookableCompany } from '../../testing/booking-fixtures.ts';

// Monday 23 November 2026, 08:00 in London: Tuesday's slots are bookable.
const NOW = new Date('2026-11-23T08:00:00.000Z');

describe.each(testDialects())('privacy on %s', (dialect) => {
  let t: TestServer;
  let a: BookableCompany;
  let b: TestCompany;
  let root: TestPerson;

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW });
    a = await bookableCompany(t, { name: 'Privacy Salon' });
    b = await companyWithPeople(t, 'Other Salon');
    root = await addGlobalAdmin(t);
  });
  afterAll(async () => t?.close());

  /** An anonymous booking (which creates the customer by email), then that customer signed in. */
  async function bookedCustomer(start: string, name: string, phones = ['+442079460000', '+442079460001']) {
    const contact = { ...customerContact(name), phone: phones[0] };
    const res = await t.call('POST', '/appointments', {
      body: { company_id: a.companyId, service_type_ids: [a.serviceId], start_time: start, customer: contact },
    });
    expect(res.status, res.text).toBe(201);
    const user = await t.db.selectFrom('users').selectAll().where('email', '=', contact.email).executeTakeFirstOrThrow();
    await t.db.updateTable('users').set({ password_hash: 'test-only-not-a-hash', phone: phones[1] }).where('id', '=', user.id).execute();
    const token = await issueToken(t.server.deps.jwtKey, user);
    return { id: user.id, token, contact, appointmentId: res.body.id as number };
  }

  /** Every row of the tables that hold people's details, as one string to search. */
  async function everythingStored(): Promise<string> {
    const tables = ['users', 'appointments', 'outbox_messages', 'idempotency_keys', 'password_tokens', 'audit_log'] as const;
    const dumps = await Promise.all(tables.map((table) => t.db.selectFrom(table).selectAll().execute()));
    return JSON.stringify(dumps);
  }

  it('exports the profile, appointments and messages to the person and to an admin of their company only', async () => {
    const c = await bookedCustomer('2026-11-24T09:00:00.000Z', 'Export Person');
    for (const token of [c.token, a.admin.token]) {
      const res = await t.call('GET', `/users/${c.id}/export`, { token });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-disposition')).toContain('attachment');
      expect(res.body.profile).toMatchObject({
        id: c.id,
        name: 'Export Person',
        email: c.contact.email,
        role: 'customer',
        company_name: 'Privacy Salon',
      });
      expect(res.body.appointments).toEqual([
        expect.objectContaining({
          id: c.appointmentId,
          as: 'customer',
          status: 'booked',
          services: ['Haircut'],
          customer_name: 'Export Person',
          customer_email: c.contact.email,
          customer_phone: c.contact.phone,
        }),
      ]);
      // The booking confirmation (queued: no dispatcher runs in tests), without its body.
      expect(res.body.messages.some((m: any) => m.to_address === c.contact.email && m.channel === 'email')).toBe(true);
      expect(res.text).not.toMatch(/body_text|password|token/);
    }
    // Someone who may see them but not act for them: 403; someone who may not see them: 404.
    for (const who of [a.employee, a.manager, root])
      expect((await t.call('GET', `/users/${c.id}/export`, { token: who.token })).status).toBe(403);
    for (const who of [b.admin, a.customer]) expect((await t.call('GET', `/users/${c.id}/export`, { token: who.token })).status).toBe(404);
    expect((await t.call('GET', `/users/${c.id}/export`)).status).toBe(401);
    expect((await t.call('GET', '/users/999999/export', { token: a.admin.token })).status).toBe(404);
  });

  // SQLite's file only: PostgreSQL keeps old row versions until autovacuum (decision 32).
  if (dialect === 'sqlite')
    it('leaves none of the erased details in the SQLite file itself, once checkpointed', async () => {
      // The rows no longer hold them; the file's pages must not either (a copy of the file is a backup).
      const c = await bookedCustomer('2026-11-24T13:00:00.000Z', 'Quentin Forgettable', ['+442079460091', '+442079460092']);
      const res = await t.call('POST', `/users/${c.id}/erase`, { token: c.token });
      expect(res.status, res.text).toBe(200);
      // The server's background checkpointer (db/src/checkpointer.ts) may be checkpointing at this very
      // moment, and then ours reports busy: try again until one finishes, as an operator would.
      let busy = 1;
      for (let attempt = 0; busy !== 0 && attempt < 100; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        busy = (await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(t.db)).rows[0].busy;
      }
      expect(busy, 'a checkpoint finished').toBe(0);
      const file = t.server.deps.config.DATABASE_URL.replace(/^file:/, '');
      const bytes = [file, `${file}-wal`]
        .filter((f) => fs.existsSync(f))
        .map((f) => fs.readFileSync(f).toString('latin1'))
        .join('');
      for (const value of [c.contact.email, 'Quentin Forgettable', '+442079460091', '+442079460092'])
        expect(bytes.includes(value), value).toBe(false);
    });

  it('erases a customer: details gone everywhere, bookings kept as "Deleted customer", pending messages cancelled, signed out', async () => {
    const c = await bookedCustomer('2026-11-24T10:00:00.000Z', 'Erin Erasable', ['+442079460077', '+442079460078']);
    const pendingBefore = await t.db
      .selectFrom('outbox_messages')
      .select('id')
      .where('to_address', '=', c.contact.email)
      .where('state', '=', 'pending')
      .execute();
    expect(pendingBefore.length).toBeGreaterThan(0);
    // An earlier audit entry holding their details (as the staff's edit of their profile records).
    await recordAudit(t.db, SYSTEM_AUDIT, {
      company_id: a.companyId,
      action: 'update',
      entity: 'user',
      entity_id: c.id,
      changes: {
        name: { new: 'Erin Erasable' },
        phone: { new: '+442079460078' },
        role: { old: 'customer', new: 'customer' },
      },
    });
    expect(await everythingStored()).toContain(c.contact.email);

    const res = await t.call('POST', `/users/${c.id}/erase`, { token: c.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, erased: true, appointments_kept: 1 });
    expect(res.body.messages_cancelled).toBeGreaterThanOrEqual(pendingBefore.length);

    const stored = await everythingStored();
    for (const value of [c.contact.email, 'Erin Erasable', c.contact.phone, '+442079460078']) expect(stored).not.toContain(value);
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'user')
      .where('entity_id', '=', c.id)
      .orderBy('id')
      .execute();
    expect(audit.at(-1)).toMatchObject({ action: 'erase', actor_user_id: c.id, changes: null, company_id: a.companyId });
    expect(JSON.parse(audit.find((e) => e.action === 'update')!.changes!)).toEqual({
      name: { new: '[erased]' },
      phone: { new: '[erased]' },
      role: { old: 'customer', new: 'customer' },
    });
    const user = await t.db.selectFrom('users').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: 'Deleted customer', phone: null, password_hash: null });
    expect(user.archived_at).not.toBeNull();
    const cancelled = await t.db
      .selectFrom('outbox_messages')
      .select('state')
      .where(
        'id',
        'in',
        pendingBefore.map((m) => m.id),
      )
      .execute();
    expect(cancelled.every((m) => m.state === 'cancelled')).toBe(true);

    // The calendar stays whole: the slot is still taken, shown as "Deleted customer" without contact.
    const seen = await t.call('GET', `/appointments/${c.appointmentId}`, { token: a.employee.token });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      status: 'booked',
      customer_name: 'Deleted customer',
      user_id: null,
      customer_email: null,
      customer_phone: null,
    });
    const again = await t.call('POST', '/appointments', {
      body: {
        company_id: a.companyId,
        service_type_ids: [a.serviceId],
        start_time: '2026-11-24T10:00:00.000Z',
        customer: customerContact(),
      },
    });
    expect(again.status).toBe(409);

    // Their session is over; erasing again (admin, global_admin) answers 200 and changes nothing.
    expect((await t.call('GET', `/users/${c.id}`, { token: c.token })).status).toBe(401);
    for (const who of [a.admin, root]) {
      const twice = await t.call('POST', `/users/${c.id}/erase`, { token: who.token });
      expect(twice.status, twice.text).toBe(200);
      expect(twice.body).toMatchObject({ id: c.id, erased: true, appointments_kept: 0, messages_cancelled: 0 });
    }
    const exported = await t.call('GET', `/users/${c.id}/export`, { token: a.admin.token });
    expect(exported.body.profile).toMatchObject({ name: 'Deleted customer', phone: null });
    expect(exported.body.appointments).toEqual([]);
  });

  it("an erasure rewrites its own company's contact fields only, and a staff member's keyed booking replays without the person", async () => {
    // A customer whose name is a word other entries hold ("cancelled" is a status), booked by staff with a key.
    const c = await bookedCustomer('2026-11-24T12:00:00.000Z', 'cancelled', ['+442079460055', '+442079460056']);
    const keyed = {
      body: {
        company_id: a.companyId,
        service_type_ids: [a.serviceId],
        start_time: '2026-11-25T12:00:00.000Z',
        customer: { ...c.contact, phone: '+442079460056' },
      },
      token: a.admin.token,
      headers: { 'idempotency-key': `erase-replay-${dialect}` },
    };
    const booked = await t.call('POST', '/appointments', keyed);
    expect(booked.status, booked.text).toBe(201);
    expect(booked.body).toMatchObject({ user_id: c.id, customer_email: c.contact.email });
    // The same email at another company, and a cancellation at this one: neither is about this person.
    await recordAudit(t.db, SYSTEM_AUDIT, {
      company_id: b.companyId,
      action: 'create',
      entity: 'user',
      entity_id: b.customer.id,
      changes: { email: { new: c.contact.email }, name: { new: 'cancelled' } },
    });
    await recordAudit(t.db, SYSTEM_AUDIT, {
      company_id: a.companyId,
      action: 'cancel',
      entity: 'appointment',
      entity_id: 999_999,
      changes: { status: { old: 'booked', new: 'cancelled' } },
    });

    expect((await t.call('POST', `/users/${c.id}/erase`, { token: a.admin.token })).status).toBe(200);

    const changesAt = async (companyId: number, entityId: number) =>
      (
        await t.db.selectFrom('audit_log').select('changes').where('company_id', '=', companyId).where('entity_id', '=', entityId).execute()
      ).map((r) => JSON.parse(r.changes!));
    expect(await changesAt(b.companyId, b.customer.id)).toContainEqual({ email: { new: c.contact.email }, name: { new: 'cancelled' } });
    expect(await changesAt(a.companyId, 999_999)).toEqual([{ status: { old: 'booked', new: 'cancelled' } }]);
    // The booking's own entry lost the contact that was typed on it.
    const own = await changesAt(a.companyId, booked.body.id);
    expect(JSON.stringify(own)).not.toContain(c.contact.email);
    // The key still answers (no second booking), as the booking is now: no person, no contact.
    const replay = await t.call('POST', '/appointments', keyed);
    expect(replay.status).toBe(201);
    expect(replay.body).toMatchObject({ id: booked.body.id, user_id: null, customer_name: 'Deleted customer', customer_email: null });
    expect(replay.text).not.toContain(c.contact.email);
    expect(replay.text).not.toContain('+442079460056');
  });

  it('refuses to erase staff, and other companies answer 404 without writing', async () => {
    const employee = await t.call('POST', `/users/${a.employee.id}/erase`, { token: a.admin.token });
    expect(employee.status).toBe(403);
    const c = await bookedCustomer('2026-11-24T11:00:00.000Z', 'Kept Person');
    for (const who of [b.admin, a.customer]) expect((await t.call('POST', `/users/${c.id}/erase`, { token: who.token })).status).toBe(404);
    for (const who of [a.manager, a.employee])
      expect((await t.call('POST', `/users/${c.id}/erase`, { token: who.token })).status).toBe(403);
    const still = await t.db.selectFrom('users').select('name').where('id', '=', c.id).executeTakeFirstOrThrow();
    expect(still.name).toBe('Kept Person');
  });
});
