// One data layer (issue 10): a company's time zone changed in Company settings shows at once on
// the dashboard and in the calendar, reached through the sidebar (no reload). Every screen reads the
// company under one key (companyKeys.detail in src/data/companies.ts), which the save updates;
// with two key spellings the dashboard and calendar kept the old zone for minutes.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, signInAs } from './support/session.ts';

const NEW_ZONE = 'Australia/Adelaide'; // half-hour offset: every shown time differs from New York's

// The browser's own zone, so the calendar names the company's zone whenever it differs.
test.use({ timezoneId: 'UTC' });

async function call<T>(
  request: APIRequestContext,
  token: string,
  method: string,
  path: string,
  data?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await request.fetch(`/api${path}`, { method, data, headers: { Authorization: `Bearer ${token}`, ...headers } });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (res.status() === 204 ? undefined : await res.json()) as T;
}

const timeIn = (instant: string, zone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit' }).format(new Date(instant));

const sidebarLink = (page: Page, href: string) => page.locator(`nav[aria-label="Sections"] a[href="${href}"]`).first();

test('a time zone saved in Company settings shows at once on the dashboard and in the calendar', async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/dashboard');
  const me = await call<{ company_id: number }>(page.request, token, 'GET', '/me');
  const company = await call<{ id: number; timezone: string }>(page.request, token, 'GET', `/companies/${me.company_id}`);
  expect(company.timezone).not.toBe(NEW_ZONE);
  const [customer] = await call<{ id: number }[]>(page.request, token, 'GET', `/users?company_id=${company.id}&role=customer`);

  // An appointment a few minutes from now: today on the dashboard in either zone, its time shown in each.
  const start = new Date(Math.ceil((Date.now() + 5 * 60_000) / 300_000) * 300_000);
  const description = `E2E freshness ${Date.now()}`;
  const appt = await call<{ id: number; version: number; start_time: string }>(page.request, token, 'POST', '/appointments', {
    company_id: company.id,
    user_id: customer!.id,
    start_time: start.toISOString(),
    end_time: new Date(start.getTime() + 15 * 60_000).toISOString(),
    description,
  });
  const oldTime = timeIn(appt.start_time, company.timezone);
  const newTime = timeIn(appt.start_time, NEW_ZONE);
  expect(newTime).not.toBe(oldTime);

  try {
    // The dashboard caches the company (and its zone) first.
    await page.reload();
    const item = page.locator('.dash-item', { hasText: description });
    await expect(item.locator('.dash-item-start')).toHaveText(oldTime);

    await sidebarLink(page, '/company-settings').click();
    const profile = page.locator('section.card', { has: page.getByRole('heading', { name: 'Company profile' }) });
    await profile.getByLabel('Time zone').selectOption(NEW_ZONE);
    await profile.getByRole('button', { name: 'Save Profile' }).click();
    await expect(profile.getByText('Company profile saved.')).toBeVisible();

    await sidebarLink(page, '/dashboard').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(item.locator('.dash-item-start')).toHaveText(newTime, { timeout: 2_000 });

    await sidebarLink(page, '/').click();
    await expect(page).toHaveURL(/\/calendar/);
    // The calendar's code loads on first use: wait for it, then expect the new zone at once.
    await expect(page.getByRole('button', { name: 'Today', exact: true })).toBeVisible();
    await expect(page.locator('.cal-zone')).toHaveText(`Times are in the company's time zone (${NEW_ZONE.replace(/_/g, ' ')}).`, {
      timeout: 2_000,
    });
    // The list view shows every appointment of the week (the grids fold some into '+N more').
    await page.getByRole('button', { name: 'List', exact: true }).click();
    // .first(): an appointment that crosses midnight in the new zone is listed under both days.
    await expect(page.locator(`[aria-label*="${description}"]`).first()).toHaveAttribute('aria-label', new RegExp(` ${newTime} to `));
  } finally {
    await call(page.request, token, 'PUT', `/companies/${company.id}`, { timezone: company.timezone });
    const current = await call<{ version: number }>(page.request, token, 'GET', `/appointments/${appt.id}`);
    await call(page.request, token, 'DELETE', `/appointments/${appt.id}`, undefined, { 'If-Match': `"${current.version}"` });
  }
});
