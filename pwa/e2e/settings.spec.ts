// /settings (docs/product/02-screens.md "Settings page", docs/product/05-validation.md and 08-errors.md): the own-account editor, Change
// Password with every message and the fresh token that keeps the session, per-person work hours
// with the start/end messages and the rows that reach the server, the role select for admins on
// other people, screenshots and axe-core.
//
// Each test that changes a password or hours works on a person it creates, so the demo logins the
// other specs use stay as they are.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoSeriousAxe } from './support/axe.ts';
import { DEMO, apiToken, signInAs } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';
import { linkIn, waitForMail } from './support/mail.ts';

interface Person {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  role: string;
  company_id: number | null;
}

interface HoursRow {
  id: number;
  user_id: number | null;
  day_of_week: number;
  open_time: string | null;
  close_time: string | null;
}

async function call<T>(request: APIRequestContext, token: string, method: string, path: string, data?: unknown) {
  const res = await request.fetch(`/api${path}`, { method, headers: { Authorization: `Bearer ${token}` }, data });
  const text = await res.text();
  return { status: res.status(), body: (text ? JSON.parse(text) : undefined) as T };
}

/** An employee of the demo company who has set their password through the invitation email. */
async function newEmployee(page: Page, password: string): Promise<Person & { password: string }> {
  const owner = await apiToken(page, DEMO.owner);
  const email = `settings-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const created = await call<Person>(page.request, owner, 'POST', '/users/employee', {
    name: 'Sam Settings',
    email,
    phone: null,
    role: 'employee',
  });
  expect(created.status).toBe(201);
  const mail = await waitForMail(email, (b) => b.includes('/reset-password?token='));
  const link = linkIn(mail, /\/reset-password\?token=[^\s"'<>]+/);
  const token = decodeURIComponent(new URL(link, 'http://x').searchParams.get('token')!);
  const confirm = await page.request.post('/api/password-reset/confirm', { data: { token, new_password: password } });
  expect(confirm.status()).toBe(200);
  return { ...created.body, password };
}

const passwordSection = (page: Page) => page.getByRole('region', { name: 'Change Password' });
const hoursSection = (page: Page) => page.getByRole('region', { name: 'Work hours' });

test('Your Settings shows the own profile: read-only email, role select disabled for an admin, screenshots, axe', async ({ page }) => {
  await signInAs(page, DEMO.owner, '/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Your Settings' })).toBeVisible();
  const email = page.getByLabel('Email', { exact: true });
  await expect(email).toHaveValue(DEMO.owner);
  await expect(email).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Olivia Owner');
  // Admins see the role select, but never for their own account.
  await expect(page.getByLabel('Role')).toBeDisabled();
  await expect(page.getByText('You cannot change your own role.')).toBeVisible();
  await expect(hoursSection(page)).toBeVisible();
  await expect(passwordSection(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Changes' })).toBeVisible();
  await expectNoSeriousAxe(page, 'settings');
  await shootAllSizes(page, 'settings');
});

test('a customer has no work hours and no role select, but can change their password', async ({ page }) => {
  await signInAs(page, DEMO.customer, '/settings');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(DEMO.customer);
  await expect(hoursSection(page)).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Role' })).toHaveCount(0);
  await expect(passwordSection(page)).toBeVisible();
  await expectNoSeriousAxe(page, 'customer settings');
  await shootAllSizes(page, 'settings-customer');
});

test('Change Password: every validation message, the server refusal, then a new token that keeps the session', async ({ page }) => {
  const me = await newEmployee(page, 'first-pass-1');
  await signInAs(page, me.email, '/settings', me.password);
  const section = passwordSection(page);
  const current = section.getByLabel('Current password');
  const next = section.getByLabel('New password', { exact: true });
  const confirm = section.getByLabel('Confirm new password');
  const submit = section.getByRole('button', { name: 'Change Password' });
  const message = section.getByRole('alert');

  await submit.click();
  await expect(message).toHaveText('Current password is required.');
  await current.fill(me.password);
  await submit.click();
  await expect(message).toHaveText('New password is required.');
  await next.fill('abc');
  await submit.click();
  await expect(message).toHaveText('New password must be at least 6 characters long.');
  await next.fill('second-pass-2');
  await confirm.fill('second-pass-x');
  await submit.click();
  await expect(message).toHaveText('Passwords do not match.');
  await next.fill(me.password);
  await confirm.fill(me.password);
  await submit.click();
  await expect(message).toHaveText('New password must be different from current password.');

  // A wrong current password: the server answers 400 and its message is shown; nothing changes.
  await current.fill('not-my-password');
  await next.fill('second-pass-2');
  await confirm.fill('second-pass-2');
  await submit.click();
  await expect(message).toBeVisible();
  await expect(message).not.toHaveText(/successfully/i);
  expect((await page.request.post('/api/login', { data: { email: me.email, password: me.password } })).status()).toBe(200);

  const tokenBefore = await page.evaluate(() => localStorage.getItem('token'));
  await current.fill(me.password);
  await submit.click();
  await expect(section.getByRole('status')).toContainText(/password/i);
  await expect(current).toHaveValue('');
  const tokenAfter = await page.evaluate(() => localStorage.getItem('token'));
  expect(tokenAfter).toBeTruthy();
  expect(tokenAfter).not.toBe(tokenBefore);

  // The old token no longer works, the stored new one does: the user is still signed in.
  expect((await page.request.get('/api/me', { headers: { Authorization: `Bearer ${tokenBefore}` } })).status()).toBe(401);
  expect((await page.request.get('/api/me', { headers: { Authorization: `Bearer ${tokenAfter}` } })).status()).toBe(200);
  await page.reload();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(me.email);

  expect((await page.request.post('/api/login', { data: { email: me.email, password: me.password } })).status()).toBe(400);
  expect((await page.request.post('/api/login', { data: { email: me.email, password: 'second-pass-2' } })).status()).toBe(200);
});

test('work hours: start/end messages block saving; saved days reach the server and a cleared day is removed', async ({ page }) => {
  const me = await newEmployee(page, 'hours-pass-1');
  const token = await signInAs(page, me.email, '/settings', me.password);
  const hours = hoursSection(page);
  await expect(hours.getByText("No personal hours set: you work the company's opening hours.")).toBeVisible();
  const select = (day: string, which: 'Start' | 'End') => hours.getByRole('combobox', { name: `${day} ${which}` });
  const save = page.getByRole('button', { name: 'Save Changes' });

  await select('Monday', 'Start').selectOption('09:00');
  await select('Tuesday', 'End').selectOption('16:00');
  await save.click();
  await expect(hours.getByText('Monday end time is required when start time is provided')).toBeVisible();
  await expect(hours.getByText('Tuesday start time is required when end time is provided')).toBeVisible();
  await expect(page.getByText('Please fix the validation errors before saving.')).toBeVisible();
  let rows = await call<HoursRow[]>(page.request, token, 'GET', `/operating-hours?user_id=${me.id}`);
  expect(rows.body.filter((r) => r.user_id === me.id)).toEqual([]);

  // Fixing a day clears its message at once.
  await select('Monday', 'End').selectOption('17:30');
  await expect(hours.getByText('Monday end time is required when start time is provided')).toHaveCount(0);
  await select('Tuesday', 'Start').selectOption('10:00');
  await select('Friday', 'Start').selectOption('12:00');
  await select('Friday', 'End').selectOption('00:00'); // midnight, the end of the day
  await page.getByLabel('Phone').fill('+1 555 010 2030');
  await save.click();
  await expect(page.getByText('Settings saved successfully.')).toBeVisible();

  rows = await call<HoursRow[]>(page.request, token, 'GET', `/operating-hours?user_id=${me.id}`);
  const mine = rows.body.filter((r) => r.user_id === me.id).sort((a, b) => a.day_of_week - b.day_of_week);
  expect(mine.map((r) => [r.day_of_week, r.open_time, r.close_time])).toEqual([
    [1, '09:00:00', '17:30:00'],
    [2, '10:00:00', '16:00:00'],
    [5, '12:00:00', '00:00:00'],
  ]);
  const person = await call<Person>(page.request, token, 'GET', `/users/${me.id}`);
  expect(person.body.phone).toBe('+15550102030'); // stored in E.164

  // Unset days are days off once any day has hours; clearing Tuesday removes its row.
  await expect(hours.locator('[data-day="3"]').getByText('Day off')).toBeVisible();
  await select('Tuesday', 'Start').selectOption('');
  await select('Tuesday', 'End').selectOption('');
  await save.click();
  await expect(page.getByText('Settings saved successfully.')).toBeVisible();
  await expect
    .poll(async () => {
      const r = await call<HoursRow[]>(page.request, token, 'GET', `/operating-hours?user_id=${me.id}`);
      return r.body
        .filter((x) => x.user_id === me.id)
        .map((x) => x.day_of_week)
        .sort();
    })
    .toEqual([1, 5]);

  // After a reload the saved week is shown.
  await page.reload();
  await expect(select('Monday', 'Start')).toHaveValue('09:00');
  await expect(select('Friday', 'End')).toHaveValue('00:00');
  await expect(select('Tuesday', 'Start')).toHaveValue('');
});

test("an admin changes another person's role and name from that person's settings", async ({ page }) => {
  const person = await newEmployee(page, 'role-pass-1');
  const owner = await signInAs(page, DEMO.owner, `/directory?person=${person.id}`);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(person.email);
  // Change Password is for one's own account only.
  await expect(passwordSection(page)).toHaveCount(0);
  const role = page.getByLabel('Role');
  await expect(role).toBeEnabled();
  await role.selectOption('manager');
  await page.getByLabel('Name', { exact: true }).fill('Sam Promoted');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Settings saved successfully.')).toBeVisible();
  const after = await call<Person>(page.request, owner, 'GET', `/users/${person.id}`);
  expect(after.body.role).toBe('manager');
  expect(after.body.name).toBe('Sam Promoted');
});

test("a failed save shows 'Failed to save settings: {message}'", async ({ page }) => {
  await signInAs(page, DEMO.manager, '/settings');
  await page.route('**/api/users/*', async (route) => {
    if (route.request().method() !== 'PUT') return route.fallback();
    await route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'Phone is not valid', code: 'validation' }),
    });
  });
  await page.getByLabel('Phone').fill('+1 555 999 0000');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Failed to save settings: Phone is not valid')).toBeVisible();
});

test('the two Coming Soon entries say what is planned and offer no controls that do nothing', async ({ page }) => {
  await signInAs(page, DEMO.employee, '/coming-soon-1');
  const main = page.locator('main');
  await expect(main.getByRole('heading', { name: 'Time-off requests' })).toBeVisible();
  await expect(main.getByText('This page is not built yet.', { exact: false })).toBeVisible();
  await expect(main.locator('button, input, select, textarea')).toHaveCount(0);
  await expect(main.getByRole('link', { name: 'Open your settings' })).toHaveAttribute('href', '/settings');
  await expectNoSeriousAxe(page, 'coming soon 1');
  await shootAllSizes(page, 'coming-soon-1');

  await page.goto('/coming-soon-2');
  await expect(main.getByRole('heading', { name: 'Your activity' })).toBeVisible();
  await expect(main.locator('button, input, select, textarea')).toHaveCount(0);
  await expectNoSeriousAxe(page, 'coming soon 2');
  await shootAllSizes(page, 'coming-soon-2');
});
