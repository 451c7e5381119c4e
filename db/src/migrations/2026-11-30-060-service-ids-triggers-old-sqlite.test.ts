// Migration 060: the database opens in an SQLite older than 3.44 (Debian 12's sqlite3 shell is 3.40),
// which cannot parse migration 059's `group_concat(... order by ...)` and refused the whole file as
// "malformed database schema"; the copy of an appointment's services stays ascending.
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { connect, migrateToLatest, type DatabaseHandle } from '../connect.ts';
import { createTestDatabase, type TestDatabase } from '../testing/index.ts';
import { insertedId } from '../testing/migration-test.ts';
import { down, up } from './2026-11-30-060-service-ids-triggers-old-sqlite.ts';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const shell = ['/usr/bin/sqlite3', '/usr/local/bin/sqlite3'].find((p) => fs.existsSync(p)) ?? null;
if (!shell && !ci)
  console.log('SKIPPED the sqlite3 shell check of migration 060: no sqlite3 shell (apt-get install -y sqlite3; .ci/run installs it)');

/** The schema's statements that use an aggregate's ORDER BY, which SQLite parses only from 3.44. */
const newSyntax = async (db: Kysely<any>) =>
  (await sql<{ name: string; sql: string }>`select name, sql from sqlite_schema where sql is not null`.execute(db)).rows
    .filter((r) => /group_concat\([^()]*\border\s+by\b/i.test(r.sql))
    .map((r) => r.name);

describe('migration 2026-11-30-060-service-ids-triggers-old-sqlite on sqlite', () => {
  let database: TestDatabase;
  let h: DatabaseHandle;
  let companyId: number;
  const services: number[] = [];

  const appointment = async (hour: number, ...links: number[]) => {
    const id = await insertedId(h.db, 'appointments', {
      company_id: companyId,
      start_time: new Date(Date.UTC(2027, 0, 1, hour)).toISOString(),
      end_time: new Date(Date.UTC(2027, 0, 1, hour + 1)).toISOString(),
    });
    for (const service_type_id of links)
      await h.db.insertInto('appointment_service_types').values({ appointment_id: id, service_type_id }).execute();
    return id;
  };
  const copy = async (id: number) =>
    (await h.db.selectFrom('appointments').select('service_ids').where('id', '=', id).executeTakeFirstOrThrow()).service_ids;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    h = connect(database.url);
    const res = await migrateToLatest(h);
    if (res.error) throw res.error;
    companyId = await insertedId(h.db, 'companies', { name: 'old', slug: 'old' });
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'])
      services.push(await insertedId(h.db, 'service_types', { company_id: companyId, name, duration_minutes: 60 }));
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  if (shell) {
    // First, on the schema migrateToLatest left (the tests below run down() and up()).
    it(`opens in this machine's sqlite3 shell (${execFileSync(shell, ['--version']).toString().split(' ')[0]})`, () => {
      const file = database.url.replace(/^file:/, '');
      const out = execFileSync(shell, ['-readonly', file, 'select count(*) from appointments; pragma integrity_check;'], {
        encoding: 'utf8',
      });
      expect(out.trim().split('\n')).toEqual([expect.stringMatching(/^\d+$/), 'ok']);
    });
  } else if (ci) {
    it('needs the sqlite3 shell under CI=true', () => {
      expect.fail('the sqlite3 shell is not installed: the check that it opens the database did NOT run (.ci/run installs it)');
    });
  } else it.skip('skipped: no sqlite3 shell (apt-get install -y sqlite3)', () => {});

  it('leaves no syntax of SQLite 3.44 in the schema, and the copy of the services stays ascending', async () => {
    expect(await newSyntax(h.db as unknown as Kysely<any>)).toEqual([]);
    const [s1, s2, , , , , , , , , , s12] = services;
    const a = await appointment(9, s12, s2, s1);
    expect(await copy(a)).toBe(`${s1},${s2},${s12}`); // numeric order: 12 after 2
    await h.db.deleteFrom('appointment_service_types').where('appointment_id', '=', a).where('service_type_id', '=', s2).execute();
    expect(await copy(a)).toBe(`${s1},${s12}`);
    await h.db
      .updateTable('appointment_service_types')
      .set({ service_type_id: s2 })
      .where('appointment_id', '=', a)
      .where('service_type_id', '=', s1)
      .execute();
    expect(await copy(a)).toBe(`${s2},${s12}`);
  });

  it("down() puts migration 059's triggers back, up() this one's again", async () => {
    const any = h.db as unknown as Kysely<any>;
    await down(any);
    expect(await newSyntax(any)).toEqual([
      'appointment_service_ids_link',
      'appointment_service_ids_unlink',
      'appointment_service_ids_move',
    ]);
    await up(any);
    expect(await newSyntax(any)).toEqual([]);
    const [s1, s2, s3] = services;
    expect(await copy(await appointment(12, s3, s1, s2))).toBe(`${s1},${s2},${s3}`);
  });
});
