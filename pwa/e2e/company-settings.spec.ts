// /company-settings (docs/product/02-screens.md, 04-states.md, 05-validation.md and 09-limits.md; docs/decisions/02-api-conventions.md, 03-tenancy-and-roles.md and 08-offline-pwa.md): booking
// link and Copy, subscription status, the employee-booking toggle, time increment and company hours
// saved at once and read back through the API, a refused change rolled back with a notice, the
// services table (add, edit, delete with the messages of docs/product/05-validation.md), appointment lengths and the default,
// the profile, screenshots and axe-core.
//
// Every test puts the demo company back as it found it: the calendar and booking specs rely on it.
import { expect, test, type APIRequestContext, type Page, type Request } from '@playwright/test';
import { expectNoSeriousAxe } from './support/axe.ts';
import { DEMO, apiToken, signInAs } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';

interface Company {
  id: number;
  name: string;
  slug: string;
  email: string | null;
  logo_url: string | null;
  timezone: string;
  enable_employee_booking: boolean;
  time_increment_minutes: number;
  listed_publicly: boolean;
}

interface HoursRow {
  id: number;
  user_id: number | null;
  day_of_week: number;
  open_time: string | null;
  close_time: string | null;
  is_closed: boolean;
}

interface Service {
  id: number;
  name: string;
  duration_minutes: number;
  price: number | null;
  hide_price: boolean;
  available_slots: number;
}

async function call<T>(request: APIRequestContext, token: string, method: string, path: string, data?: unknown) {
  const res = await request.fetch(`/api${path}`, { method, headers: { Authorization: `Bearer ${token}` }, data });
  const text = await res.text();
  return { status: res.status(), body: (text ? JSON.parse(text) : undefined) as T };
}

async function ownCompany(page: Page, token: string): Promise<Company> {
  const me = await call<{ company_id: number }>(page.request, token, 'GET', '/me');
  return (await call<Company>(page.request, token, 'GET', `/companies/${me.body.company_id}`)).body;
}

async function companyHours(page: Page, token: string, companyId: number): Promise<HoursRow[]> {
  const r = await call<HoursRow[]>(page.request, token, 'GET', `/operating-hours?company_id=${companyId}`);
  expect(r.status).toBe(200);
  return r.body.filter((x) => x.user_id === null);
}

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const EMPLOYEE_BOOKING = 'I want customers to book with a specific employee';

test('booking link with Copy, subscription status, screenshots and axe', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInAs(page, DEMO.owner, '/company-settings');
  const link = card(page, 'Booking link');
  await expect(link.getByLabel('Booking link')).toHaveValue(`${new URL(baseURL!).origin}/public/booking/demo`);
  await link.getByRole('button', { name: 'Copy' }).click();
  await expect(link.getByText('Link copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${new URL(baseURL!).origin}/public/booking/demo`);

  // The demo company pays for a year: active, with the days left and a way to the plans.
  const sub = card(page, 'Subscription');
  await expect(sub.getByText('Subscription active')).toBeVisible();
  await expect(sub.getByText(/^(36[4-6])$/)).toBeVisible();
  await expect(sub.getByRole('link', { name: 'View plans' })).toHaveAttribute('href', '/pricing');

  await expect(page.getByRole('checkbox', { name: EMPLOYEE_BOOKING })).toBeChecked();
  await expect(page.getByLabel('Time increment')).toHaveValue('30');
  await expect(card(page, 'Services').getByRole('rowheader', { name: 'Haircut' })).toBeVisible();
  await expectNoSeriousAxe(page, 'company settings');
  await shootAllSizes(page, 'company-settings');
});

test('the employee-booking toggle and the time increment are saved at once and read back', async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/company-settings');
  const company = await ownCompany(page, token);
  const toggle = page.getByRole('checkbox', { name: EMPLOYEE_BOOKING });
  const increment = page.getByLabel('Time increment');
  try {
    await expect(toggle).toBeChecked();
    await toggle.click();
    await expect(toggle).not.toBeChecked();
    await expect.poll(async () => (await ownCompany(page, token)).enable_employee_booking).toBe(false);
    await increment.selectOption('15');
    await expect(page.getByText('Customers are offered a start time every 15 minutes.')).toBeVisible();
    await expect.poll(async () => (await ownCompany(page, token)).time_increment_minutes).toBe(15);

    await page.reload();
    await expect(toggle).not.toBeChecked();
    await expect(increment).toHaveValue('15');
    // The hours grid offers times at the new increment.
    await expect(page.getByRole('combobox', { name: 'Sunday Start' }).locator('option[value="10:15"]')).toHaveCount(1);

    await toggle.click();
    await expect(toggle).toBeChecked();
    await increment.selectOption('30');
    await expect.poll(async () => (await ownCompany(page, token)).enable_employee_booking).toBe(true);
    await expect.poll(async () => (await ownCompany(page, token)).time_increment_minutes).toBe(30);

    // Two quick clicks: each shows at once, so the second undoes the first (the second used to be
    // lost while the first one's optimistic update was still on its way, and the box ended unticked).
    // Counted by the requests sent from here on: a response event of the increment's save above can
    // still arrive after the server has stored it.
    const saves: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && /\/api\/companies\/\d+$/.test(r.url())) saves.push(r);
    });
    await toggle.click();
    await toggle.click();
    await expect.poll(() => saves.length).toBe(2);
    for (const save of saves) expect((await save.response())?.ok()).toBe(true);
    await expect(toggle).toBeChecked();
    expect((await ownCompany(page, token)).enable_employee_booking).toBe(true);
  } finally {
    await call(page.request, token, 'PUT', `/companies/${company.id}`, { enable_employee_booking: true, time_increment_minutes: 30 });
  }
});

