// Graceful shutdown of the built server (docs/decisions/32-privacy-and-operations.md): on SIGTERM
// readiness answers 503 at once, a request already in flight still gets its answer, new connections
// are refused once the drain delay is over, and the process exits 0 within its bound.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../build/server-bundle.ts';
import { spawnServer } from '../../testing/process.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-shutdown-'));
// Where npm start's bundle sits (two levels under the root), so it finds node_modules (.gitignore'd).
const bundleDir = fs.mkdtempSync(path.join(import.meta.dirname, '..', '..', '..', '.bundle-test-'));
const DELAY_MS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('graceful shutdown of the built server', () => {
  let bundle: string;
  beforeAll(async () => {
    bundle = await buildServer(path.join(bundleDir, 'server.mjs'));
  }, 120_000);
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(bundleDir, { recursive: true, force: true });
  });

  it('answers 503 on /api/ready, finishes the in-flight request, refuses new connections and exits 0', async () => {
    const server = await spawnServer(
      {
        DATABASE_URL: `file:${path.join(dir, 'app.db')}`,
        SHUTDOWN_DELAY_MS: String(DELAY_MS),
        SHUTDOWN_TIMEOUT_MS: '10000',
        LOG_LEVEL: 'info',
      },
      30_000,
      [],
      bundle,
    );
    expect((await fetch(`${server.url}/api/ready`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));

    // The slow request: a login whose body arrives in two parts, the second after SIGTERM and after the drain delay.
    let finishBody = () => {};
    const answer = new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      const req = http.request(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      });
      req.on('error', reject);
      req.write('{"email":"slow@example.test",');
      finishBody = () => req.end('"password":"not-the-password"}');
    });
    await sleep(200);
    const signalled = Date.now();
    server.child.kill('SIGTERM');

    // Readiness turns 503 as soon as the signal is handled (polled: the machine may be busy).
    let ready = await fetch(`${server.url}/api/ready`);
    while (ready.status === 200 && Date.now() - signalled < DELAY_MS) {
      await sleep(20);
      ready = await fetch(`${server.url}/api/ready`);
    }
    const notReadyAt = Date.now();
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'stopping' });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);

    // After the delay the listener is closed: a new connection is refused while the slow request still runs.
    await sleep(DELAY_MS + 300 - (Date.now() - notReadyAt));
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
    expect(server.child.exitCode).toBeNull();
    finishBody();

    const finished = await answer;
    // The whole body was read and answered (this API answers wrong credentials with 400).
    expect(finished.status, finished.body).toBe(400);
    expect(JSON.parse(finished.body)).toMatchObject({ error: 'Invalid email or password' });
    expect(finished.connection).toBe('close');
    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(server.output()).toContain('stopped');
  }, 60_000);
});
