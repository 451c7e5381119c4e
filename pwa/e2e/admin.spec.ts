// /admin (docs/product/02-screens.md "Admin panel", docs/product/04-states.md, 08-errors.md and 09-limits.md; docs/decisions/06-subscriptions.md): the
// dashboard's figures from /admin/stats with the health bar and Refresh, companies with search,
// filters and the expiry edit read back through the API, users with filters and per-role counts,
// the email export (preview, CSV file name and header, both clipboard copies with their alerts),
// every error text with Retry, the role guard, screenshots and axe-core.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoSeriousAxe } from './support/axe.ts';
import { DEMO, apiToken, signInAs } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';

interface Stats {
  total_companies: number;
  total_users: number;
  active_companies: number;
  expired_companies: number;
}

interface AdminCompany {
  id: number;
  name: string;
  slug: string;
  subscription_expires_at: string | null;
  subscription_active: boolean;
}

interface AdminUser {
  id: number;
  name: string;
  email: string;
  role: string;
  company_id: number | null;
}

async function call<T>(request: APIRequestContext, token: string, method: string, path: string, data?: unknown) {
  const res = await request.fetch(`/api${path}`, { method, headers: { Authorization: `Bearer ${token}` }, data });
  const text = await res.text();
  return { status: res.status(), body: (text ? JSON.parse(text) : undefined) as T };
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name });
const panel = (page: Page) => page.getByRole('tabpanel');
const statCard = (page: Page, label: string) => panel(page).getByRole('listitem').filter({ hasText: label });

test('dashboard: the figures of /admin/stats, the health bar, Refresh and quick links; screenshots and axe of every tab', async ({
  page,
}) => {
  const token = await signInAs(page, DEMO.admin, '/admin');
  const stats = (await call<Stats>(page.request, token, 'GET', '/admin/stats')).body;
  await expect(tab(page, 'Dashboard')).toHaveAttribute('aria-selected', 'true');
  await expect(statCard(page, 'Total companies')).toContainText(String(stats.total_companies));
  await expect(statCard(page, 'Total users')).toContainText(String(stats.total_users));
  await expect(statCard(page, 'Active subscriptions')).toContainText(String(stats.active_companies));
  await expect(statCard(page, 'Expired subscriptions')).toContainText(String(stats.expired_companies));
  const pct = Math.round((stats.active_companies / stats.total_companies) * 100);
  await expect(panel(page).getByText(`${pct}%`, { exact: true })).toBeVisible();
  await expect(page.getByRole('meter', { name: 'Companies with an active subscription' })).toHaveAttribute('aria-valuenow', String(pct));

  // Refresh asks the server again and shows the new figure.
  const owner = await apiToken(page, DEMO.owner);
  await call(page.request, owner, 'POST', '/users/customer', { name: 'Counted Once', email: `count-${Date.now()}@example.com` });
  const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/admin/stats'));
  await page.getByRole('button', { name: 'Refresh' }).click();
  await refreshed;
  await expect(statCard(page, 'Total users')).toContainText(String(stats.total_users + 1));

  await expectNoSeriousAxe(page, 'admin dashboard');
  await shootAllSizes(page, 'admin-dashboard');

  await page.getByRole('button', { name: /^Companies/ }).click();
  await expect(tab(page, 'Companies')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\?tab=companies$/);
  await expectNoSeriousAxe(page, 'admin companies');
  await shootAllSizes(page, 'admin-companies');

  // Arrow keys move between tabs.
  await tab(page, 'Companies').focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Users')).toBeFocused();
  await expect(tab(page, 'Users')).toHaveAttribute('aria-selected', 'true');
  await expect(panel(page).getByRole('searchbox', { name: 'Search users' })).toBeVisible();
  await expectNoSeriousAxe(page, 'admin users');
  await shootAllSizes(page, 'admin-users');

  await tab(page, 'Email Export').click();
  await page.getByRole('button', { name: 'Preview as JSON' }).click();
  await expect(panel(page).getByRole('heading', { name: /email address/ })).toBeVisible();
  await expectNoSeriousAxe(page, 'admin export');
  await shootAllSizes(page, 'admin-export');
});