test('a refused toggle, increment or hours change rolls back with a short notice', async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/company-settings');
  const company = await ownCompany(page, token);
  const refuse = {
    status: 403,
    contentType: 'application/json',
    body: JSON.stringify({ error: 'Not allowed right now.', code: 'forbidden' }),
  };
  await page.route('**/api/companies/*', (route) => (route.request().method() === 'PUT' ? route.fulfill(refuse) : route.fallback()));
  await page.route('**/api/operating-hours', (route) => (route.request().method() === 'POST' ? route.fulfill(refuse) : route.fallback()));

  const toggle = page.getByRole('checkbox', { name: EMPLOYEE_BOOKING });
  await toggle.click();
  await expect(
    page.getByText('Could not save the employee booking setting: Not allowed right now. The previous setting is back.'),
  ).toBeVisible();
  await expect(toggle).toBeChecked();

  await page.getByLabel('Time increment').selectOption('45');
  await expect(page.getByText('Could not save the time increment: Not allowed right now. The previous setting is back.')).toBeVisible();
  await expect(page.getByLabel('Time increment')).toHaveValue('30');

  const hours = card(page, 'Opening hours');
  await hours.getByRole('combobox', { name: 'Monday End' }).selectOption('20:00');
  await expect(hours.getByText("Could not save Monday's hours: Not allowed right now. The previous hours are back.")).toBeVisible();
  await expect(hours.getByRole('combobox', { name: 'Monday End' })).toHaveValue('18:00');

  const after = await ownCompany(page, token);
  expect(after.enable_employee_booking).toBe(true);
  expect(after.time_increment_minutes).toBe(30);
  const monday = (await companyHours(page, token, company.id)).find((r) => r.day_of_week === 1);
  expect(monday?.close_time).toBe('18:00:00');
});

