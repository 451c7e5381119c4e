// Graceful shutdown and kept-alive connections (docs/decisions/32-privacy-and-operations.md): an answer
// whose headers went out before the shutdown began promised to keep its connection open, and that
// connection goes idle only when the client has read the whole body, after the listener closed. The
// close must still end it then, not wait for the keep-alive timeout (65 s) and be cut by the bound.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@bookwell/db/testing';
import { loadConfig } from '../../config.ts';
import { startServer, type RunningServer } from '../../bootstrap.ts';
import { createLogger } from '../../lib/logger.ts';

// Larger than anything the loopback's socket buffers hold (a few MB), so the answer is still being
// written while the client does not read.
const FILE_BYTES = 48 * 2 ** 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('graceful shutdown with a kept-alive connection', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let dist: string;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'shutdown-idle-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>t</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'big.bin'), Buffer.alloc(FILE_BYTES, 7));
    const config = loadConfig({ PORT: '0', DATABASE_URL: database.url, PWA_DIST: dist, DISABLE_SCHEDULER: 'true' });
    server = await startServer(config, { log: createLogger('silent') });
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('closes a connection that goes idle after the listener closed, as soon as it does', async () => {
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let received = Buffer.alloc(0);
    let bodyBytes = 0;
    let headers = '';
    let closedAt = 0;
    const closed = new Promise<void>((resolve) => socket.once('close', () => ((closedAt = Date.now()), resolve())));
    socket.on('data', (chunk: Buffer) => {
      if (headers) return void (bodyBytes += chunk.length);
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end >= 0) {
        headers = received.subarray(0, end).toString();
        bodyBytes = received.length - end - 4;
      }
    });
    socket.write(`GET /assets/big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: identity\r\nConnection: keep-alive\r\n\r\n`);

    // Read the headers, then stop reading: the server is left writing the body.
    while (!headers) await sleep(10);
    socket.pause();
    expect(headers).toMatch(/^HTTP\/1\.1 200/);
    expect(headers.toLowerCase()).toContain('connection: keep-alive');
    await sleep(200);
    expect(bodyBytes).toBeLessThan(FILE_BYTES);

    // The shutdown begins while the answer is still on its way; the listener closes at once.
    let closeDoneAt = 0;
    const closing = server.close().then(() => void (closeDoneAt = Date.now()));
    await sleep(500);
    expect(closeDoneAt).toBe(0);

    // The client reads the rest: the answer completes and its connection goes idle, still open.
    socket.resume();
    while (bodyBytes < FILE_BYTES) await sleep(10);
    const readAt = Date.now();
    expect(bodyBytes).toBe(FILE_BYTES);

    // The close ends it within a sweep or two, and then finishes; nothing waits for the keep-alive timeout.
    try {
      await Promise.race([closed, sleep(5000)]);
      expect(closedAt, 'the server closed the idle connection').toBeGreaterThan(0);
      await closing;
      expect(closedAt - readAt).toBeLessThan(3000);
      expect(closeDoneAt - readAt).toBeLessThan(3000);
    } finally {
      socket.destroy();
    }
  }, 30_000);
});
