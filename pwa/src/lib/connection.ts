// Which API base the app talks to (proxy or direct), and the notices about it (docs/product/04-states.md).
//
// Every request starts on the proxy path (API_URL). After 2 consecutive proxy failures
// (502/503/504 or no response) and with a DIRECT_API_URL configured, requests go to the direct
// base and the user is told. While on direct, the proxy's health is re-checked every 30 s (on a
// timer of its own, and never more often, however many requests the app makes); when it
// answers, requests go back to the proxy and the notice clears.
import { createStore } from './store.ts';
import { loadConfig, type RuntimeConfig } from './config.ts';

export const API_TIMEOUT_MS = 10_000;
export const PROXY_FAILURE_THRESHOLD = 2;
export const PROXY_RECHECK_MS = 30_000;
export const HEALTH_CHECK_INTERVAL_MS = 30_000;

export const PROXY_FAILED_TEXT = 'Proxy connection failed. Switching to direct API connection.';
export const BOTH_FAILED_TEXT = 'Both proxy and direct API connections failed. Please check your network.';

export type ConnectionMode = 'proxy' | 'direct';

export interface ConnectionState {
  mode: ConnectionMode;
  /** Text of the connection notice, or null when there is nothing to say. */
  notice: string | null;
}

/** Thrown when no response arrived; `timedOut` tells a 10 s timeout from a network error. */
export class NoResponseError extends Error {
  constructor(
    readonly timedOut: boolean,
    cause?: unknown,
  ) {
    super(timedOut ? 'Request timed out' : 'Network error', { cause });
    this.name = 'NoResponseError';
  }
}

export interface ConnectionDeps {
  loadConfig: () => Promise<RuntimeConfig>;
  fetch: typeof fetch;
  now: () => number;
  timeoutMs: number;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (id: unknown) => void;
}

const isGatewayFailure = (status: number) => status === 502 || status === 503 || status === 504;

/** Replaying is safe only for reads and for writes the server de-duplicates by Idempotency-Key. */
function isReplayable(init: RequestInit | undefined): boolean {
  const method = (init?.method ?? 'GET').toUpperCase();
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return true;
  return new Headers(init?.headers).has('Idempotency-Key');
}

/**
 * Reads to the end, in the background, an answer whose body nobody needs (a health probe's, a proxy
 * failure retried on direct): the browser holds an unread body and its connection until the page
 * drops the Response, and counts the request as still loading. Read rather than cancelled, so it
 * ends as a finished request, not an aborted one.
 */
function discard(res: Response): void {
  if (!res.bodyUsed) void res.arrayBuffer().catch(() => undefined);
}

function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === 'AbortError';
}

export class ConnectionManager {
  readonly state = createStore<ConnectionState>({ mode: 'proxy', notice: null });
  private proxyFailures = 0;
  private lastProxyCheck = 0;
  private proxyCheck: Promise<boolean> | null = null;
  private recheckTimer: unknown = null;
  private readonly deps: ConnectionDeps;