test.describe('offline', () => {
  // The API cut for the page alone (a service worker's own requests would not be).
  test.use({ serviceWorkers: 'block' });

  test('a toggle, increment or hours change made offline rolls back with a notice instead of looking saved', async ({ page, context }) => {
    const token = await signInAs(page, DEMO.owner, '/company-settings');
    const company = await ownCompany(page, token);
    const toggle = page.getByRole('checkbox', { name: EMPLOYEE_BOOKING });
    await expect(toggle).toBeChecked();
    // Every card loaded before the connection goes: a card still loading stays so offline (a CI run
    // cut it while "Loading opening hours...").
    await expect(card(page, 'Opening hours').getByRole('combobox', { name: 'Monday End' })).toHaveValue('18:00');
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && r.url().includes('/api/')) sent.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await context.setOffline(true);
    try {
      const cannotConnect = 'Cannot connect to the server. Please check your network connection.';
      await toggle.click();
      await expect(
        page.getByText(`Could not save the employee booking setting: ${cannotConnect} The previous setting is back.`),
      ).toBeVisible();
      await expect(toggle).toBeChecked();
      await page.getByLabel('Time increment').selectOption('45');
      await expect(page.getByText(`Could not save the time increment: ${cannotConnect} The previous setting is back.`)).toBeVisible();
      await expect(page.getByLabel('Time increment')).toHaveValue('30');
      const hours = card(page, 'Opening hours');
      await hours.getByRole('combobox', { name: 'Monday End' }).selectOption('20:00');
      await expect(hours.getByText(`Could not save Monday's hours: ${cannotConnect} The previous hours are back.`)).toBeVisible();
      await expect(hours.getByRole('combobox', { name: 'Monday End' })).toHaveValue('18:00');
    } finally {
      await context.setOffline(false);
    }
    // Back online nothing held back goes out later: the server keeps what it had.
    await page.waitForTimeout(1500);
    expect(sent).toEqual([`PUT /api/companies/${company.id}`, `PUT /api/companies/${company.id}`, 'POST /api/operating-hours']);
    const after = await ownCompany(page, token);
    expect(after.enable_employee_booking).toBe(true);
    expect(after.time_increment_minutes).toBe(30);
    const monday = (await companyHours(page, token, company.id)).find((r) => r.day_of_week === 1);
    expect(monday?.close_time).toBe('18:00:00');
  });
});

test('company hours: a lone start time shows the message; both times save the day; clearing one removes it', async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/company-settings');
  const company = await ownCompany(page, token);
  const hours = card(page, 'Opening hours');
  const sundayStart = hours.getByRole('combobox', { name: 'Sunday Start' });
  const sundayEnd = hours.getByRole('combobox', { name: 'Sunday End' });
  const sundayOpen = async () => (await companyHours(page, token, company.id)).find((r) => r.day_of_week === 7 && !r.is_closed);
  // The demo company is closed on Sundays (a row marked closed).
  const original = (await companyHours(page, token, company.id)).find((r) => r.day_of_week === 7);
  expect(original?.is_closed ?? true).toBe(true);
  await expect(hours.locator('[data-day="7"]').getByText('Closed')).toBeVisible();
  try {
    await sundayStart.selectOption('10:00');
    await expect(hours.getByText('Sunday end time is required when start time is provided')).toBeVisible();
    await expect(hours.getByText('Please fix the validation errors before saving.')).toBeVisible();
    expect(await sundayOpen()).toBeUndefined();

    await sundayEnd.selectOption('14:00');
    await expect(hours.getByText('Sunday end time is required when start time is provided')).toHaveCount(0);
    await expect.poll(sundayOpen).toMatchObject({ open_time: '10:00:00', close_time: '14:00:00' });

    // Changing a saved day updates its row.
    await sundayEnd.selectOption('15:30');
    await expect.poll(async () => (await sundayOpen())?.close_time).toBe('15:30:00');

    // Clearing a time of a saved day removes that day's hours.
    await sundayStart.selectOption('');
    await expect(sundayEnd).toHaveValue('');
    await expect(hours.locator('[data-day="7"]').getByText('Closed')).toBeVisible();
    await expect.poll(async () => (await companyHours(page, token, company.id)).some((r) => r.day_of_week === 7)).toBe(false);
    await page.reload();
    await expect(sundayStart).toHaveValue('');
  } finally {
    const sunday = (await companyHours(page, token, company.id)).find((r) => r.day_of_week === 7);
    if (sunday && !sunday.is_closed) await call(page.request, token, 'DELETE', `/operating-hours/${sunday.id}`);
    if (original && !(await companyHours(page, token, company.id)).some((r) => r.day_of_week === 7)) {
      await call(page.request, token, 'POST', '/operating-hours', {
        company_id: company.id,
        day_of_week: 7,
        is_closed: true,
        open_time: null,
        close_time: null,
      });
    }
  }
});

