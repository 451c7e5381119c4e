// Staying signed in (docs/product/04-states.md, "Authentication"): only the server's refusal of
// GET /me signs a person out. A check the browser cuts short because the page reloads keeps the
// session; signing out there cleared the token just before the reload read it, and the person
// landed on /login (about one reload in six, right after opening a page).
import { expect, test } from '@playwright/test';
import { DEMO, signInAs } from './support/session.ts';

test('reloading right after opening a page keeps the person signed in', async ({ page }) => {
  await signInAs(page, DEMO.owner, '/faq');
  for (let i = 0; i < 12; i++) {
    await page.goto('/dashboard');
    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(await page.evaluate(() => localStorage.getItem('token')), `signed out after reload ${i + 1}`).toBeTruthy();
  }
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();
});
