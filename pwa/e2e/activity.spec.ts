// Activity (docs/decisions/31-audit-log.md, docs/decisions/12-operations-security-privacy.md): the audit log in Company settings for a
// company's admins and in /admin for global_admin. Writes made through the API show up with who did
// them, what and the changed fields; failed sign-ins too; "Load more" pages back; global_admin
// filters by company and alone sees failed sign-ins for unknown emails. Screenshots at every size.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO, apiToken, signInAs } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';

// A browser far from the company (New York): its times must still read in the company's zone.
test.use({ timezoneId: 'Pacific/Auckland' });

async function call(request: APIRequestContext, token: string, method: string, path: string, data?: unknown) {
  const res = await request.fetch(`/api${path}`, { method, headers: { Authorization: `Bearer ${token}` }, data });
  const text = await res.text();
  return { status: res.status(), body: text ? JSON.parse(text) : undefined };
}

test('company admins see their activity with the changed fields, failed sign-ins and Load more', async ({ page }) => {
  const manager = await apiToken(page, DEMO.manager);
  const owner = await apiToken(page, DEMO.owner);
  const me = (await call(page.request, owner, 'GET', '/me')).body as { company_id: number };
  const company = (await call(page.request, owner, 'GET', `/companies/${me.company_id}`)).body as {
    booking_window_days: number;
    timezone: string;
  };
  // Enough entries for a second page (25 a page): alternate the booking window, each save one entry.
  const base = company.booking_window_days === 60 ? 61 : 60;
  for (let i = 0; i < 26; i++) {
    const res = await call(page.request, owner, 'PATCH', `/companies/${me.company_id}`, { booking_window_days: i % 2 ? base : base + 1 });
    expect(res.status).toBe(200);
  }
  const closure = await call(page.request, manager, 'POST', '/date-overrides', { date: '2027-01-01', is_closed: true, note: 'New year' });
  expect(closure.status).toBe(201);
  const failed = await page.request.post('/api/login', { data: { email: DEMO.owner, password: 'not-the-password' } });
  expect(failed.status()).toBe(400);

  await signInAs(page, DEMO.owner, '/company-settings');
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Activity', exact: true }) });
  await expect(card).toBeVisible();
  const entries = card.getByTestId('activity-entry');
  // People by name where the company's directory knows them.
  await expect(entries.first()).toContainText('failed sign-in for Olivia Owner');
  await expect(entries.nth(1)).toContainText('Marco Manager created date override');
  await expect(entries.nth(1)).toContainText('date');
  await expect(entries.nth(1)).toContainText('2027-01-01');
  await expect(entries.nth(2)).toContainText('Olivia Owner changed company settings');
  await expect(entries.nth(2)).toContainText('booking window days');
  await expect(entries.nth(2)).toContainText('→');
  // Times read in the company's zone, as on its Messages card, whatever the browser's zone.
  const time = entries.first().locator('time');
  const at = new Date((await time.getAttribute('datetime'))!);
  const inZone = (zone: string) =>
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    }).format(at);
  expect(inZone(company.timezone)).not.toBe(inZone('Pacific/Auckland'));
  await expect(time).toHaveText(inZone(company.timezone));
  await expect(entries).toHaveCount(25);
  await card.getByRole('button', { name: 'Load more' }).click();
  await expect.poll(() => entries.count()).toBeGreaterThan(25);
  // Never a password in what is shown.
  await expect(card).not.toContainText('not-the-password');
  await card.scrollIntoViewIfNeeded();
  await shootAllSizes(page, 'activity-company');

  // Managers edit settings but do not get the log.
  await signInAs(page, DEMO.manager, '/company-settings');
  await expect(page.getByRole('heading', { name: 'Closures and special hours' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Activity', exact: true })).toHaveCount(0);

  // Leave the demo company's booking window as it was: the booking page's specs rely on it.
  expect(
    (await call(page.request, owner, 'PATCH', `/companies/${me.company_id}`, { booking_window_days: company.booking_window_days })).status,
  ).toBe(200);
});

test('global_admin sees every company, filters by one, and alone sees failed sign-ins for unknown emails', async ({ page }) => {
  const stranger = `nobody-${Date.now()}@example.test`;
  expect((await page.request.post('/api/login', { data: { email: stranger, password: 'whatever1' } })).status()).toBe(400);
  const owner = await apiToken(page, DEMO.owner);
  const me = (await call(page.request, owner, 'GET', '/me')).body as { company_id: number };
  const service = await call(page.request, owner, 'POST', '/service-types', { name: `Audit check ${Date.now()}`, duration_minutes: 30 });
  expect(service.status).toBe(201);

  await signInAs(page, DEMO.admin, '/admin?tab=activity');
  const panel = page.getByRole('tabpanel');
  const entries = panel.getByTestId('activity-entry');
  await expect(page.getByRole('tab', { name: 'Activity' })).toHaveAttribute('aria-selected', 'true');
  const unknown = entries.filter({ hasText: stranger });
  await expect(unknown).toHaveCount(1);
  await expect(unknown).toContainText('Someone not signed in failed sign-in for person');
  await expect(unknown).toContainText('No company');
  await expect(entries.filter({ hasText: service.body.service_type.name }).first()).toContainText('Olivia Owner created service');
  await expect(entries.filter({ hasText: service.body.service_type.name }).first()).toContainText('Demo Studio');

  await panel.getByLabel('Company').selectOption(String(me.company_id));
  await expect(entries.first()).toBeVisible();
  await expect(entries.filter({ hasText: stranger })).toHaveCount(0);
  await expect(entries.filter({ hasText: service.body.service_type.name }).first()).toBeVisible();
  await shootAllSizes(page, 'activity-admin');
});