test('services: add, edit and delete with the validation messages, read back through the API', async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/company-settings');
  const company = await ownCompany(page, token);
  const services = card(page, 'Services');
  const name = `E2E Massage ${Date.now()}`;
  const list = async () => (await call<Service[]>(page.request, token, 'GET', `/service-types?company_id=${company.id}`)).body;

  await services.getByRole('button', { name: '+ Add Service' }).click();
  const form = services.getByRole('form', { name: 'New service' });
  await expect(form.getByLabel('Duration (minutes)')).toHaveValue('30');
  await expect(form.getByLabel('Available slots')).toHaveValue('1');
  await form.getByRole('button', { name: 'Save Service' }).click();
  await expect(form.getByRole('alert')).toHaveText('Name and duration are required.');
  await form.getByLabel('Service name').fill(name);
  await form.getByLabel('Duration (minutes)').fill('0');
  await form.getByRole('button', { name: 'Save Service' }).click();
  await expect(form.getByRole('alert')).toHaveText('Duration must be at least 1 minute.');
  await form.getByLabel('Duration (minutes)').fill('45');
  await form.getByLabel('Price (USD, optional)').fill('-1');
  await form.getByRole('button', { name: 'Save Service' }).click();
  await expect(form.getByRole('alert')).toHaveText('Price must be at least 0.');
  await form.getByLabel('Price (USD, optional)').fill('50');
  await form.getByLabel('Available slots').fill('0');
  await form.getByRole('button', { name: 'Save Service' }).click();
  await expect(form.getByRole('alert')).toHaveText('Available slots must be at least 1.');
  await form.getByLabel('Available slots').fill('2');
  await form.getByRole('button', { name: 'Save Service' }).click();
  await expect(services.getByRole('rowheader', { name })).toBeVisible();
  // A closed form gives the focus back to the button that opened it (a keyboard user keeps their place).
  await expect(services.getByRole('button', { name: '+ Add Service' })).toBeFocused();
  await services.getByRole('button', { name: '+ Add Service' }).press('Enter');
  await expect(services.getByRole('form', { name: 'New service' }).getByLabel('Service name')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(services.getByRole('form', { name: 'New service' })).toHaveCount(0);
  await expect(services.getByRole('button', { name: '+ Add Service' })).toBeFocused();
  let created = (await list()).find((s) => s.name === name);
  expect(created).toMatchObject({ duration_minutes: 45, price: 50, hide_price: false, available_slots: 2 });

  try {
    await services.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = services.getByRole('form', { name: `Edit ${name}` });
    await expect(edit.getByLabel('Duration (minutes)')).toHaveValue('45');
    await edit.getByLabel('Price (USD, optional)').fill('55.5');
    await edit.getByLabel('Hide price from customers').check();
    await edit.getByRole('button', { name: 'Save Service' }).click();
    await expect(edit).toHaveCount(0);
    await expect(services.getByRole('button', { name: `Edit ${name}` })).toBeFocused();
    await services.getByRole('button', { name: `Edit ${name}` }).press('Enter');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await expect(edit).toHaveCount(0);
    await expect(services.getByRole('button', { name: `Edit ${name}` })).toBeFocused();
    await expect(services.getByRole('row', { name: new RegExp(name) })).toContainText('$55.50');
    await expect(services.getByRole('row', { name: new RegExp(name) })).toContainText('hidden');
    created = (await list()).find((s) => s.name === name);
    expect(created).toMatchObject({ price: 55.5, hide_price: true });

    page.once('dialog', (d) => d.accept());
    await services.getByRole('button', { name: `Delete ${name}` }).click();
    await expect(services.getByRole('rowheader', { name })).toHaveCount(0);
    await expect.poll(async () => (await list()).some((s) => s.name === name)).toBe(false);
  } finally {
    const left = (await list()).find((s) => s.name === name);
    if (left) await call(page.request, token, 'DELETE', `/service-types/${left.id}`);
  }
});

