import { describe, expect, it } from 'vitest';
import { BOTH_FAILED_TEXT, ConnectionManager, NoResponseError, PROXY_FAILED_TEXT } from './connection.ts';

type Handler = (url: string, init?: RequestInit) => Response | Promise<Response>;

function setup(opts: { direct?: string | null; handler: Handler; timeoutMs?: number }) {
  let now = 1_000_000;
  const calls: string[] = [];
  // The manager's own timers run on this clock: `advance` fires those that fall due.
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = Math.max(now, due[1].at);
      due[1].fn();
    }
    now = until;
    return now;
  };
  const manager = new ConnectionManager({
    loadConfig: async () => ({ API_URL: '/api', DIRECT_API_URL: opts.direct === undefined ? 'https://direct.example/api' : opts.direct }),
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(String(input));
      return opts.handler(String(input), init);
    }) as typeof fetch,
    now: () => now,
    timeoutMs: opts.timeoutMs ?? 10_000,
    setTimer: (fn, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimer: (id) => timers.delete(id as number),
  });
  return { manager, calls, advance, pendingTimers: () => timers.size };
}

/** Lets the probes started by timers (fetch promises) settle. */
const settle = () => new Promise((r) => setTimeout(r, 0));

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

  it('reads no health answer body and leaves none open: the probes and a proxy failure retried on direct are read to the end', async () => {
    // An unread body keeps its connection and the request counts as loading (the sign-in page never went idle).
    const answers: Response[] = [];
    const kept = (res: Response) => (answers.push(res), res);
    let proxyUp = false;
    const { manager, advance } = setup({
      handler: (url) => kept(url.startsWith('/api') ? (proxyUp ? ok() : gateway()) : ok()),
    });
    expect(await manager.checkHealth()).toBe(false); // the proxy's 502, answered to the caller
    expect(await manager.checkHealth()).toBe(true); // the second 502 is retried on direct
    proxyUp = true;
    advance(30_000);
    await settle(); // the proxy re-check, back on the proxy
    expect(manager.mode).toBe('proxy');
    expect(await manager.checkHealth()).toBe(true);
    expect(answers).toHaveLength(5);
    expect(answers.map((r) => r.bodyUsed)).toEqual([true, true, true, true, true]);
    // An answer handed to a caller is left for it to read.
    const res = await manager.request('/appointments');
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual({});
  });

  it('re-checks the proxy by itself every 30 s while on direct, without any request, and switches back', async () => {
    let proxyUp = false;
    const { manager, calls, advance, pendingTimers } = setup({
      handler: (url) => (url.startsWith('/api') ? (proxyUp ? ok() : gateway()) : ok()),
    });
    await manager.request('/a');
    await manager.request('/a');
    expect(manager.mode).toBe('direct');
    const probes = () => calls.filter((c) => c === '/api/health').length;

    advance(29_999);
    await settle();
    expect(probes()).toBe(0);
    advance(1);
    await settle();
    expect(probes()).toBe(1); // still down: stays direct, next probe in 30 s
    expect(manager.mode).toBe('direct');
    expect(manager.state.get().notice).toBe(PROXY_FAILED_TEXT);

    proxyUp = true;
    advance(29_999);
    await settle();
    expect(probes()).toBe(1);
    advance(1);
    await settle();
    expect(probes()).toBe(2);
    expect(manager.mode).toBe('proxy');
    expect(manager.state.get().notice).toBeNull();
    expect(pendingTimers()).toBe(0); // no more probing once back on the proxy

    await manager.request('/b');
    expect(calls.at(-1)).toBe('/api/b');
  });

  it('probes the proxy at most every 30 s however many requests go direct meanwhile', async () => {
    const { manager, calls, advance } = setup({ handler: (url) => (url.startsWith('/api') ? gateway() : ok()) });
    await manager.request('/a');
    await manager.request('/a');
    expect(manager.mode).toBe('direct');
    for (let t = 0; t < 65; t++) {
      advance(1_000);
      await manager.request('/a');
      await settle();
    }
    // 65 s on direct: probes at 30 s and 60 s only, whether a request or the timer started them.
    expect(calls.filter((c) => c === '/api/health')).toHaveLength(2);
    expect(manager.mode).toBe('direct');
  });

  it('a periodic health check just under 30 s after the switch does not delay the re-check to 60 s', async () => {
    let proxyUp = false;
    const { manager, calls, advance } = setup({
      handler: (url) => (url.startsWith('/api') ? (proxyUp ? ok() : gateway()) : ok()),
    });
    await manager.request('/a');
    await manager.request('/a');
    proxyUp = true;
    const probes = () => calls.filter((c) => c === '/api/health').length;
    // The 30 s health-check interval is not aligned with the switch: its tick comes at 29.9 s.
    advance(29_900);
    expect(await manager.checkHealth()).toBe(true); // answered by the direct API
    expect(probes()).toBe(0); // too soon for the proxy
    expect(manager.mode).toBe('direct');
    // The re-check still runs at 30 s, not at the interval's next tick.
    advance(100);
    await settle();
    expect(probes()).toBe(1);
    expect(manager.mode).toBe('proxy');
    expect(manager.state.get().notice).toBeNull();
  });
});