  constructor(deps: Partial<ConnectionDeps> = {}) {
    this.deps = {
      loadConfig: deps.loadConfig ?? loadConfig,
      fetch: deps.fetch ?? ((...args) => globalThis.fetch(...args)),
      now: deps.now ?? (() => Date.now()),
      timeoutMs: deps.timeoutMs ?? API_TIMEOUT_MS,
      setTimer: deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms)),
      clearTimer: deps.clearTimer ?? ((id) => clearTimeout(id as ReturnType<typeof setTimeout>)),
    };
  }

  get mode(): ConnectionMode {
    return this.state.get().mode;
  }

  /**
   * Sends `path` (relative to the API base, e.g. '/appointments?company_id=1') through the
   * current base. Resolves with any HTTP response; rejects with NoResponseError when none came
   * (or with the caller's AbortError when the caller aborted).
   */
  async request(path: string, init?: RequestInit): Promise<Response> {
    const config = await this.deps.loadConfig();
    const direct = config.DIRECT_API_URL;

    if (this.mode === 'direct' && direct) {
      this.maybeRecheckProxy(config); // in the background; this request still goes direct
      return this.viaDirect(direct, path, init);
    }

    let res: Response | undefined;
    let failure: unknown;
    try {
      res = await this.send(config.API_URL + path, init);
    } catch (e) {
      if (!(e instanceof NoResponseError)) throw e;
      failure = e;
    }

    if (res && !isGatewayFailure(res.status)) {
      this.proxyFailures = 0;
      if (this.state.get().notice === BOTH_FAILED_TEXT) this.state.set({ mode: 'proxy', notice: null });
      return res;
    }

    this.proxyFailures += 1;
    if (direct && this.proxyFailures >= PROXY_FAILURE_THRESHOLD) {
      this.switchToDirect(config);
      // The request that tipped the balance is retried on direct when replaying it is safe.
      if (isReplayable(init)) {
        if (res) discard(res);
        return this.viaDirect(direct, path, init);
      }
    }
    if (res) return res;
    throw failure;
  }

  /** GET {base}/health on the active base; used by the periodic check and the login page. */
  async checkHealth(): Promise<boolean> {
    const config = await this.deps.loadConfig();
    if (this.mode === 'direct' && config.DIRECT_API_URL) {
      // On direct, the periodic check is the proxy re-check (it may switch back).
      if (await this.maybeRecheckProxy(config)) return true; // back on the proxy
    }
    try {
      const res = await this.request('/health', { method: 'GET' });
      discard(res);
      return res.ok;
    } catch (e) {
      if (e instanceof NoResponseError) return false;
      throw e;
    }
  }

  /** Runs checkHealth every `intervalMs`; returns the function that stops it. */
  startPeriodicHealthCheck(intervalMs = HEALTH_CHECK_INTERVAL_MS): () => void {
    const id = setInterval(() => {
      void this.checkHealth().catch(() => undefined);
    }, intervalMs);
    return () => clearInterval(id);
  }

  private switchToDirect(config: RuntimeConfig): void {
    this.lastProxyCheck = this.deps.now();
    this.state.set({ mode: 'direct', notice: PROXY_FAILED_TEXT });
    this.scheduleRecheck(config);
  }

  private switchToProxy(): void {
    this.proxyFailures = 0;
    this.cancelRecheck();
    this.state.set({ mode: 'proxy', notice: null });
  }

  /**
   * While on direct, the next proxy re-check is due PROXY_RECHECK_MS after the last one. The
   * periodic health check alone cannot promise that: its ticks are not aligned with the switch,
   * so a tick just under 30 s after it is skipped and the proxy waited up to 60 s.
   */
  private scheduleRecheck(config: RuntimeConfig): void {
    this.cancelRecheck();
    const wait = Math.max(0, this.lastProxyCheck + PROXY_RECHECK_MS - this.deps.now());
    this.recheckTimer = this.deps.setTimer(() => {
      this.recheckTimer = null;
      if (this.mode !== 'direct') return;
      // A probe in flight reschedules when it ends; "not yet due" (a request probed meanwhile) here.
      if (!this.proxyCheck && this.deps.now() - this.lastProxyCheck < PROXY_RECHECK_MS) this.scheduleRecheck(config);
      else void this.maybeRecheckProxy(config);
    }, wait);
  }

  private cancelRecheck(): void {
    if (this.recheckTimer !== null) this.deps.clearTimer(this.recheckTimer);
    this.recheckTimer = null;
  }

  private async viaDirect(direct: string, path: string, init?: RequestInit): Promise<Response> {
    try {
      const res = await this.send(direct + path, init);
      if (isGatewayFailure(res.status)) {
        this.state.set({ mode: 'direct', notice: BOTH_FAILED_TEXT });
      } else if (this.state.get().notice === BOTH_FAILED_TEXT && this.mode === 'direct') {
        this.state.set({ mode: 'direct', notice: PROXY_FAILED_TEXT });
      }
      return res;
    } catch (e) {
      if (e instanceof NoResponseError) this.state.set({ mode: 'direct', notice: BOTH_FAILED_TEXT });
      throw e;
    }
  }

  /** At most one proxy health probe every PROXY_RECHECK_MS; switches back when it answers. */
  private maybeRecheckProxy(config: RuntimeConfig): Promise<boolean> {
    if (this.proxyCheck) return this.proxyCheck;
    if (this.deps.now() - this.lastProxyCheck < PROXY_RECHECK_MS) return Promise.resolve(false);
    this.lastProxyCheck = this.deps.now();
    this.proxyCheck = this.send(config.API_URL + '/health', { method: 'GET' })
      .then((res) => {
        discard(res);
        return res.ok;
      })
      .catch(() => false)
      .then((healthy) => {
        if (healthy && this.mode === 'direct') this.switchToProxy();
        return healthy;
      })
      .finally(() => {
        this.proxyCheck = null;
        if (this.mode === 'direct') this.scheduleRecheck(config);
      });
    return this.proxyCheck;
  }

  /** fetch with the 10 s timeout, honouring the caller's own abort signal. */
  private async send(url: string, init?: RequestInit): Promise<Response> {
    if (init?.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.deps.timeoutMs);
    const outer = init?.signal;
    const onOuterAbort = () => controller.abort();
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      return await this.deps.fetch(url, { ...init, signal: controller.signal });
    } catch (e) {
      if (outer?.aborted && !timedOut) throw e instanceof Error ? e : new DOMException('Aborted', 'AbortError');
      if (isAbort(e) && !timedOut) throw e;
      throw new NoResponseError(timedOut, e);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }
}
