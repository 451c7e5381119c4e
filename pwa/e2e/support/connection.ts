// Cutting the app's connection to the API in a browser test, and giving it back. page.route, since
// context.setOffline does not cut a service worker's own requests (docs/decisions/08-offline-pwa.md).
import type { Page } from '@playwright/test';

/** Requests matching `pattern` fail as if the connection dropped. */
export async function cutRequests(page: Page, pattern: string): Promise<void> {
  await page.route(pattern, (route) => route.abort('internetdisconnected'));
}

/** Lets them through again and tells the app the connection is back, so its outbox and sync retry at once. */
export async function restoreRequests(page: Page, pattern: string): Promise<void> {
  await page.unroute(pattern);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
}

/** The 'YYYY-MM-DD' an instant falls on in `zone`. */
export function wallDate(iso: string, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}