test('the health warning shows below 80% active', async ({ page }) => {
  await signInAs(page, DEMO.admin, '/admin');
  await page.route('**/api/admin/stats', (route) =>
    route.fulfill({ json: { total_companies: 10, total_users: 40, active_companies: 7, expired_companies: 3 } }),
  );
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(panel(page).getByText('70%', { exact: true })).toBeVisible();
  await expect(panel(page).getByText(/Below 80%/)).toBeVisible();
});

test('companies: search, filters, and the expiry edited in the modal (a date, then empty for unlimited)', async ({ page }) => {
  const token = await apiToken(page, DEMO.admin);
  const name = `E2E Admin Co ${Date.now()}`;
  const created = await call<AdminCompany>(page.request, token, 'POST', '/companies', { name });
  expect(created.status).toBe(201);
  await signInAs(page, DEMO.admin, '/admin?tab=companies');
  const p = panel(page);
  const search = p.getByLabel('Search companies');

  await search.fill('DEMO');
  await expect(p.getByRole('rowheader', { name: 'Demo Studio' })).toBeVisible();
  await expect(p.getByRole('rowheader', { name })).toHaveCount(0);
  await search.fill(created.body.slug);
  await expect(p.getByRole('rowheader', { name })).toBeVisible();
  const row = p.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
  await expect(row).toContainText('Active');

  // Expire it yesterday: Expired, found under the Expired filter, and stored on the server.
  await row.getByRole('button', { name: `Edit subscription of ${name}` }).click();
  const modal = page.getByRole('dialog', { name: 'Edit subscription' });
  await expect(modal).toBeVisible();
  const yesterday = new Date(Date.now() - 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = `${yesterday.getFullYear()}-${pad(yesterday.getMonth() + 1)}-${pad(yesterday.getDate())}T09:30`;
  await modal.getByLabel('Subscription expires').fill(local);
  await modal.getByRole('button', { name: 'Save Changes' }).click();
  await expect(modal).toBeHidden();
  await expect(row).toContainText('Expired');
  let stored = (await call<AdminCompany[]>(page.request, token, 'GET', '/admin/companies')).body.find((c) => c.id === created.body.id)!;
  expect(new Date(stored.subscription_expires_at!).getTime()).toBe(new Date(local).getTime());
  expect(stored.subscription_active).toBe(false);
  await p.getByRole('button', { name: /^Expired/ }).click();
  await expect(p.getByRole('rowheader', { name })).toBeVisible();
  await p.getByRole('button', { name: /^Active/ }).click();
  await expect(p.getByText('No companies match.')).toBeVisible();

  // Empty means unlimited: Never expires, active again.
  await p.getByRole('button', { name: /^All/ }).click();
  await row.getByRole('button', { name: `Edit subscription of ${name}` }).click();
  await modal.getByLabel('Subscription expires').fill('');
  await modal.getByRole('button', { name: 'Save Changes' }).click();
  await expect(modal).toBeHidden();
  await expect(row).toContainText('Never expires');
  await expect(row).toContainText('Active');
  stored = (await call<AdminCompany[]>(page.request, token, 'GET', '/admin/companies')).body.find((c) => c.id === created.body.id)!;
  expect(stored.subscription_expires_at).toBeNull();

  // Cancel changes nothing.
  await row.getByRole('button', { name: `Edit subscription of ${name}` }).click();
  await modal.getByLabel('Subscription expires').fill('2030-01-01T10:00');
  await modal.getByRole('button', { name: 'Cancel' }).click();
  await expect(modal).toBeHidden();
  stored = (await call<AdminCompany[]>(page.request, token, 'GET', '/admin/companies')).body.find((c) => c.id === created.body.id)!;
  expect(stored.subscription_expires_at).toBeNull();
});

test("'Failed to update subscription' with Retry", async ({ page }) => {
  await signInAs(page, DEMO.admin, '/admin?tab=companies');
  let fail = true;
  await page.route('**/api/admin/companies/*/subscription', (route) =>
    fail ? route.fulfill({ status: 500, body: '' }) : route.fulfill({ json: {} }),
  );
  await panel(page).getByRole('button', { name: 'Edit subscription of Demo Studio' }).click();
  const modal = page.getByRole('dialog', { name: 'Edit subscription' });
  await modal.getByRole('button', { name: 'Save Changes' }).click();
  await expect(modal.getByText('Failed to update subscription')).toBeVisible();
  fail = false;
  await modal.getByRole('button', { name: 'Retry' }).click();
  await expect(modal).toBeHidden();
});

test('users: search, role and company filters, per-role counts, badges and contact links', async ({ page }) => {
  const token = await signInAs(page, DEMO.admin, '/admin?tab=users');
  const users = (await call<AdminUser[]>(page.request, token, 'GET', '/admin/users')).body;
  const p = panel(page);
  const customers = users.filter((u) => u.role === 'customer').length;
  await expect(p.getByRole('list', { name: 'Users per role' }).getByRole('listitem').filter({ hasText: 'Customer' })).toContainText(
    String(customers),
  );
  await expect(p.getByText(`${users.length} users`)).toBeVisible();

  await p.getByLabel('Search users').fill('EMMA');
  const emma = p.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Emma Stylist' }) });
  await expect(emma).toBeVisible();
  await expect(emma).toContainText('Employee');
  await expect(emma).toContainText('Demo Studio');
  await expect(emma.getByRole('link', { name: DEMO.employee })).toHaveAttribute('href', `mailto:${DEMO.employee}`);
  await expect(emma.getByRole('link', { name: /\+1 212 555/ })).toHaveAttribute('href', /^tel:\+1212555/);

  await p.getByLabel('Search users').fill('');
  await p.getByLabel('Role', { exact: true }).selectOption('customer');
  await expect(p.getByText(`${customers} users`)).toBeVisible();
  await p.getByLabel('Role', { exact: true }).selectOption('');
  await p.getByLabel('Company', { exact: true }).selectOption({ label: 'No Company' });
  const noCompany = users.filter((u) => u.company_id === null);
  await expect(p.getByText(noCompany.length === 1 ? '1 user' : `${noCompany.length} users`)).toBeVisible();
  const admin = p.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Demo Administrator' }) });
  await expect(admin).toContainText('Global Admin');
  await expect(admin).toContainText('No Company');
});

test('email export: preview, CSV download with its name and header, both copies with their alerts', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const token = await signInAs(page, DEMO.admin, '/admin?tab=export');
  const expected = (
    await call<{ count: number; emails: { email: string; name: string }[] }>(
      page.request,
      token,
      'GET',
      '/admin/users/export?format=json&role=employee&active_only=true',
    )
  ).body;
  expect(expected.count).toBeGreaterThan(0);
  const p = panel(page);
  await expect(p.getByLabel('Role').locator('option')).toHaveText([
    'All roles',
    'Global Admin',
    'Admin',
    'Manager',
    'Employee',
    'User',
    'Customer',
  ]);
  await p.getByLabel('Role', { exact: true }).selectOption('employee');
  await p.getByRole('checkbox', { name: 'Only companies with an active subscription' }).check();

  await p.getByRole('button', { name: 'Preview as JSON' }).click();
  await expect(p.getByRole('heading', { name: `${expected.count} email address${expected.count === 1 ? '' : 'es'}` })).toBeVisible();
  await expect(p.locator('.adm-export-table tbody tr')).toHaveCount(expected.count);
  await expect(p.getByRole('rowheader', { name: DEMO.employee })).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), p.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^user_emails_\d{4}-\d{2}-\d{2}\.csv$/);
  const d = new Date();
  expect(download.suggestedFilename()).toBe(
    `user_emails_${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}.csv`,
  );
  const csv = (await (await import('node:fs/promises')).readFile((await download.path())!, 'utf8')).split(/\r?\n/);
  expect(csv[0]).toBe('email,name,role,company_name');
  expect(csv.filter((l) => l.trim()).length).toBe(expected.count + 1);

  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  await p.getByRole('button', { name: 'Copy Email Addresses' }).click();
  await expect.poll(() => alerts.length).toBe(1);
  expect(alerts[0]).toBe(`Copied ${expected.count} email address${expected.count === 1 ? '' : 'es'} to the clipboard.`);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected.emails.map((e) => e.email).join('\n'));

  await p.getByRole('button', { name: 'Copy for Sendgrid' }).click();
  await expect.poll(() => alerts.length).toBe(2);
  expect(alerts[1]).toContain('for Sendgrid');
  const sendgrid = (await page.evaluate(() => navigator.clipboard.readText())).split('\n');
  expect(sendgrid[0]).toBe('email,name');
  expect(sendgrid).toContain(`${DEMO.employee},Emma Stylist`);
  expect(sendgrid.length).toBe(expected.count + 1);
});

