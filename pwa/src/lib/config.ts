// Runtime configuration of the PWA: the API base URLs served by the API as /config.json.
//
// Read once per page load. The last good copy is kept in localStorage so the installed app
// still knows where its API lives when it starts offline.

export interface RuntimeConfig {
  /** Base of the API through the same-origin proxy, e.g. '/api'. */
  API_URL: string;
  /** Optional direct base (another origin) used when the proxy keeps failing. */
  DIRECT_API_URL: string | null;
}

export const DEFAULT_CONFIG: RuntimeConfig = { API_URL: '/api', DIRECT_API_URL: null };

const CACHE_KEY = 'bookwell.config';
const CONFIG_TIMEOUT_MS = 5_000;

function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Accepts only well-formed values; anything else falls back to the defaults. */
export function parseConfig(raw: unknown): RuntimeConfig {
  if (!raw || typeof raw !== 'object') return DEFAULT_CONFIG;
  const r = raw as Record<string, unknown>;
  const api = typeof r.API_URL === 'string' && r.API_URL.trim() ? trimBase(r.API_URL.trim()) : DEFAULT_CONFIG.API_URL;
  const direct = typeof r.DIRECT_API_URL === 'string' && r.DIRECT_API_URL.trim() ? trimBase(r.DIRECT_API_URL.trim()) : null;
  return { API_URL: api, DIRECT_API_URL: direct && direct !== api ? direct : null };
}

function readCached(): RuntimeConfig | null {
  try {
    const text = globalThis.localStorage?.getItem(CACHE_KEY);
    return text ? parseConfig(JSON.parse(text)) : null;
  } catch {
    return null;
  }
}

let pending: Promise<RuntimeConfig> | null = null;

/** The runtime config; fetched on first use, never rejects. */
export function loadConfig(): Promise<RuntimeConfig> {
  pending ??= (async () => {
    try {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), CONFIG_TIMEOUT_MS);
      const res = await fetch('/config.json', { signal: controller.signal, cache: 'no-store' }).finally(() => clearTimeout(timer));
      if (!res.ok) throw new Error(`config ${res.status}`);
      const config = parseConfig(await res.json());
      try {
        globalThis.localStorage?.setItem(CACHE_KEY, JSON.stringify(config));
      } catch {
        /* storage full or disabled: the config still applies for this page load */
      }
      return config;
    } catch {
      return readCached() ?? DEFAULT_CONFIG;
    }
  })();
  return pending;
}

/** For tests. */
export function setConfigForTests(config: RuntimeConfig | null): void {
  pending = config ? Promise.resolve(config) : null;
}
