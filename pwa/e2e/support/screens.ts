// Screenshots of a screen at the three sizes we design for, kept as test artifacts.
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

export const SIZES = {
  phone: { width: 390, height: 844 },
  tablet: { width: 820, height: 1180 },
  desktop: { width: 1440, height: 900 },
} as const;

export const SCREENS_DIR = path.join(import.meta.dirname, '..', 'artifacts', 'screens');

/** Takes `name-{phone,tablet,desktop}.png` and asserts no horizontal scrolling at any size. */
export async function shootAllSizes(page: Page, name: string, settle?: (page: Page) => Promise<void>): Promise<void> {
  const original = page.viewportSize();
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    if (settle) await settle(page);
    await page.waitForTimeout(150);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} scrolls horizontally at ${size}`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SCREENS_DIR, `${name}-${size}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
