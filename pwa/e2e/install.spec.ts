// The staff app is installable (docs/decisions/08-offline-pwa.md): against the production build with
// its service worker, Chromium reports no installability errors, the manifest has an id and
// screenshots, and the signed-in header offers "Install app" exactly while the browser offers
// installation (never on the public booking pages).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { DEMO, signInAs } from './support/session.ts';

test.use({ serviceWorkers: 'allow' });

/** What Chromium's `beforeinstallprompt` looks like to the app; records whether prompt() was called. */
async function offerInstall(page: Page, outcome: 'accepted' | 'dismissed' = 'accepted'): Promise<void> {
  await page.evaluate((choice) => {
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: async () => {
        (window as unknown as { installPrompted: boolean }).installPrompted = true;
      },
      userChoice: Promise.resolve({ outcome: choice, platform: 'web' }),
    });
    window.dispatchEvent(event);
  }, outcome);
}

// Chromium never offers installation in an incognito-like context (Playwright's default one reports
// "in-incognito"), so this test runs in a persistent profile of its own.
test('Chromium reports the staff app installable', async ({ baseURL }) => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bw-install-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    baseURL,
    serviceWorkers: 'allow',
    viewport: { width: 1440, height: 900 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await signInAs(page, DEMO.owner, '/calendar');
    await expect(page.locator('.fc-event').first()).toBeVisible();
    // The first visit installs the worker; from the next load on it controls the page.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });

    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);

    const { url, errors } = await cdp.send('Page.getAppManifest');
    expect(errors).toEqual([]);
    const manifest = await (await page.request.get(url)).json();
    expect(manifest.id).toBe('/calendar');
    expect(manifest.screenshots).toEqual(
      expect.arrayContaining([expect.objectContaining({ form_factor: 'wide' }), expect.objectContaining({ form_factor: 'narrow' })]),
    );
    for (const shot of manifest.screenshots as { src: string }[]) {
      const res = await page.request.get(shot.src);
      expect(res.ok()).toBe(true);
      expect(res.headers()['content-type']).toContain('image/png');
    }
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('"Install app" shows while the browser offers installation', async ({ page }) => {
  await signInAs(page, DEMO.owner, '/calendar');
  await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
  const install = page.getByRole('button', { name: 'Install app' });
  await expect(install).toHaveCount(0);

  await offerInstall(page);
  await expect(install).toBeVisible();
  await install.click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { installPrompted?: boolean }).installPrompted)).toBe(true);
  await expect(install).toHaveCount(0);

  // Offered again, then installed some other way (the browser's own menu): the button goes.
  await offerInstall(page);
  await expect(install).toBeVisible();
  await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')));
  await expect(install).toHaveCount(0);

  // Phones: in the menu, not the header.
  await page.setViewportSize({ width: 390, height: 844 });
  await offerInstall(page);
  await expect(install).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(install).toBeVisible();
});

test('the public booking page never offers "Install app"', async ({ page }) => {
  await page.goto('/public/booking/demo');
  await expect(page.getByRole('heading', { name: 'Book Appointment' }).first()).toBeVisible();
  await offerInstall(page);
  await expect(page.getByRole('button', { name: 'Install app' })).toHaveCount(0);
});
