// How much JavaScript the public booking page costs a customer's phone: loads
// ${BASE_URL}/public/booking/demo in Debian's Chromium, gzips every script the page fetched and
// prints the totals as JSON. Exits 1 above the budget (120 KB gzipped).
//
//   BASE_URL=http://localhost:3000 node --import tsx pwa/scripts/measure-public-js.ts
//
// Service workers are blocked: the worker's background precache downloads every chunk (staff
// app included) after the page is up, which is not what the page itself needs to run.
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const PAGE_PATH = process.env.MEASURE_PATH ?? '/public/booking/demo';
const BUDGET_BYTES = Number(process.env.PUBLIC_JS_BUDGET_KB ?? 120) * 1024;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const pending: Promise<{ url: string; bytes: number; gzip: number } | null>[] = [];
  page.on('response', (res) => {
    const type = res.request().resourceType();
    const contentType = res.headers()['content-type'] ?? '';
    if (type !== 'script' && !contentType.includes('javascript')) return;
    pending.push(
      res
        .body()
        .then((body) => ({ url: res.url().replace(BASE_URL, ''), bytes: body.length, gzip: gzipSync(body, { level: 9 }).length }))
        .catch(() => null),
    );
  });
  await page.goto(`${BASE_URL}${PAGE_PATH}`, { waitUntil: 'networkidle' });
  await page
    .getByRole('heading', { name: 'Book Appointment' })
    .first()
    .waitFor({ timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForLoadState('networkidle');

  const files = (await Promise.all(pending)).filter((f): f is NonNullable<typeof f> => f !== null);
  files.sort((a, b) => b.gzip - a.gzip);
  const totalBytes = files.reduce((n, f) => n + f.bytes, 0);
  const totalGzip = files.reduce((n, f) => n + f.gzip, 0);
  const result = {
    page: `${BASE_URL}${PAGE_PATH}`,
    files,
    totalBytes,
    totalGzipBytes: totalGzip,
    totalGzipKB: Math.round((totalGzip / 1024) * 10) / 10,
    budgetKB: BUDGET_BYTES / 1024,
    withinBudget: totalGzip <= BUDGET_BYTES,
    loadsCalendarLibrary: files.some((f) => /fullcalendar|calendar-page/i.test(f.url)),
  };
  console.log(JSON.stringify(result, null, 2));
  process.exitCode = result.withinBudget && !result.loadsCalendarLibrary ? 0 : 1;
} finally {
  await browser.close();
}
