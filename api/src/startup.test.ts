// Several processes starting together on a new SQLite file: one migrates, the others wait for it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from './testing/harness.ts';
import { spawnServer, type ServerProcess } from './testing/process.ts';

describe('start-up on a new SQLite file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-startup-'));
  let servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lets three processes migrate at once and all serve the same database', async () => {
    const env = { DATABASE_URL: `file:${path.join(dir, 'app.db')}`, DISABLE_SCHEDULER: 'true' };
    servers = await Promise.all([spawnServer(env), spawnServer(env), spawnServer(env)]);
    const reg = await call(servers[0].url, 'POST', '/register', { body: { name: 'A', email: 'a@startup.test', password: 'secret123', company_name: 'Startup' } });
    expect(reg.status).toBe(200);
    for (const s of servers) expect((await call(s.url, 'GET', '/me', { token: reg.body.token })).status).toBe(200);
  }, 90_000);
});