test('clipboard failures show their texts', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) }, configurable: true });
  });
  await signInAs(page, DEMO.admin, '/admin?tab=export');
  await panel(page).getByRole('button', { name: 'Copy Email Addresses' }).click();
  await expect(panel(page).getByText('Failed to copy emails to clipboard')).toBeVisible();
  await panel(page).getByRole('button', { name: 'Copy for Sendgrid' }).click();
  await expect(panel(page).getByText('Failed to copy Sendgrid data to clipboard')).toBeVisible();
});

test('every load and export failure shows its text with a Retry that works', async ({ page }) => {
  const failing = new Set(['/api/admin/stats', '/api/admin/companies', '/api/admin/users', '/api/admin/users/export']);
  await page.route(
    (url) => failing.has(url.pathname),
    (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'boom' }) }),
  );
  await signInAs(page, DEMO.admin, '/admin');
  for (const [name, text] of [
    ['Dashboard', 'Failed to load admin statistics'],
    ['Companies', 'Failed to load companies'],
  ]) {
    await tab(page, name).click();
    // Server errors are retried twice before the page gives up.
    await expect(panel(page).getByText(text, { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(panel(page).getByRole('button', { name: 'Retry' })).toBeVisible();
  }
  await tab(page, 'Email Export').click();
  await panel(page).getByRole('button', { name: 'Preview as JSON' }).click();
  await expect(panel(page).getByText('Failed to export user emails', { exact: true })).toBeVisible({ timeout: 15_000 });
  await panel(page).getByRole('button', { name: 'Download CSV' }).click();
  await expect(panel(page).getByText('Failed to export user emails as CSV', { exact: true })).toBeVisible();
  failing.delete('/api/admin/users/export');
  const [download] = await Promise.all([page.waitForEvent('download'), panel(page).getByRole('button', { name: 'Retry' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^user_emails_/);
  await expect(panel(page).getByText('Failed to export user emails as CSV')).toHaveCount(0);

  await tab(page, 'Users').click();
  await expect(panel(page).getByText('Failed to load users', { exact: true })).toBeVisible({ timeout: 15_000 });
  failing.clear();
  await panel(page).getByRole('button', { name: 'Retry' }).click();
  await expect(panel(page).getByRole('rowheader', { name: 'Emma Stylist' })).toBeVisible();
});

test('only a global_admin opens /admin; company staff are sent to /calendar', async ({ page }) => {
  await signInAs(page, DEMO.owner, '/admin');
  await expect(page).toHaveURL(/\/calendar(\?.*)?$/);
  await expect(page.getByRole('link', { name: 'Administration' })).toHaveCount(0);
});
