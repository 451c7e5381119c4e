// Privacy in the PWA (docs/decisions/32-privacy-and-operations.md): a customer downloads their data
// and erases their account from Settings (and is signed out); a company admin does both for a
// customer from the Directory's person view. Screenshots of the card at the three sizes.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, apiToken, openWithToken, signInAs } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';
import { expectNoSeriousAxe } from './support/axe.ts';

const PASSWORD = 'privacy-pass-1234';

/** A customer of the demo company with a password, signed up as on the booking page. */
async function newCustomer(page: Page, name: string): Promise<{ id: number; email: string; token: string }> {
  const email = `privacy-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const res = await page.request.post('/api/register', {
    data: { name, email, password: PASSWORD, role: 'customer', company_slug: 'demo' },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const token = await apiToken(page, email, PASSWORD);
  const me = await page.request.get('/api/me', { headers: { Authorization: `Bearer ${token}` } });
  return { id: (await me.json()).id as number, email, token };
}

const privacyCard = (page: Page, name: string) => page.getByRole('region', { name });

test('a customer downloads their data and erases their account from Settings, and is signed out', async ({ page }) => {
  const c = await newCustomer(page, 'Petra Private');
  await openWithToken(page, c.token, '/settings');
  const card = privacyCard(page, 'Your data');
  await expect(card).toBeVisible();
  await expectNoSeriousAxe(page, 'settings with the privacy card', { include: '.privacy-card' });
  await card.scrollIntoViewIfNeeded();
  await shootAllSizes(page, 'privacy-settings');

  const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download my data' }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^bookwell-data-${c.id}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
  const data = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
  expect(data.profile).toMatchObject({ id: c.id, name: 'Petra Private', email: c.email, role: 'customer' });
  expect(Array.isArray(data.appointments)).toBe(true);

  await card.getByRole('button', { name: 'Erase my account' }).click();
  const confirm = card.getByRole('alertdialog');
  await expect(confirm).toContainText('"Deleted customer"');
  await expect(confirm).toContainText('You will be signed out.');
  await expect(confirm).toContainText('Upcoming appointments stay booked: cancel any you will not come to first');
  await shootAllSizes(page, 'privacy-confirm');
  // Cancel leaves everything as it was.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await card.getByRole('button', { name: 'Erase my account' }).click();
  await card.getByRole('alertdialog').getByRole('button', { name: 'Erase for good' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your account was erased.')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  const login = await page.request.post('/api/login', { data: { email: c.email, password: PASSWORD } });
  expect(login.ok()).toBe(false);
});

test('a company admin downloads and erases a customer from the Directory; staff get no erase button', async ({ page }) => {
  const c = await newCustomer(page, 'Dora Directory');
  await signInAs(page, DEMO.owner, '/directory');
  await page
    .getByRole('region', { name: 'Customers' })
    .getByRole('button', { name: /Dora Directory/ })
    .click();
  const card = privacyCard(page, 'Personal data');
  await expect(card).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download their data' }).click()]);
  const data = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
  expect(data.profile).toMatchObject({ id: c.id, email: c.email });

  await card.getByRole('button', { name: 'Erase this customer' }).click();
  await card.getByRole('alertdialog').getByRole('button', { name: 'Erase for good' }).click();
  // Back to the Directory, where the customer no longer appears.
  await expect(page.getByRole('region', { name: 'Customers' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Customers' }).getByRole('button', { name: /Dora Directory/ })).toHaveCount(0);
  const owner = await apiToken(page, DEMO.owner);
  const after = await page.request.get(`/api/users/${c.id}/export`, { headers: { Authorization: `Bearer ${owner}` } });
  expect((await after.json()).profile).toMatchObject({ name: 'Deleted customer', phone: null });

  // A staff member's view has the download but no erase (staff are removed, not erased).
  await page
    .getByRole('region', { name: 'Staff' })
    .getByRole('button', { name: /Emma Stylist/ })
    .click();
  const staffCard = privacyCard(page, 'Personal data');
  await expect(staffCard.getByRole('button', { name: 'Download their data' })).toBeVisible();
  await expect(staffCard.getByRole('button', { name: /Erase/ })).toHaveCount(0);
});
