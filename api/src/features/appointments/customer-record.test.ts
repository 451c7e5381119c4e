// A booking by email finds the company's record of that person or creates a password-less customer,
// and never changes an existing record (docs/decisions/04-customers-and-anonymous-booking.md). On
// PostgreSQL the lookup and the insert are one statement (docs/decisions/38-booking-statements.md),
// which must still give way to a record another request commits while it runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { bookableCompany, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { findOrCreateCustomer } from './appointment.repository.ts';

const NOW = new Date('2026-11-23T08:00:00.000Z');

describe.each(testDialects())('a booking’s customer record on %s', (dialect) => {
  let t: TestServer;
  let co: BookableCompany;

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW });
    co = await bookableCompany(t, { name: 'Record Salon', open: '08:00', close: '20:00' });
  });
  afterAll(async () => t?.close());

  const lookUp = (contact: { name: string; email: string; phone: string | null }) =>
    t.db.transaction().execute((trx) => findOrCreateCustomer(trx, dialect, co.companyId, contact, NOW));
  const rowsOf = (email: string) =>
    t.db.selectFrom('users').selectAll().where('company_id', '=', co.companyId).where('email', '=', email).execute();

  it('creates a password-less customer for a new email, lower-cased, once', async () => {
    const first = await lookUp({ name: 'Ana New', email: 'Ana.New@Example.test', phone: '+442079460001' });
    expect(first).toMatchObject({
      name: 'Ana New',
      email: 'ana.new@example.test',
      phone: '+442079460001',
      role: 'customer',
      created: true,
    });
    const [row] = await rowsOf('ana.new@example.test');
    expect(row).toMatchObject({ id: first.id, role: 'customer', password_hash: null, token_version: 0, archived_at: null });
    expect(new Date(row.created_at).toISOString()).toBe(NOW.toISOString());
    expect(new Date(row.updated_at).toISOString()).toBe(NOW.toISOString());

    const again = await lookUp({ name: 'Someone Else', email: 'ana.new@example.test', phone: null });
    expect(again).toEqual({
      id: first.id,
      name: 'Ana New',
      email: 'ana.new@example.test',
      phone: '+442079460001',
      role: 'customer',
      created: false,
    });
    expect(await rowsOf('ana.new@example.test')).toHaveLength(1);
  });

  it('finds a staff member by their email and leaves their record as it was', async () => {
    const before = await t.db.selectFrom('users').selectAll().where('id', '=', co.admin.id).executeTakeFirstOrThrow();
    const found = await lookUp({ name: 'Not The Admin', email: before.email.toUpperCase(), phone: '+442079460002' });
    expect(found).toMatchObject({ id: co.admin.id, name: before.name, role: 'admin', created: false });
    expect(await rowsOf(before.email)).toEqual([before]);
  });
});

// PostgreSQL only: SQLite's booking holds the database's write lock, so no other insert can run meanwhile.
describe.each(testDialects().filter((d) => d === 'postgres'))('a booking’s customer record racing another insert on %s', (dialect) => {
  let t: TestServer;
  let co: BookableCompany;

  beforeAll(async () => {
    t = await startTestServer(dialect, { now: () => NOW });
    co = await bookableCompany(t, { name: 'Race Record Salon', open: '08:00', close: '20:00' });
  });
  afterAll(async () => t?.close());

  const lookUp = (contact: { name: string; email: string; phone: string | null }) =>
    t.db.transaction().execute((trx) => findOrCreateCustomer(trx, dialect, co.companyId, contact, NOW));
  const rowsOf = (email: string) =>
    t.db.selectFrom('users').selectAll().where('company_id', '=', co.companyId).where('email', '=', email).execute();

  // The one statement reads in its snapshot: a record another request inserted but had not yet
  // committed is invisible to its lookup, and its insert waits on that row's unique key. When the other
  // commits, ON CONFLICT skips the insert, neither part answers, and the record is read again.
  it('gives way to the same email committed by another request while it waits', async () => {
    const email = 'raced@example.test';
    let waiting: Promise<Awaited<ReturnType<typeof lookUp>>> | undefined;
    await t.db.transaction().execute(async (other) => {
      await other
        .insertInto('users')
        .values({
          company_id: co.companyId,
          name: 'Staff Typed',
          email,
          phone: null,
          role: 'customer',
          token_version: 0,
          created_at: NOW.toISOString(),
          updated_at: NOW.toISOString(),
        })
        .execute();
      waiting = lookUp({ name: 'Booker Typed', email, phone: null });
      // Commit only once the lookup's insert waits for this transaction.
      for (let i = 0; ; i++) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where wait_event_type = 'Lock' and query like '%with "found"%'`.execute(t.db);
        if (rows[0].n > 0) break;
        if (i > 200) throw new Error('the lookup never waited for the other insert');
        await new Promise((r) => setTimeout(r, 10));
      }
    });
    const found = await waiting!;
    const rows = await rowsOf(email);
    expect(rows).toHaveLength(1);
    expect(found).toMatchObject({ id: rows[0].id, name: 'Staff Typed', created: false });
  });
});
