// Reminders and staff notices in the app (docs/decisions/22-messaging.md): Company settings' "Reminders"
// card saves reminder_hours_before (1 to 168) and keeps it after a reload; a staff member's Settings
// turns their booking notices off and on, read back through the API. Screenshots at every size.
//
// Each test puts the demo company and the demo employee back as it found them.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO, apiToken, signInAs } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';

const NOTICES_LABEL = 'Email me when a customer books, reschedules or cancels with me';

async function call<T>(request: APIRequestContext, token: string, method: string, path: string, data?: unknown) {
  const res = await request.fetch(`/api${path}`, { method, headers: { Authorization: `Bearer ${token}` }, data });
  const text = await res.text();
  return { status: res.status(), body: (text ? JSON.parse(text) : undefined) as T };
}

test('Company settings: the reminder hours are checked, saved and kept after a reload', async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/company-settings');
  const me = await call<{ company_id: number }>(page.request, token, 'GET', '/me');
  const companyPath = `/companies/${me.body.company_id}`;
  const before = (await call<{ reminder_hours_before: number }>(page.request, token, 'GET', companyPath)).body.reminder_hours_before;
  try {
    const card = page.getByRole('region', { name: 'Reminders' });
    const hours = card.getByLabel('Hours before the appointment');
    await expect(hours).toHaveValue(String(before), { timeout: 20_000 });

    // Out of range: refused on the page, nothing sent.
    await hours.fill('200');
    await card.getByRole('button', { name: 'Save Reminders' }).click();
    await expect(card.getByText('Enter a whole number of hours from 1 to 168 (one week).')).toBeVisible();
    await expect(hours).toHaveAttribute('aria-invalid', 'true');
    expect((await call<{ reminder_hours_before: number }>(page.request, token, 'GET', companyPath)).body.reminder_hours_before).toBe(
      before,
    );

    const wanted = before === 48 ? 36 : 48;
    await hours.fill(String(wanted));
    await card.getByRole('button', { name: 'Save Reminders' }).click();
    await expect(card.getByText('Reminder time saved.')).toBeVisible({ timeout: 20_000 });
    expect((await call<{ reminder_hours_before: number }>(page.request, token, 'GET', companyPath)).body.reminder_hours_before).toBe(
      wanted,
    );

    await page.reload();
    await expect(page.getByRole('region', { name: 'Reminders' }).getByLabel('Hours before the appointment')).toHaveValue(String(wanted), {
      timeout: 20_000,
    });
    await page.getByRole('region', { name: 'Reminders' }).scrollIntoViewIfNeeded();
    await shootAllSizes(page, 'reminders-company-settings');
  } finally {
    await call(page.request, token, 'PUT', companyPath, { reminder_hours_before: before });
  }
});

test('Settings: a staff member turns booking notices off and on, and the choice is kept', async ({ page }) => {
  const token = await signInAs(page, DEMO.employee, '/settings');
  const me = await call<{ id: number; booking_notices?: boolean }>(page.request, token, 'GET', '/me');
  expect(me.body.booking_notices).toBe(true);
  const noticesOf = async () => (await call<{ booking_notices?: boolean }>(page.request, token, 'GET', '/me')).body.booking_notices;
  try {
    const toggle = page.getByRole('checkbox', { name: NOTICES_LABEL });
    await expect(toggle).toBeChecked({ timeout: 20_000 });
    await toggle.uncheck();
    await expect.poll(noticesOf, { timeout: 20_000 }).toBe(false);

    await page.reload();
    await expect(page.getByRole('checkbox', { name: NOTICES_LABEL })).not.toBeChecked({ timeout: 20_000 });
    await page.getByRole('checkbox', { name: NOTICES_LABEL }).scrollIntoViewIfNeeded();
    await shootAllSizes(page, 'reminders-booking-notices');

    await page.getByRole('checkbox', { name: NOTICES_LABEL }).check();
    await expect.poll(noticesOf, { timeout: 20_000 }).toBe(true);
    await page.reload();
    await expect(page.getByRole('checkbox', { name: NOTICES_LABEL })).toBeChecked({ timeout: 20_000 });
  } finally {
    await call(page.request, token, 'PUT', `/users/${me.body.id}`, { booking_notices: true });
  }
});

test('Settings: customers have no booking notices toggle', async ({ page }) => {
  await signInAs(page, DEMO.customer, '/settings');
  await expect(page.getByRole('button', { name: 'Save Changes' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('checkbox', { name: NOTICES_LABEL })).toHaveCount(0);
  // The owner's own Settings have it (every staff role).
  const owner = await apiToken(page, DEMO.owner);
  expect((await call<{ booking_notices?: boolean }>(page.request, owner, 'GET', '/me')).body.booking_notices).toBe(true);
});
