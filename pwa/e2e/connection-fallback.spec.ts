// The proxy/direct connection fallback (docs/product/04-states.md "Connection", docs/product/09-limits.md;
// docs/decisions/01-running.md): API_URL points at a real HTTP proxy started here, which answers 502 while told to
// fail and otherwise forwards to the server's /api; DIRECT_API_URL is the server's own /api.
// Served to the page as /config.json. Asserted: one failure does not switch, the second does
// (notice, data still loads through the direct URL), the proxy is re-checked no more often than
// every 30 s and the app switches back within 30 s of it recovering (notice cleared, requests
// through the proxy again), and the notice when both fail.
//
// Time: the periodic health check and the proxy re-check run on timers, so the page runs on
// Playwright's clock (flowing naturally, moved on with runFor where the test waits for them).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, apiToken, signInAs } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';
import { addDays, titleOf } from './support/appointments.ts';

const PROXY_FAILED = 'Proxy connection failed. Switching to direct API connection.';
const BOTH_FAILED = 'Both proxy and direct API connections failed. Please check your network.';

interface Logged {
  method: string;
  path: string;
  status: number | 'failed';
}

interface Proxy {
  url: string;
  log: Logged[];
  failing: boolean;
  close(): Promise<void>;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

/**
 * A reverse proxy on its own origin (127.0.0.1:<free port>) in front of `upstream`'s /api:
 * 502 while `failing`, otherwise the server's answer. Cross-origin for the page, so it answers
 * preflights and adds CORS headers (Authorization, If-Match and Idempotency-Key allowed, ETag
 * exposed), as a real API gateway on another origin would have to.
 */
async function startProxy(upstream: string): Promise<Proxy> {
  const target = new URL(upstream);
  const connectHost = target.hostname === 'localhost' ? '127.0.0.1' : target.hostname;
  const log: Logged[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const cors: Record<string, string> = req.headers.origin
      ? { 'Access-Control-Allow-Origin': req.headers.origin, Vary: 'Origin', 'Access-Control-Expose-Headers': 'ETag' }
      : {};
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...cors,
        'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, If-Match, Idempotency-Key',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    const entry: Logged = { method: req.method ?? 'GET', path, status: 'failed' };
    log.push(entry);
    if (proxy.failing || !(path === '/api' || path.startsWith('/api/') || path.startsWith('/api?'))) {
      req.resume();
      entry.status = proxy.failing ? 502 : 404;
      res.writeHead(entry.status, { ...cors, 'Content-Type': 'text/plain' });
      res.end(proxy.failing ? 'Bad Gateway' : 'Not Found');
      return;
    }
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host };
    for (const h of HOP_BY_HOP) delete headers[h];
    const forward = http.request({ host: connectHost, port: target.port || 80, method: req.method, path, headers }, (up) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(up.headers)) {
        const key = k.toLowerCase();
        if (HOP_BY_HOP.includes(key) || key.startsWith('access-control-') || key === 'cross-origin-resource-policy') continue;
        out[k] = v;
      }
      entry.status = up.statusCode ?? 502;
      res.writeHead(entry.status, { ...out, ...cors });
      up.pipe(res);
    });
    forward.on('error', () => {
      entry.status = 502;
      if (!res.headersSent) res.writeHead(502, cors);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const proxy: Proxy = {
    url: `http://127.0.0.1:${port}/api`,
    log,
    failing: false,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}

// ---------- the server as the test's witness ----------

interface Appt {
  user_id: number | null;
  start_time: string;
  description: string | null;
  status: string;
  service_types: { name: string }[];
  customer_name: string | null;
}

/** Titles of the company's appointments within 16 days of today (the calendar's week and the weeks either side). */
async function titlesAroundToday(request: APIRequestContext, token: string): Promise<Set<string>> {
  const today = new Date().toISOString().slice(0, 10);
  const res = await request.get(`/api/appointments?start_date=${addDays(today, -16)}&end_date=${addDays(today, 16)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  return new Set(((await res.json()) as Appt[]).map(titleOf));
}

/** The calendar shows appointments, every one of them a real one of the server's. */
async function expectCalendarData(page: Page, titles: Set<string>) {
  await expect(page.locator('.fc')).toBeVisible();
  await expect(page.getByText('Loading appointments...')).toHaveCount(0);
  await expect(page.locator('.fc-event').first()).toBeVisible();
  const labels = await page.locator('.fc-event').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) {
    expect(
      [...titles].some((t) => label.startsWith(`${t}, `)),
      `"${label}" is one of the server's appointments`,
    ).toBe(true);
  }
}

// ---------- the test ----------

// The proxy is the test's own origin, which the server's CSP cannot list as a deployment lists its API
// origins (docs/decisions/30-csp-and-small-public-pages.md); csp.spec.ts covers the policy itself.
test.use({ serviceWorkers: 'block', bypassCSP: true });

/** The offline calendar's catch-up (every minute while signed in) is left out of the request logs below. */
const isSync = (path: string) => path.startsWith('/api/sync/');

test('proxy failing: switch to direct after 2 failures, back within 30 s of recovery; both failing', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  const proxy = await startProxy(origin);
  try {
    await page.route('**/config.json', (route) => route.fulfill({ json: { API_URL: proxy.url, DIRECT_API_URL: '/api' } }));

    // What the page itself sends to the server's own /api (the direct connection).
    const direct: Logged[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.origin === origin && u.pathname.startsWith('/api/') && !isSync(u.pathname))
        direct.push({ method: r.method(), path: u.pathname + u.search, status: 'failed' });
    });
    page.on('response', (r) => {
      const u = new URL(r.url());
      if (u.origin !== origin || !u.pathname.startsWith('/api/')) return;
      const entry = [...direct].reverse().find((d) => d.path === u.pathname + u.search && d.status === 'failed');
      if (entry) entry.status = r.status();
    });
    const fakeNow = () => page.evaluate(() => Date.now());
    const proxied = (from: number) => proxy.log.slice(from).filter((e) => !isSync(e.path));
    const notice = page.getByTestId('connection-notice');
    const nav = page.getByRole('navigation', { name: 'Sections' });

    const token = await apiToken(page, DEMO.owner);
    const titles = await titlesAroundToday(page.request, token);
    expect(titles.size, 'the demo has appointments around today').toBeGreaterThan(0);

    // 1. The proxy works: everything goes through it. (The calendar page, unlike the dashboard,
    // polls nothing, so below the periodic health check is the only request the clock causes.)
    await page.clock.install();
    await signInAs(page, DEMO.owner, '/calendar');
    await expectCalendarData(page, titles);
    expect(proxied(0).map((e) => `${e.method} ${e.path.split('?')[0]} ${e.status}`)).toEqual(
      expect.arrayContaining(['GET /api/me 200', 'GET /api/appointments 200']),
    );
    expect(direct, 'nothing goes direct while the proxy works').toEqual([]);
    await expect(notice).toHaveCount(0);

    // 2. The proxy fails. The periodic health check (every 30 s) is one request: one failure
    // does not switch...
    proxy.failing = true;
    let mark = proxy.log.length;
    await page.clock.runFor(30_000);
    await expect.poll(() => proxied(mark).map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['GET /api/health 502']);
    await page.waitForTimeout(500);
    await expect(notice).toHaveCount(0);
    expect(direct).toEqual([]);

    // ...the second consecutive failure does: the notice, and the check retried on direct.
    await page.clock.runFor(30_000);
    await expect(notice).toHaveText(PROXY_FAILED);
    const switchedBy = await fakeNow(); // the switch happened at or shortly before this (page) time
    expect(proxied(mark).map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['GET /api/health 502', 'GET /api/health 502']);
    await expect.poll(() => direct.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['GET /api/health 200']);

    // Data still loads, through the direct URL only: the next week's appointments.
    mark = proxy.log.length;
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => direct.some((e) => e.path.startsWith('/api/appointments?') && e.status === 200)).toBe(true);
    await expectCalendarData(page, titles);
    expect(proxied(mark), 'no request reaches the failing proxy once on direct').toEqual([]);
    await expect(notice).toHaveText(PROXY_FAILED);
    await shootAllSizes(page, 'connection-proxy-failed');

    // 3. The proxy recovers. Requests keep going direct until the re-check is due: it is not
    // probed again within 30 s of the switch, whatever the app does meanwhile.
    proxy.failing = false;
    mark = proxy.log.length;
    let directMark = direct.length;
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => direct.slice(directMark).some((e) => e.path.startsWith('/api/appointments?') && e.status === 200)).toBe(true);
    await expectCalendarData(page, titles);
    await page.clock.runFor(Math.max(0, switchedBy - 3_000 + 30_000 - (await fakeNow())));
    await page.waitForTimeout(500);
    expect(proxied(mark), 'the proxy is re-checked at most every 30 s').toEqual([]);
    await expect(notice).toHaveText(PROXY_FAILED);

    // Within 30 s of the switch the re-check runs by itself (no user action), finds the proxy
    // healthy, and the app switches back: the notice clears.
    await page.clock.runFor(Math.max(0, switchedBy + 30_500 - (await fakeNow())));
    await expect(notice).toHaveCount(0);
    expect(proxied(mark).map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['GET /api/health 200']);

    // New requests go through the proxy again, and none direct.
    mark = proxy.log.length;
    directMark = direct.length;
    await nav.locator('a[href="/dashboard"]').click();
    await expect(page.getByRole('heading', { name: 'Demo Studio' })).toBeVisible();
    await expect(page.getByTestId('count-week')).toHaveText(/^\d+$/);
    await expect.poll(() => proxied(mark).some((e) => e.path.startsWith('/api/appointments?') && e.status === 200)).toBe(true);
    expect(direct.slice(directMark), 'nothing goes direct once back on the proxy').toEqual([]);
    await expect(notice).toHaveCount(0);

    // 4. Both fail: the proxy answers 502 and the direct URL cannot be reached.
    proxy.failing = true;
    await page.route(
      (url) => url.origin === origin && url.pathname.startsWith('/api/'),
      (route) => route.abort(),
    );
    mark = proxy.log.length;
    await nav.locator('a[href="/directory"]').click();
    await expect(notice).toHaveText(BOTH_FAILED);
    expect(proxied(mark).filter((e) => e.status === 502).length).toBeGreaterThanOrEqual(2);
    // Staff keep a local copy (docs/decisions/08-offline-pwa.md): the people the calendar loaded show, not an error.
    await expect(page.getByRole('region', { name: 'Staff' }).getByRole('button', { name: /Emma Stylist/ })).toBeVisible();
    await expect(page.getByText('Failed to fetch directory.')).toHaveCount(0);
    await shootAllSizes(page, 'connection-both-failed');
  } finally {
    await proxy.close();
  }
});
