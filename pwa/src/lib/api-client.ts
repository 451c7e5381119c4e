// The one way the PWA calls the API: base URL selection (proxy/direct), 10 s timeout, the
// Bearer token, logout on 401, and failures turned into ApiError (see api-errors.ts).
// `apiFetch` is the fetch of the typed client (`client` in rpc.ts, hc<AppType>), through which
// every call goes; screens reach it through src/data.
import { ConnectionManager, NoResponseError } from './connection.ts';
import { ApiError, type ErrorBody } from './api-errors.ts';
import { getToken } from './token.ts';

export const connection = new ConnectionManager();

/** Gets the token the refused request carried (null when it had none). */
type UnauthorizedHandler = (tokenUsed: string | null) => void;
let onUnauthorized: UnauthorizedHandler = () => undefined;

/** AuthProvider registers what a 401 does (sign out; the route guard then sends to /login). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

/**
 * hc() builds absolute URLs from a base; it gets this placeholder origin and apiFetch maps the
 * path onto whichever API base is active, so the typed client follows proxy/direct switches.
 */
export const RPC_PLACEHOLDER_BASE = 'http://api.invalid';

/** '/appointments?x=1' from 'http://api.invalid/api/appointments?x=1', '/api/appointments?x=1' or '/appointments?x=1'. */
export function toApiPath(input: string): string {
  let path = input;
  if (path.startsWith(RPC_PLACEHOLDER_BASE)) path = path.slice(RPC_PLACEHOLDER_BASE.length);
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/api?')) path = path.slice(4);
  if (!path.startsWith('/')) path = '/' + path;
  return path;
}

/**
 * fetch() for the API: resolves with every HTTP response (callers check `ok`), rejects with an
 * ApiError of kind 'network'/'timeout' when no response came. A 401 signs the user out; a
 * network error never does.
 */
export async function apiFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let url: string;
  let requestInit: RequestInit = { ...init };
  if (typeof input === 'string') url = input;
  else if (input instanceof URL) url = input.href;
  else {
    url = input.url;
    requestInit = {
      method: input.method,
      headers: input.headers,
      body: input.body ? await input.clone().text() : undefined,
      ...init,
    };
  }

  const headers = new Headers(requestInit.headers);
  const token = getToken();
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  requestInit.headers = headers;

  let res: Response;
  try {
    res = await connection.request(toApiPath(url), requestInit);
  } catch (e) {
    if (e instanceof NoResponseError) throw new ApiError(e.timedOut ? 'timeout' : 'network', null, undefined, e);
    throw e;
  }
  if (res.status === 401) onUnauthorized(token);
  return res;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('Content-Type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** Parses a response: the JSON body when ok, else throws ApiError carrying the server's error body. */
export async function unwrap<T>(res: Response): Promise<T> {
  const body = await readBody(res);
  if (!res.ok) {
    const errorBody = body && typeof body === 'object' ? (body as ErrorBody) : undefined;
    throw new ApiError('http', res.status, errorBody);
  }
  return body as T;
}

/** GET /health through the current base; false when the server cannot be reached or is unhealthy. */
export function checkHealth(): Promise<boolean> {
  return connection.checkHealth().catch(() => false);
}

/** A random UUID for Idempotency-Key headers (crypto.randomUUID needs a secure context). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') {
    try {
      return crypto.randomUUID();
    } catch {
      /* insecure context: fall through */
    }
  }
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
