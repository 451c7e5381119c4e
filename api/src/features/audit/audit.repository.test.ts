// The audit log's recording function on both databases: an entry lives and dies with its write's
// transaction, secrets never reach it, pages come newest first, erasure rewrites earlier values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, migrateToLatest, type DatabaseHandle } from '@bookwell/db';
import { createTestDatabase, testDialects, type TestDatabase } from '@bookwell/db/testing';
import { SYSTEM_AUDIT, type AuditContext } from '../../lib/audit-context.ts';
import { diffChanges, listAuditEntries, recordAudit, replaceAuditValues } from './audit.repository.ts';

const who: AuditContext = { actor_user_id: 7, actor_role: 'admin', ip: '10.0.0.1', request_id: 'req-1' };

describe.each(testDialects())('audit repository on %s', (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = await connect(database.url);
    await migrateToLatest(h);
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  it('keeps an entry only when its transaction commits', async () => {
    await h.db
      .transaction()
      .execute((tx) => recordAudit(tx, who, { company_id: 1, action: 'create', entity: 'service_type', entity_id: 5 }));
    await expect(
      h.db.transaction().execute(async (tx) => {
        await recordAudit(tx, who, { company_id: 1, action: 'update', entity: 'service_type', entity_id: 5 });
        throw new Error('write failed');
      }),
    ).rejects.toThrow('write failed');
    const rows = await listAuditEntries(h.db, { company_id: 1, entity: 'service_type', entity_id: 5, limit: 10 });
    expect(rows.map((r) => r.action)).toEqual(['create']);
    expect(rows[0]).toMatchObject({ actor_user_id: 7, actor_role: 'admin', ip: '10.0.0.1', request_id: 'req-1', company_id: 1 });
    expect(rows[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('never stores a password, token, hash or nonce field', async () => {
    await recordAudit(h.db, SYSTEM_AUDIT, {
      company_id: 2,
      action: 'update',
      entity: 'user',
      entity_id: 9,
      changes: {
        name: { old: 'A', new: 'B' },
        password_hash: { new: 'x' },
        manage_token: { new: 'y' },
        nonce: { new: 'z' },
        password: { new: 'p' },
      },
    });
    const [row] = await listAuditEntries(h.db, { company_id: 2, limit: 1 });
    expect(row!.changes).toEqual({ name: { old: 'A', new: 'B' } });
  });

  it('pages newest first with before', async () => {
    for (let i = 0; i < 5; i++) await recordAudit(h.db, who, { company_id: 3, action: 'update', entity: 'company', entity_id: 3 });
    const first = await listAuditEntries(h.db, { company_id: 3, limit: 3 });
    const second = await listAuditEntries(h.db, { company_id: 3, limit: 3, before: first.at(-1)!.id });
    const ids = [...first, ...second].map((r) => r.id);
    expect(ids).toHaveLength(5);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('diffChanges keeps only changed fields', () => {
    expect(diffChanges({ a: 1, b: 'x', c: null }, { a: 1, b: 'y', c: undefined })).toEqual({ b: { old: 'x', new: 'y' } });
  });

  it('replaceAuditValues rewrites the erased values in contact fields of their own company only', async () => {
    const entry = (
      company_id: number | null,
      entity: 'appointment' | 'user',
      entity_id: number | null,
      changes: object,
      action = 'create',
    ) => recordAudit(h.db, who, { company_id, action, entity, entity_id, changes: changes as never });
    // Another booking of company 4 that names the same person, and a status equal to their name.
    await entry(4, 'appointment', 1, {
      customer_name: { new: 'Ann O_Neil' },
      customer_email: { new: 'Ann@Example.test' },
      notes: { new: 'kept' },
    });
    await entry(4, 'appointment', 2, { status: { old: 'booked', new: 'Booked' }, customer_name: { new: 'Bob' } });
    // Their own row, under the name they had before (no value of today's equals it).
    await entry(4, 'user', 50, { name: { old: 'Ann Smith', new: 'Ann O_Neil' }, role: { new: 'customer' } }, 'update');
    // Their booking, typed under another spelling.
    await entry(4, 'appointment', 3, { customer_name: { new: 'A. O.' }, customer_phone: { new: '+12025550100' } });
    // The same email at another company, and a failed sign-in with it that no company saw.
    await entry(5, 'appointment', 9, { customer_email: { new: 'ann@example.test' } });
    await entry(null, 'user', null, { email: { new: 'ANN@example.test' } }, 'login_failed');

    const changed = await replaceAuditValues(h.db, {
      companyId: 4,
      userId: 50,
      appointmentIds: [3],
      values: ['ann o_neil', 'ann@example.test', 'booked'],
      email: 'ann@example.test',
    });
    expect(changed).toBe(4);
    const changesOf = async (company_id: number) => (await listAuditEntries(h.db, { company_id, limit: 10 })).map((r) => r.changes);
    expect(await changesOf(4)).toEqual([
      { customer_name: { new: '[erased]' }, customer_phone: { new: '[erased]' } },
      { name: { old: '[erased]', new: '[erased]' }, role: { new: 'customer' } },
      { status: { old: 'booked', new: 'Booked' }, customer_name: { new: 'Bob' } },
      { customer_name: { new: '[erased]' }, customer_email: { new: '[erased]' }, notes: { new: 'kept' } },
    ]);
    expect(await changesOf(5)).toEqual([{ customer_email: { new: 'ann@example.test' } }]);
    const [failed] = await listAuditEntries(h.db, { entity: 'user', limit: 1 });
    expect(failed!.changes).toEqual({ email: { new: '[erased]' } });
  });
});
