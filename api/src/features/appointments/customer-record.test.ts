// A booking by email finds the company's record of that person or creates a password-less customer,
// and never changes an existing record (docs/decisions/04-customers-and-anonymous-booking.md). On
// PostgreSQL the lookup and the insert are one statement (docs/decisions/38-booking-statements.md),
// which must still give way to a record another request commits while it runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Dialect } from '@bookwell/db';
import { testDialects } from '@bookwell/db/testing';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import { bookableCompany, type BookableCompany } from '../../testing/booking-fixtures.ts';
import { findOrCreateCustomer } from './appointment.repository.ts';

const NOW = new Date('2026-11-23T08:00:00.000Z');

/** A server on `dialect` with one company, and the customer lookup as a booking's transaction runs it. */
function companyOn(dialect: Dialect, name: string) {
  const s = {} as { t: TestServer; co: BookableCompany };
  beforeAll(async () => {
    s.t = await startTestServer(dialect, { now: () => NOW });
    s.co = await bookableCompany(s.t, { name, open: '08:00', close: '20:00' });
  });
  afterAll(async () => s.t?.close());
  const lookUp = (contact: { name: string; email: string; phone: string | null }) =>
    s.t.db.transaction().execute((trx) => findOrCreateCustomer(trx, dialect, s.co.companyId, contact, NOW));
  const rowsOf = (email: string) =>
    s.t.db.selectFrom('users').selectAll().where('company_id', '=', s.co.companyId).where('email', '=', email).execute();
  return { s, lookUp, rowsOf };
}

describe.each(testDialects())('a booking’s customer record on %s', (dialect) => {
  const { s, lookUp, rowsOf } = companyOn(dialect, 'Record Salon');

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
    const before = await s.t.db.selectFrom('users').selectAll().where('id', '=', s.co.admin.id).executeTakeFirstOrThrow();
    const found = await lookUp({ name: 'Not The Admin', email: before.email.toUpperCase(), phone: '+442079460002' });
    expect(found).toMatchObject({ id: s.co.admin.id, name: before.name, role: 'admin', created: false });
    expect(await rowsOf(before.email)).toEqual([before]);
  });
});

// PostgreSQL only: SQLite's booking holds the database's write lock, so no other insert can run meanwhile.
describe.each(testDialects().filter((d) => d === 'postgres'))('a booking’s customer record racing another insert on %s', (dialect) => {
  const { s, lookUp, rowsOf } = companyOn(dialect, 'Race Record Salon');

  // The one statement reads in its snapshot: a record another request inserted but had not yet
  // committed is invisible to its lookup, and its insert waits on that row's unique key. When the other
  // commits, ON CONFLICT skips the insert, neither part answers, and the record is read again.
  it('gives way to the same email committed by another request while it waits', async () => {
    const email = 'raced@example.test';
    let waiting: Promise<Awaited<ReturnType<typeof lookUp>>> | undefined;
    await s.t.db.transaction().execute(async (other) => {
      await other
        .insertInto('users')
        .values({
          company_id: s.co.companyId,
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
          where wait_event_type = 'Lock' and query like '%with "found"%'`.execute(s.t.db);
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
