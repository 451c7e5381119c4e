// Several processes starting together on a new SQLite file: one migrates, the others wait for it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from './testing/harness.ts';
import { spawnServer, type ServerProcess } from './testing/process.ts';
import { SERVER_ENV, SERVER_NODE_FLAGS, buildServer } from './build/server-bundle.ts';
import { APP_VERSION } from './version.ts';

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
    const reg = await call(servers[0].url, 'POST', '/register', {
      body: { name: 'A', email: 'a@startup.test', password: 'secret123', company_name: 'Startup' },
    });
    expect(reg.status).toBe(200);
    for (const s of servers) expect((await call(s.url, 'GET', '/me', { token: reg.body.token })).status).toBe(200);
  }, 90_000);
});

describe('the built server that npm start and the Docker image run', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-bundle-'));
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is started with the same node flags and environment by npm start, the Docker image and the tests', () => {
    const root = path.resolve(import.meta.dirname, '..', '..');
    const start = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    const env = Object.entries(SERVER_ENV).map(([k, v]) => `${k}=${v}`);
    expect(start).toContain(`${env.join(' ')} node ${SERVER_NODE_FLAGS.join(' ')} api/dist/server.mjs`);
    const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain(`CMD ${JSON.stringify(['node', ...SERVER_NODE_FLAGS, 'api/dist/server.mjs'])}`.replace(/","/g, '", "'));
    for (const line of env) expect(dockerfile).toContain(`ENV ${line}\n`);
  });

  it('starts from api/dist/server.mjs alone and serves the API, its documentation and its version', async () => {
    const bundle = await buildServer();
    server = await spawnServer({ DATABASE_URL: `file:${path.join(dir, 'app.db')}`, DISABLE_SCHEDULER: 'true' }, 30_000, [], bundle);
    const health = await call(server.url, 'GET', '/health');
    expect(health.status).toBe(200);
    expect(health.text).toContain(APP_VERSION);
    const reg = await call(server.url, 'POST', '/register', {
      body: { name: 'B', email: 'b@bundle.test', password: 'secret123', company_name: 'Bundle' },
    });
    expect(reg.status).toBe(200);
    expect((await call(server.url, 'GET', '/me', { token: reg.body.token })).body.email).toBe('b@bundle.test');
    const docs = await fetch(`${server.url}/api/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
    expect((await call(server.url, 'GET', '/openapi.json')).body.openapi).toBe('3.1.0');
  }, 60_000);
});
