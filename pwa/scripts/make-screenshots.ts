// Takes the manifest's screenshots (the browser's install dialog shows them) of the staff calendar
// in the demo company: a wide desktop one and a narrow phone one, into pwa/public/. Run against a
// server with the demo data, e.g. the e2e server (pwa/e2e/support/e2e-server.ts):
//
//   BASE_URL=http://localhost:3100 node --import tsx pwa/scripts/make-screenshots.ts
//
// The sizes must match `screenshots` in pwa/vite.config.ts.
import path from 'node:path';
import { chromium } from '@playwright/test';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT = path.resolve(import.meta.dirname, '..', 'public');
const SHOTS = [
  { file: 'screenshot-wide.png', width: 1280, height: 800 },
  { file: 'screenshot-narrow.png', width: 390, height: 844 },
];

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const shot of SHOTS) {
    const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: shot.width, height: shot.height } });
    const page = await context.newPage();
    const login = await page.request.post(`${BASE_URL}/api/login`, { data: { email: 'owner@demo.test', password: 'demo1234' } });
    if (!login.ok()) throw new Error(`login failed: ${login.status()}`);
    const { token } = (await login.json()) as { token: string };
    await page.goto(`${BASE_URL}/faq`);
    await page.evaluate((t) => localStorage.setItem('token', t), token);
    await page.goto(`${BASE_URL}/calendar`);
    await page.locator('.fc-event').first().waitFor({ timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: path.join(OUT, shot.file) });
    console.log(`wrote ${path.join(OUT, shot.file)}`);
    await context.close();
  }
} finally {
  await browser.close();
}
