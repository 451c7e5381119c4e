// Company settings "Country for phone numbers" (docs/decisions/22-messaging.md): an admin of a new
// company picks United Kingdom, adds a customer in the Directory with a British number typed the
// local way, and the Directory shows it in international form (stored in E.164, shown grouped); a number
// that cannot be one is refused with the server's message under the Phone field. Screenshots and axe-core.
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousAxe } from './support/axe.ts';
import { openWithToken } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';

const unique = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** A new company and its admin, signed in (a company of its own: the country change touches no other spec's data). */
async function newCompanyAdmin(page: Page): Promise<{ token: string; companyId: number }> {
  const res = await page.request.post('/api/register', {
    data: {
      name: 'Gwen Admin',
      email: unique('gb-admin'),
      password: 'secret123',
      company_name: 'Phone Country Salon',
      timezone: 'Europe/London',
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const token = (await res.json()).token as string;
  const me = await page.request.get('/api/me', { headers: { Authorization: `Bearer ${token}` } });
  const companyId = (await me.json()).company_id as number;
  await openWithToken(page, token, '/faq');
  return { token, companyId };
}

test('country GB in Company settings: a local British number added in the Directory shows in international form', async ({ page }) => {
  const { token, companyId } = await newCompanyAdmin(page);
  const company = async () =>
    (await (await page.request.get(`/api/companies/${companyId}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
      country: string;
    };
  expect((await company()).country).toBe('US');

  await page.goto('/company-settings');
  const card = page.getByRole('region', { name: 'Phone numbers' });
  const select = card.getByLabel('Country for phone numbers');
  await expect(select).toHaveValue('US', { timeout: 15_000 });
  await expect(select.locator('option:checked')).toHaveText('United States (+1)');
  await expect(card.getByText('read as United States numbers')).toBeVisible();
  expect(await select.locator('option').count()).toBeGreaterThan(200);

  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/api/companies/${companyId}`));
  await select.selectOption('GB');
  expect((await saved).status()).toBe(200);
  await expect(card.getByText('read as United Kingdom numbers')).toBeVisible();
  expect((await company()).country).toBe('GB');
  await expectNoSeriousAxe(page, 'company settings with the phone numbers card');
  await shootAllSizes(page, 'company-settings-phone-country');

  // Kept across a reload.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Phone numbers' }).getByLabel('Country for phone numbers')).toHaveValue('GB', {
    timeout: 15_000,
  });

  // The Directory: a British number typed as dialled in Britain.
  await page.goto('/directory');
  await page.getByRole('button', { name: '+ Add Customer' }).click();
  const modal = page.getByRole('dialog', { name: 'Add Customer' });
  await modal.getByLabel('Full Name*').fill('Harriet Local');
  await modal.getByLabel('Email*').fill(unique('harriet'));

  // A number that cannot be one: the server's message under the Phone field, which is marked invalid.
  await modal.getByLabel('Phone (optional)').fill('12');
  await modal.getByRole('button', { name: 'Add Customer' }).click();
  await expect(modal.getByLabel('Phone (optional)')).toHaveAttribute('aria-invalid', 'true');
  await expect(modal.getByLabel('Phone (optional)')).toHaveAccessibleDescription(/^Not a possible phone number: write it as dialled in GB/);

  await modal.getByLabel('Phone (optional)').fill('020 7946 0958');
  await modal.getByRole('button', { name: 'Add Customer' }).click();
  await expect(modal.getByRole('status')).toContainText('Customer added.');
  await expect(modal).toBeHidden({ timeout: 10_000 });

  const customers = page.getByRole('region', { name: 'Customers' });
  const row = customers.locator('.dir-list > li').filter({ hasText: 'Harriet Local' });
  await expect(row).toContainText('+44 20 7946 0958', { timeout: 15_000 });
  await expect(row).not.toContainText('020 7946 0958');
  await shootAllSizes(page, 'directory-e164-phone');
});
