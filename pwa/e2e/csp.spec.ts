// The whole PWA runs under its Content-Security-Policy (docs/decisions/12-operations-security-privacy.md,
// docs/decisions/30-csp-and-small-public-pages.md): every screen (public, staff, customer, global
// admin, the self-service page, the booking page embedded in another origin's iframe) is opened
// with the real headers, and no `securitypolicyviolation` event fires and no CSP error reaches the
// console. Pages other than the booking pages refuse to be framed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { linkIn, waitForMail } from './support/mail.ts';
import { DEMO, signInAs } from './support/session.ts';

interface Violation {
  page: string;
  directive: string;
  blocked: string;
  sample?: string;
}

/** Collects CSP violations of every frame of `page` (events and console errors), across navigations. */
async function watchCsp(page: Page): Promise<Violation[]> {
  const found: Violation[] = [];
  await page.exposeBinding('__bookwellCspViolation', ({ frame }, v: Omit<Violation, 'page'>) => {
    found.push({ page: frame.url(), ...v });
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __bookwellCspViolation: (v: unknown) => void }).__bookwellCspViolation;
      report({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample });
    });
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to (load|execute|apply|connect|frame|create)/i.test(msg.text())) {
      found.push({ page: page.url(), directive: 'console', blocked: msg.text() });
    }
  });
  return found;
}

/** Opens `path` and lets its lazy chunks, data and service worker settle. */
async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  // Bounded: a page that keeps a request open (polling, the service worker's precache) still counts as visited.
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await expect(page.locator('#root')).not.toBeEmpty();
}

const PUBLIC = [
  '/',
  '/pricing',
  '/faq',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password?token=x',
  '/book-appointment',
  '/public/booking/demo',
  '/appointment-success',
  '/manage',
  '/success',
  '/cancel',
];

test('an inline script is refused and reported (the watcher below sees violations)', async ({ page }) => {
  const violations = await watchCsp(page);
  await visit(page, '/faq');
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true;';
    document.head.append(script);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.some((v) => v.directive === 'script-src-elem')).toBe(true);
});

test('public pages and the self-service link run under the CSP with no violation', async ({ page }) => {
  const violations = await watchCsp(page);
  for (const path of PUBLIC) await visit(page, path);

  // The booking form end to end, then the self-service page from the confirmation email.
  const email = `csp-${Date.now().toString(36)}@example.org`;
  await visit(page, '/public/booking/demo');
  await page.getByLabel('Full Name').fill('Quinn Policy');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Phone Number').fill('+1 646 555 0142');
  await page.getByRole('radio', { name: /^Haircut\b/ }).check();
  await page.getByLabel('Team Member').selectOption({ label: 'Emma Stylist' });
  await page.locator('label[for^="bk-date-"]').nth(1).click();
  const time = page.getByLabel('Time', { exact: true });
  await expect(time.locator('option').nth(1)).toBeAttached();
  await time.selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Book Appointment' }).click();
  await expect(page.getByRole('heading', { name: 'Your appointment is booked!' })).toBeVisible();
  const mail = await waitForMail(email, (b) => b.includes('Booking confirmed'), 30_000);
  await visit(page, linkIn(mail, /http:\/\/localhost:\d+\/manage\/[A-Za-z0-9_-]{43}/));
  await expect(page.getByRole('heading', { level: 1, name: 'Your appointment' })).toBeVisible();

  expect(violations).toEqual([]);
});

test('the staff app, the customer app and the admin run under the CSP with no violation', async ({ page }) => {
  const violations = await watchCsp(page);
  await signInAs(page, DEMO.owner, '/calendar');
  await expect(page.locator('.fc').first()).toBeVisible();
  for (const path of ['/calendar', '/dashboard', '/directory', '/company-settings', '/settings', '/upgrade', '/coming-soon-1']) {
    await visit(page, path);
  }
  // The service worker the staff app installs (workbox) under the same policy.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

  await page.evaluate(() => localStorage.clear());
  await signInAs(page, DEMO.customer, '/calendar');
  for (const path of ['/calendar', '/settings']) await visit(page, path);

  await page.evaluate(() => localStorage.clear());
  await signInAs(page, DEMO.admin, '/admin');
  await visit(page, '/admin');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();

  expect(violations).toEqual([]);
});

test.describe('framing', () => {
  let server: http.Server;
  let outside: string;

  test.beforeAll(async ({ baseURL }) => {
    // Another site: a different origin (127.0.0.1 on its own port, not localhost:P) that embeds our pages.
    server = http.createServer((req, res) => {
      const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '/';
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html lang="en"><title>A salon's site</title><h1>Our salon</h1>
        <iframe title="Booking" src="${baseURL}${src}" width="400" height="700"></iframe>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    outside = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('another site embeds the booking page, which runs with no violation', async ({ page }) => {
    const violations = await watchCsp(page);
    await page.goto(`${outside}/?src=/public/booking/demo`);
    const frame = page.frameLocator('iframe[title="Booking"]');
    await expect(frame.getByRole('heading', { name: 'Book Appointment' }).first()).toBeVisible({ timeout: 20_000 });
    await expect(frame.getByRole('radio', { name: /^Haircut\b/ })).toBeVisible();
    await frame.getByRole('radio', { name: /^Haircut\b/ }).check();
    await frame.getByLabel('Team Member').selectOption({ label: 'Emma Stylist' });
    await expect(frame.locator('label[for^="bk-date-"]').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
  });

  test('another site cannot frame the sign-in page', async ({ page }) => {
    const refused: string[] = [];
    page.on('console', (msg) => {
      if (/frame-ancestors|Refused to (display|frame)/i.test(msg.text())) refused.push(msg.text());
    });
    await page.goto(`${outside}/?src=/login`);
    await expect.poll(() => refused.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const frame = page.frameLocator('iframe[title="Booking"]');
    await expect(frame.getByRole('button', { name: /sign in|log in/i })).toHaveCount(0);
  });
});
