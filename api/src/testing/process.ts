// Runs the real server entry point as a separate OS process (for multi-process tests and benchmarks).
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../build/server-bundle.ts';

const SERVER_ENTRY = fileURLToPath(new URL('../server.ts', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/**
 * Starts the server from its sources (through tsx) or, given `bundle`, from the built
 * api/dist/server.mjs that `npm start` runs.
 */
export async function spawnServer(
  env: Record<string, string>,
  timeoutMs = 30_000,
  nodeArgs: string[] = [],
  bundle?: string,
): Promise<ServerProcess> {
  const port = await freePort();
  let out = '';
  // The caller's flags after the server's own: where both set one (a V8 heap size), the last wins,
  // so a benchmark can try another value (README, "Profiling").
  const args = bundle ? [...SERVER_NODE_FLAGS, ...nodeArgs, bundle] : [...nodeArgs, '--import', 'tsx', SERVER_ENTRY];
  const child = spawn(process.execPath, args, {
    // No drain delay on SIGTERM unless a test asks for one: nothing balances load in front of these servers.
    env: {
      ...process.env,
      PWA_DIST: '/nonexistent',
      LOG_LEVEL: 'warn',
      SHUTDOWN_DELAY_MS: '0',
      ...(bundle ? SERVER_ENV : {}),
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}