test('appointment lengths offered and the default are saved', async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/company-settings');
  const company = await ownCompany(page, token);
  const offered = async () =>
    (await call<{ duration_minutes: number }[]>(page.request, token, 'GET', `/company-duration-options?company_id=${company.id}`)).body
      .map((o) => o.duration_minutes)
      .sort((a, b) => a - b);
  const defaultMinutes = async () =>
    (await call<{ default_appointment_duration: number }>(page.request, token, 'GET', `/company-duration-defaults/company/${company.id}`))
      .body.default_appointment_duration;
  const before = await offered();
  const beforeDefault = await defaultMinutes();
  const options = page.getByRole('group', { name: 'Appointment lengths offered' });
  try {
    await expect(options.getByRole('checkbox', { name: '90 minutes' })).not.toBeChecked();
    // The box is optimistic (it flips, then the server confirms): click and wait for the state, as
    // check() reads the state the instant after its click and can catch it mid-update.
    await options.getByRole('checkbox', { name: '90 minutes' }).click();
    await expect(options.getByRole('checkbox', { name: '90 minutes' })).toBeChecked();
    await expect.poll(offered).toContain(90);
    // The default stays offered: its box cannot be unticked.
    await expect(options.getByRole('checkbox', { name: `${beforeDefault} minutes` })).toBeDisabled();

    await page.getByLabel('Default appointment length').selectOption('90');
    await expect.poll(defaultMinutes).toBe(90);
    await page.getByLabel('Default appointment length').selectOption(String(beforeDefault));
    await expect.poll(defaultMinutes).toBe(beforeDefault);

    await options.getByRole('checkbox', { name: '90 minutes' }).click();
    await expect(options.getByRole('checkbox', { name: '90 minutes' })).not.toBeChecked();
    await expect.poll(offered).toEqual(before);
  } finally {
    const rows = (
      await call<{ id: number; duration_minutes: number }[]>(
        page.request,
        token,
        'GET',
        `/company-duration-options?company_id=${company.id}`,
      )
    ).body;
    for (const r of rows)
      if (!before.includes(r.duration_minutes)) await call(page.request, token, 'DELETE', `/company-duration-options/${r.id}`);
    const d = await call<{ id: number }>(page.request, token, 'GET', `/company-duration-defaults/company/${company.id}`);
    await call(page.request, token, 'PUT', `/company-duration-defaults/${d.body.id}`, { default_appointment_duration: beforeDefault });
  }
});

test('company profile: name, logo preview, time zone and public listing are saved', async ({ page, baseURL }) => {
  const token = await signInAs(page, DEMO.manager, '/company-settings');
  const before = await ownCompany(page, token);
  const profile = card(page, 'Company profile');
  try {
    await profile.getByLabel('Company name').fill('Demo Studio Renamed');
    const logo = `${new URL(baseURL!).origin}/favicon.svg`;
    await profile.getByLabel('Logo URL').fill(logo);
    await expect(profile.getByRole('img', { name: 'Logo preview' })).toHaveAttribute('src', logo);
    await expect(profile.getByLabel('Time zone').locator('option[value="Europe/Berlin"]')).toHaveCount(1);
    await profile.getByLabel('Time zone').selectOption('Europe/Berlin');
    await profile.getByRole('checkbox', { name: /List my company publicly/ }).uncheck();
    await profile.getByRole('button', { name: 'Save Profile' }).click();
    await expect(profile.getByText('Company profile saved.')).toBeVisible();
    const after = await ownCompany(page, token);
    expect(after).toMatchObject({ name: 'Demo Studio Renamed', logo_url: logo, timezone: 'Europe/Berlin', listed_publicly: false });
    // Managers see the status but the plans are the admin's.
    await expect(card(page, 'Subscription').getByText('Your company admin manages the plan.')).toBeVisible();
  } finally {
    await call(page.request, token, 'PUT', `/companies/${before.id}`, {
      name: before.name,
      logo_url: before.logo_url,
      timezone: before.timezone,
      listed_publicly: before.listed_publicly,
    });
  }
});

test('employees are sent from /company-settings to /calendar', async ({ page }) => {
  await signInAs(page, DEMO.employee, '/company-settings');
  await expect(page).toHaveURL(/\/calendar(\?.*)?$/);
  // The owner's token still reads the company: nothing was changed on the way.
  expect((await ownCompany(page, await apiToken(page, DEMO.owner))).slug).toBe('demo');
});

test('/upgrade shows the current plan and its status and leads to the plans', async ({ page }) => {
  await signInAs(page, DEMO.owner, '/upgrade');
  await expect(page.getByText('You are on the Standard plan.')).toBeVisible();
  await expect(page.getByText('Subscription active')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Standard' }).getByText('Current plan')).toBeVisible();
  // The same plans and words as /pricing: the Enterprise extras still to come say so here too.
  await expect(page.getByRole('region', { name: 'Enterprise' }).getByText('POS integration (coming soon)')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Enterprise' }).getByText('$79.99/month')).toBeVisible();
  await expect(page.getByRole('link', { name: 'See plans and prices' })).toHaveAttribute('href', '/pricing');
  await expectNoSeriousAxe(page, 'upgrade');
  await shootAllSizes(page, 'upgrade');
  await page.getByRole('link', { name: 'See plans and prices' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
});
