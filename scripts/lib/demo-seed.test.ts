// The demo company is what a new user tries first: its people's phone numbers are stored as the API
// stores any number it is given (E.164, docs/decisions/22-messaging.md, "SMS and phone numbers"), so SMS and
// the directory treat them like real ones.
import { afterAll, describe, expect, it } from 'vitest';
import { connect, migrateToLatest } from '@bookwell/db';
import { createTestDatabase } from '@bookwell/db/testing';
import { toE164 } from '../../api/src/lib/phone.ts';
import { seedDemo } from './demo-seed.ts';

describe('the demo seed', async () => {
  const target = await createTestDatabase('sqlite');
  afterAll(() => target.drop());

  it('stores every phone number in E.164, as the API would have', async () => {
    const database = connect(target.url);
    try {
      await migrateToLatest(database);
      await seedDemo(database.db);
      const phones = (await database.db.selectFrom('users').select('phone').where('phone', 'is not', null).execute()).map((u) => u.phone!);
      expect(phones.length).toBeGreaterThan(30);
      for (const phone of phones) expect(phone).toBe(toE164(phone, null));
    } finally {
      await database.close();
    }
  });
});
