// Public booking stays online-only (issue 11, point 5; docs/decisions/08-offline-pwa.md): a customer
// whose phone lost its connection sees plainly that nothing can be booked, not a form that fails on
// submit; the FAQ tells owners exactly what works offline.
import { expect, test } from '@playwright/test';
import { shootAllSizes } from './support/screens.ts';

const OFFLINE = 'You are offline. Booking needs an internet connection: nothing has been booked. Connect and try again.';

test('the booking page says plainly that booking needs a connection', async ({ page, context }) => {
  await page.goto('/public/booking/demo');
  await expect(page.getByRole('heading', { name: 'Book Appointment' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Personal Information' })).toBeVisible();
  await expect(page.getByText(OFFLINE)).toHaveCount(0);

  await context.setOffline(true);
  await expect(page.getByText(OFFLINE)).toBeVisible();
  await shootAllSizes(page, 'booking-offline');
  await context.setOffline(false);
  await expect(page.getByText(OFFLINE)).toHaveCount(0);
});

test('a connection lost while the booking page loads: the notice shows instead of a spinner alone', async ({ page, context }) => {
  // The business's answer is held back, as on a phone whose connection drops mid-load; a CI run
  // once went offline in exactly that moment and the page showed only "Loading..." for good.
  let releaseCompany!: () => void;
  const companyHeld = new Promise<void>((r) => (releaseCompany = r));
  await page.route('**/api/companies/slug/demo', async (route) => {
    await companyHeld;
    await route.continue();
  });
  await page.goto('/public/booking/demo');
  await expect(page.getByText('Loading...')).toBeVisible();
  await expect(page.getByText(OFFLINE)).toHaveCount(0);

  await context.setOffline(true);
  await expect(page.getByText(OFFLINE)).toBeVisible();
  await expect(page.getByText('Loading...')).toBeVisible();

  await context.setOffline(false);
  releaseCompany();
  await expect(page.getByRole('group', { name: 'Personal Information' })).toBeVisible();
  await expect(page.getByText(OFFLINE)).toHaveCount(0);
});

test('the FAQ and the landing page say what works offline and what does not', async ({ page }) => {
  await page.goto('/faq');
  await page.locator('summary', { hasText: /mobile/i }).click();
  const answer = page.locator('details', { hasText: /mobile/i });
  await expect(answer).toContainText('create, move, edit and delete appointments');
  await expect(answer).toContainText('Online booking by customers needs a connection.');
  await page.goto('/');
  await expect(page.getByText(/changes made offline are sent when it returns/)).toBeVisible();
});
