// `npm run backup -- <file>` against a running server that keeps writing: the copy is whole,
// consistent and can be started from (docs/decisions/32-privacy-and-operations.md).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../api/src/testing/process.ts';

const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-backup-'));

describe('npm run backup', () => {
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('copies the live SQLite database while the server writes, and the copy starts a server', async () => {
    const live = path.join(dir, 'live.db');
    const server = await spawnServer({ DATABASE_URL: `file:${live}`, DISABLE_SCHEDULER: 'true', RATE_LIMIT_PUBLIC: '100000' });
    const register = (i: number) =>
      fetch(`${server.url}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `Owner ${i}`,
          email: `owner${i}@backup.test`,
          password: 'long-enough-password',
          company_name: `Backup Salon ${i}`,
        }),
      });
    try {
      for (let i = 0; i < 5; i++) expect((await register(i)).ok).toBe(true);
      // Writes keep coming while the copy is taken.
      let writing = true;
      let written = 5;
      const writer = (async () => {
        while (writing) if ((await register(written)).ok) written++;
      })();
      const target = path.join(dir, 'copies', 'backup.db');
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'backup.ts'), target], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: `file:${live}` },
      });
      writing = false;
      await writer;
      expect(stdout).toContain('integrity check ok');
      expect(fs.existsSync(`${target}-wal`)).toBe(false);

      const copy = new Database(target, { readonly: true });
      const companies = (copy.prepare('select count(*) as n from companies').get() as { n: number }).n;
      const owners = (copy.prepare("select count(*) as n from users where role = 'admin'").get() as { n: number }).n;
      copy.close();
      // One commit's state: at least what was there before, never more than was written, every company with its owner.
      expect(companies).toBeGreaterThanOrEqual(5);
      expect(companies).toBeLessThanOrEqual(written);
      expect(owners).toBe(companies);

      // Restoring is copying the file back: a server started on it is ready and signs people in.
      const restored = await spawnServer({ DATABASE_URL: `file:${target}`, DISABLE_SCHEDULER: 'true' });
      try {
        expect((await fetch(`${restored.url}/api/ready`)).status).toBe(200);
        const login = await fetch(`${restored.url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'owner0@backup.test', password: 'long-enough-password' }),
        });
        expect(login.status).toBe(200);
      } finally {
        await restored.stop();
      }
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('refuses PostgreSQL with the pg_dump command instead', async () => {
    const run = promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts', 'backup.ts'), path.join(dir, 'x.db')],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' },
      },
    );
    await expect(run).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('pg_dump') });
  }, 60_000);
});
