// The message-kind migration on both databases: rows queued under the old names get the names of docs/decisions/10-reminders-and-sms.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type DatabaseHandle } from '../connect.ts';
import { testDialects, type TestDatabase } from '../testing/index.ts';
import { databaseWithout } from '../testing/migration-test.ts';

const NAME = '2026-11-25-044-message-kinds';

describe.each(testDialects())('migration %s on %s', (dialect) => {
  let database: TestDatabase;
  let h: DatabaseHandle;

  beforeAll(async () => {
    ({ database, h } = await databaseWithout(dialect, NAME));
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  it('renames the old kinds and leaves the right ones alone', async () => {
    const old = [
      'appointment_confirmation',
      'appointment_reschedule',
      'appointment_cancellation',
      'password_invite',
      'password_reset',
      'customer_added',
      'reminder',
      'staff_notice',
    ];
    for (const [i, kind] of old.entries()) {
      await h.db
        .insertInto('outbox_messages')
        .values({
          channel: 'email',
          kind,
          to_address: `p${i}@example.test`,
          body_text: 'x',
          message_id: `<m${i}@test>`,
          state: 'sent',
          attempts: 1,
          due_at: '2026-11-20T10:00:00.000Z',
          created_at: '2026-11-20T10:00:00.000Z',
        } as never)
        .execute();
    }
    await migrateToLatest(h);
    const rows = await h.db.selectFrom('outbox_messages').select(['to_address', 'kind']).orderBy('id').execute();
    expect(rows.map((r) => r.kind)).toEqual([
      'confirmation',
      'reschedule',
      'cancellation',
      'invitation',
      'password_reset',
      'invitation',
      'reminder',
      'staff_notice',
    ]);
  });
});
