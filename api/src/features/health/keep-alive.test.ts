// A proxy in front of the app (docs/deploy/nginx.conf) keeps idle connections to it for up to 60 s
// and sends the next request on one of them. The app must not close them first: nginx answers a
// request it sent on a connection the app was closing with a 502, and does not retry a PATCH.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.ts';

/** Sends one request on `socket` and resolves with the response's head once its whole body is in. */
function exchange(socket: net.Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += d.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text);
      if (end >= 0 && length && text.length >= end + 4 + Number(length[1])) {
        done();
        resolve(text.slice(0, end));
      }
    };
    const onClose = () => {
      done();
      reject(new Error(`the server closed the connection before answering ${path}`));
    };
    const done = () => {
      socket.off('data', onData);
      socket.off('close', onClose);
    };
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`);
  });
}

describe('kept-alive connections', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => t?.close());

  it('stay open past Node’s 5 s default and say for how long, so a proxy closes them first', async () => {
    const { hostname, port } = new URL(t.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    try {
      const first = await exchange(socket, '/api/health');
      expect(first).toMatch(/^HTTP\/1\.1 200/);
      expect(first).toMatch(/\r\nkeep-alive: timeout=65\b/i);
      await new Promise((r) => setTimeout(r, 6000));
      expect(await exchange(socket, '/api/health')).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      socket.destroy();
    }
  }, 20_000);
});
