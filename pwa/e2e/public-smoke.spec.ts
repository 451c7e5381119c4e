// Smoke test of the public shell: every public page renders its texts from docs/product/02-screens.md, the route guard
// sends visitors to /login and back, unknown paths go home, and nothing scrolls sideways.
import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { shootAllSizes } from './support/screens.ts';
import { DEMO } from './support/session.ts';

test('public pages show their texts', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Start Free Trial' }).first()).toHaveAttribute('href', '/register');
  for (const feature of ['Online booking', 'Automatic email and SMS reminders', 'Calendar sync', 'Mobile-friendly design']) {
    await expect(page.getByRole('heading', { name: feature })).toBeVisible();
  }

  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Free Trial' })).toBeVisible();
  await expect(page.getByText('$34.99')).toBeVisible();
  await expect(page.getByText('$79.99')).toBeVisible();
  await expect(page.getByRole('button', { name: /Included/ })).toBeDisabled();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Subscribe to Standard' }).click();
  // Said under the button pressed, in view where the visitor is looking (on a phone the top is far off).
  const standard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Standard' }) });
  await expect(standard.getByRole('alert')).toContainText('You must be logged in as a company user to subscribe.');
  await expect(standard.getByRole('alert')).toBeInViewport();
  await expect(page.getByRole('alert')).toHaveCount(1);
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.goto('/faq');
  for (const q of ['free trial', 'existing website', 'mobile', 'calendar']) {
    await expect(page.locator('summary', { hasText: new RegExp(q, 'i') })).toHaveCount(1);
  }

  await page.goto('/cancel');
  await expect(page.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Pricing' })).toHaveAttribute('href', '/pricing');
  await page.goto('/success');
  await expect(page.getByRole('link', { name: 'Go to Dashboard' })).toBeVisible();

  await page.goto('/reset-password');
  await expect(page.getByText('Invalid reset link. Please request a new password reset.')).toBeVisible();

  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
});

test('the guard remembers the page and signing in returns to it', async ({ page }) => {
  // A page whose content is ours (placeholder), so the test checks the shell, not a screen.
  await page.goto('/coming-soon-1');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  await page.getByLabel('Email address').fill(DEMO.owner);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Failed to sign in. Please check your credentials.');
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/coming-soon-1$/);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('the booking page loads the demo company with its services and dates', async ({ page }) => {
  await page.goto('/public/booking/demo');
  await expect(page.getByRole('heading', { name: 'Book Appointment' })).toBeVisible();
  await expect(page.getByRole('radio').first()).toBeVisible();
  await page.getByRole('radio').first().check();
  if (await page.getByLabel('Team Member').isVisible()) await page.getByLabel('Team Member').selectOption({ index: 1 });
  await expect(page.locator('.date-chip').first()).toBeVisible();

  await page.goto('/public/booking/no-such-company');
  await expect(page.getByText('Company not found')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
});

test('public pages have no serious accessibility problems and fit every screen', async ({ page }) => {
  for (const [name, path] of [
    ['landing', '/'],
    ['pricing', '/pricing'],
    ['login', '/login'],
    ['register', '/register'],
    ['booking', '/public/booking/demo'],
  ] as const) {
    await page.goto(path);
    await page.locator('main h1').first().waitFor();
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      serious.map((v) => `${v.id}: ${v.nodes[0]?.target}`),
      `${name} accessibility`,
    ).toEqual([]);
    await shootAllSizes(page, `public-${name}`);
  }
});
