// A real server on a real database for API tests: start, call over HTTP, inspect the database, stop.
import { createTestDatabase, type TestDatabase } from '@bookwell/db/testing';
import { connect, type ConnectOptions, type Dialect } from '@bookwell/db';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../bootstrap.ts';
import { createLogger } from '../lib/logger.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read loosely, as the assertions check them
export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as-is (for malformed bodies). */
  raw?: string;
  token?: string | null;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  dialect: Dialect;
  server: RunningServer;
  db: RunningServer['deps']['db'];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read loosely, as the assertions check them
  call<T = any>(method: string, path: string, opts?: CallOptions): Promise<CallResult<T>>;
  close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read loosely, as the assertions check them
export async function call<T = any>(baseUrl: string, method: string, path: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined;
  if (opts.raw !== undefined) {
    body = opts.raw;
    headers['content-type'] ??= 'application/json';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${baseUrl}${path.startsWith('/api') ? path : `/api${path}`}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}

export async function startTestServer(
  dialect: Dialect,
  opts: { env?: Record<string, string>; now?: () => Date; database?: TestDatabase; connectOptions?: ConnectOptions } = {},
): Promise<TestServer> {
  const database = opts.database ?? (await createTestDatabase(dialect));
  const config = loadConfig({
    PORT: '0',
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    PWA_DIST: '/nonexistent',
    RATE_LIMIT_PUBLIC: '100000',
    RATE_LIMIT_AVAILABILITY: '100000',
    DISABLE_SCHEDULER: 'true',
    // Every transaction through the grouped path (db/src/group-commit.ts), which a busy server takes.
    SQLITE_GROUP_COMMIT: 'always',
    ...opts.env,
  });
  // Connection options (a round-trip counter) need the handle made here; otherwise the server connects as in production.
  const handle = opts.connectOptions ? connect(database.url, opts.connectOptions) : undefined;
  const server = await startServer(config, { now: opts.now, log: createLogger('silent'), database: handle });
  return {
    url: server.url,
    dialect,
    server,
    db: server.deps.db,
    call: (method, path, o) => call(server.url, method, path, o),
    async close() {
      await server.close();
      if (!opts.database) await database.drop();
    },
  };
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${process.pid}.${Date.now().toString(36)}.${counter}@example.test`;
}

/** Registers a company and its admin; returns the token and the ids. */
export async function registerCompany(
  t: TestServer,
  overrides: Partial<{ name: string; email: string; password: string; company_name: string; timezone: string }> = {},
) {
  const email = overrides.email ?? uniqueEmail('owner');
  const password = overrides.password ?? 'secret123';
  const res = await t.call('POST', '/register', {
    body: {
      name: overrides.name ?? 'Owner',
      email,
      password,
      company_name: overrides.company_name ?? 'Test Salon',
      timezone: overrides.timezone,
    },
  });
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${res.text}`);
  const me = await t.call('GET', '/me', { token: res.body.token });
  return { token: res.body.token as string, user: me.body, companyId: me.body.company_id as number, email, password };
}
