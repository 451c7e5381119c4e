import { describe, expect, it } from 'vitest';
import { BOTH_FAILED_TEXT, ConnectionManager, NoResponseError, PROXY_FAILED_TEXT } from './connection.ts';

type Handler = (url: string, init?: RequestInit) => Response | Promise<Response>;

function setup(opts: { direct?: string | null; handler: Handler; timeoutMs?: number }) {
  let now = 1_000_000;
  const calls: string[] = [];
  const manager = new ConnectionManager({
    loadConfig: async () => ({ API_URL: '/api', DIRECT_API_URL: opts.direct === undefined ? 'https://direct.example/api' : opts.direct }),
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(String(input));
      return opts.handler(String(input), init);
    }) as typeof fetch,
    now: () => now,
    timeoutMs: opts.timeoutMs ?? 10_000,
  });
  return { manager, calls, advance: (ms: number) => (now += ms) };
}

const ok = () => new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
const gateway = () => new Response('bad gateway', { status: 502 });
const networkError = () => {
  throw new TypeError('Failed to fetch');
};

describe('ConnectionManager', () => {
  it('stays on the proxy after one failure and switches on the second', async () => {
    let proxyUp = false;
    const { manager, calls } = setup({
      handler: (url) => (url.startsWith('/api') ? (proxyUp ? ok() : gateway()) : ok()),
    });
    const first = await manager.request('/appointments');
    expect(first.status).toBe(502);
    expect(manager.mode).toBe('proxy');
    expect(manager.state.get().notice).toBeNull();

    const second = await manager.request('/appointments');
    // The failing read is retried on the direct API.
    expect(second.status).toBe(200);
    expect(manager.mode).toBe('direct');
    expect(manager.state.get().notice).toBe(PROXY_FAILED_TEXT);
    expect(calls.at(-1)).toBe('https://direct.example/api/appointments');
    proxyUp = true;
  });

  it('counts network errors as proxy failures and a success resets the count', async () => {
    let fail = true;
    const { manager } = setup({ handler: (url) => (url.startsWith('/api') && fail ? networkError() : ok()) });
    await expect(manager.request('/x')).rejects.toBeInstanceOf(NoResponseError);
    fail = false;
    await manager.request('/x');
    fail = true;
    await expect(manager.request('/x')).rejects.toBeInstanceOf(NoResponseError);
    expect(manager.mode).toBe('proxy');
  });

  it('never replays a write without an Idempotency-Key on the direct API', async () => {
    const { manager, calls } = setup({ handler: (url) => (url.startsWith('/api') ? gateway() : ok()) });
    await manager.request('/appointments', { method: 'POST', body: '{}' });
    const res = await manager.request('/appointments', { method: 'POST', body: '{}' });
    expect(res.status).toBe(502);
    expect(manager.mode).toBe('direct');
    expect(calls.filter((c) => c.startsWith('https://'))).toHaveLength(0);

    const keyed = setup({ handler: (url) => (url.startsWith('/api') ? gateway() : ok()) });
    const init = { method: 'POST', body: '{}', headers: { 'Idempotency-Key': 'k1' } };
    await keyed.manager.request('/appointments', init);
    expect((await keyed.manager.request('/appointments', init)).status).toBe(200);
  });

  it('without a direct URL it keeps using the proxy', async () => {
    const { manager } = setup({ direct: null, handler: () => gateway() });
    for (let i = 0; i < 4; i++) await manager.request('/x');
    expect(manager.mode).toBe('proxy');
    expect(manager.state.get().notice).toBeNull();
  });

  it('re-checks the proxy at most every 30 s and switches back, clearing the notice', async () => {
    let proxyUp = false;
    const { manager, calls, advance } = setup({
      handler: (url) => (url.startsWith('/api') ? (proxyUp ? ok() : gateway()) : ok()),
    });
    await manager.request('/a');
    await manager.request('/a');
    expect(manager.mode).toBe('direct');

    proxyUp = true;
    advance(10_000);
    await manager.request('/a');
    await Promise.resolve();
    expect(calls.filter((c) => c === '/api/health')).toHaveLength(0); // too soon
    expect(manager.mode).toBe('direct');

    advance(21_000);
    await manager.request('/a'); // triggers the background re-check
    await new Promise((r) => setTimeout(r, 0));
    expect(calls.filter((c) => c === '/api/health')).toHaveLength(1);
    expect(manager.mode).toBe('proxy');
    expect(manager.state.get().notice).toBeNull();
  });

  it('reports when both proxy and direct fail, and recovers the notice when direct answers', async () => {
    let directUp = false;
    const { manager } = setup({
      handler: (url) => (url.startsWith('/api') ? networkError() : directUp ? ok() : networkError()),
    });
    await expect(manager.request('/a')).rejects.toBeInstanceOf(NoResponseError);
    await expect(manager.request('/a')).rejects.toBeInstanceOf(NoResponseError);
    expect(manager.mode).toBe('direct');
    expect(manager.state.get().notice).toBe(BOTH_FAILED_TEXT);
    directUp = true;
    await manager.request('/a');
    expect(manager.state.get().notice).toBe(PROXY_FAILED_TEXT);
  });

  it('times out after the configured time as a no-response error', async () => {
    const { manager } = setup({
      direct: null,
      timeoutMs: 20,
      handler: (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    });
    const err = await manager.request('/slow').catch((e) => e);
    expect(err).toBeInstanceOf(NoResponseError);
    expect(err.timedOut).toBe(true);
  });

  it('passes a caller abort through without counting it as a failure', async () => {
    const { manager } = setup({
      handler: (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    });
    for (let i = 0; i < 3; i++) {
      const controller = new AbortController();
      const pending = manager.request('/x', { signal: controller.signal });
      controller.abort();
      const err = await pending.catch((e) => e);
      expect(err).not.toBeInstanceOf(NoResponseError);
    }
    expect(manager.mode).toBe('proxy');
  });

  it('periodic health check switches to direct when the proxy is down', async () => {
    const { manager } = setup({ handler: (url) => (url.startsWith('/api') ? gateway() : ok()) });
    expect(await manager.checkHealth()).toBe(false);
    expect(await manager.checkHealth()).toBe(true); // second failure: switched, retried on direct
    expect(manager.mode).toBe('direct');
  });
});
