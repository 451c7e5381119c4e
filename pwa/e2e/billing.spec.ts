// Subscribing and billing in the browser (issue 14 point 9, docs/decisions/06-subscriptions.md) against the
// local fake Stripe the e2e server starts (api/src/features/billing/fake-stripe.ts): a new company's admin
// goes from Company settings to the plans, subscribes, pays on the fake Stripe checkout page, which posts
// the signed checkout.session.completed webhook to the server before sending the browser back to
// /success; Company settings then shows the plan, and Manage billing opens the fake Stripe billing portal,
// which returns to Company settings. A fresh company each time: the demo company stays as it is.
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousAxe } from './support/axe.ts';
import { shootAllSizes } from './support/screens.ts';
import { DEMO, openWithToken, signInAs } from './support/session.ts';

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

async function newCompany(page: Page, name: string): Promise<{ token: string; companyId: number }> {
  const email = `billing-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.org`;
  const res = await page.request.post('/api/register', {
    data: { name: 'Bea Billing', email, password: 'billing1', company_name: name, timezone: 'Europe/London' },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  const token = ((await res.json()) as { token: string }).token;
  const me = await page.request.get('/api/me', { headers: { authorization: `Bearer ${token}` } });
  return { token, companyId: ((await me.json()) as { company_id: number }).company_id };
}

async function companyRow(page: Page, token: string, id: number) {
  const res = await page.request.get(`/api/companies/${id}`, { headers: { authorization: `Bearer ${token}` } });
  return (await res.json()) as { subscription_plan: string; subscription_active: boolean; has_billing_account: boolean };
}

test('subscribe from Company settings through the fake Stripe checkout: the webhook applies the plan, and Manage billing opens the portal', async ({
  page,
}) => {
  // Three sizes of screenshots, axe and two foreign pages: more than the default minute on a busy machine.
  test.setTimeout(120_000);
  const { token, companyId } = await newCompany(page, 'Checkout Round Trip');
  await openWithToken(page, token, '/company-settings');
  const sub = card(page, 'Subscription');
  // A new company: on the Free Trial, no billing account, so no Manage billing.
  await expect(sub.getByText('Free Trial')).toBeVisible();
  await expect(sub.getByRole('button', { name: 'Manage billing' })).toHaveCount(0);

  await sub.getByRole('link', { name: 'View plans' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  // Signed in: the plan the company is on is marked, and the header leads back into the app.
  const planCard = (name: string) => page.locator('.plan').filter({ has: page.getByRole('heading', { name, exact: true }) });
  await expect(planCard('Free Trial').getByText('Your current plan')).toBeVisible();
  await expect(page.getByText('Your current plan')).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Login', exact: true })).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Open Bookwell' })).toHaveAttribute('href', '/calendar');
  await page.getByRole('button', { name: 'Subscribe to Standard' }).click();

  // The fake Stripe's hosted checkout page, for the Standard price the server configured.
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/c\/pay\/cs_fake_\d+$/);
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
  await expect(page.getByText('price_e2e_standard')).toBeVisible();
  expect(await companyRow(page, token, companyId)).toMatchObject({ subscription_plan: 'trial', has_billing_account: true });

  // Paying: the fake posts the signed webhook and only then sends the browser back to /success.
  await page.getByRole('button', { name: 'Pay and subscribe' }).click();
  await expect(page).toHaveURL(/\/success\?session_id=cs_fake_\d+$/);
  await expect(page.getByText('Thank you! Your subscription is active.')).toBeVisible();
  expect(await companyRow(page, token, companyId)).toMatchObject({ subscription_plan: 'standard', subscription_active: true });

  await page.goto('/pricing');
  await expect(planCard('Standard').getByText('Your current plan')).toBeVisible();
  // Its button opens the billing portal (the server's answer for a paying company), and says so.
  await expect(planCard('Standard').getByRole('button', { name: 'Manage your plan' })).toBeVisible();
  await expect(planCard('Enterprise').getByRole('button', { name: 'Subscribe to Enterprise' })).toBeVisible();
  await expect(page.getByText('Your current plan')).toHaveCount(1);

  // The status block shows the plan, about a month to go, and Manage billing.
  await page.goto('/company-settings');
  await expect(sub.getByText('Subscription active')).toBeVisible();
  await expect(sub.locator('.sub-plan')).toHaveText('Standard');
  await expect(sub.getByText(/^(29|30|31)$/)).toBeVisible();
  const manage = sub.getByRole('button', { name: 'Manage billing' });
  await expect(manage).toBeVisible();
  await expectNoSeriousAxe(page, 'company settings of a paying company');
  await sub.scrollIntoViewIfNeeded();
  await shootAllSizes(page, 'company-settings-billing');

  await manage.click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/p\/session\/bps_fake_\d+$/);
  await expect(page.getByRole('heading', { name: 'Fake Stripe billing portal' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to the app' }).click();
  await expect(page).toHaveURL(/\/company-settings$/);
  await expect(card(page, 'Subscription').getByText('Subscription active')).toBeVisible();
});

test('Manage billing is only for a paying company Stripe knows, and only for its admin', async ({ page }) => {
  // The demo company pays (a plan set without Stripe): no billing account, no button.
  await signInAs(page, DEMO.owner, '/company-settings');
  const sub = card(page, 'Subscription');
  await expect(sub.getByText('Subscription active')).toBeVisible();
  await expect(sub.getByRole('link', { name: 'View plans' })).toBeVisible();
  await expect(sub.getByRole('button', { name: 'Manage billing' })).toHaveCount(0);
  // A manager sees the status, not the billing.
  await signInAs(page, DEMO.manager, '/company-settings');
  await expect(sub.getByText('Your company admin manages the plan.')).toBeVisible();
  await expect(sub.getByRole('button', { name: 'Manage billing' })).toHaveCount(0);
});
