// /directory (docs/product/02-screens.md "Directory", docs/product/08-errors.md and 09-limits.md; docs/decisions/03-tenancy-and-roles.md): Staff and
// Customers columns, the case-insensitive customer search, Add Employee / Add Customer with the
// notice, the 2-second close and the invitation email that really arrives, the server's error
// preferred, a person's detail with the settings editor and Back to Directory, Schedule
// Appointment opening the calendar's modal with the customer chosen, removing someone who left,
// employees without the add or remove buttons, a phone-size run, screenshots and axe-core.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoSeriousAxe } from './support/axe.ts';
import { DEMO, signInAs } from './support/session.ts';
import { SIZES, shootAllSizes } from './support/screens.ts';
import { linkIn, waitForMail } from './support/mail.ts';

interface Person {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  role: string;
  company_id: number | null;
}

async function people(request: APIRequestContext, token: string, search: string): Promise<Person[]> {
  const res = await request.get(`/api/users?search=${encodeURIComponent(search)}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return res.json();
}

const staffColumn = (page: Page) => page.getByRole('region', { name: 'Staff' });
const customerColumn = (page: Page) => page.getByRole('region', { name: 'Customers' });
const unique = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

test('staff (every staff role) and customers, the customer search, screenshots and axe', async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/directory');
  const staff = staffColumn(page);
  const customers = customerColumn(page);
  await expect(staff.getByRole('button', { name: /Olivia Owner.*Admin/ })).toBeVisible();
  await expect(staff.getByRole('button', { name: /Marco Manager.*Manager/ })).toBeVisible();
  await expect(staff.getByRole('button', { name: /Emma Stylist.*Employee/ })).toBeVisible();
  await expect(staff.getByText('Casey Customer')).toHaveCount(0);
  await expect(customers.getByRole('button', { name: /Casey Customer/ })).toBeVisible();

  // The counts match what the server holds for the company.
  const everyone = await people(page.request, token, '');
  const customerCount = everyone.filter((p) => p.role === 'customer').length;
  await expect(customers.locator('.dir-list > li')).toHaveCount(customerCount);

  const search = customers.getByLabel('Search customers');
  await expect(customers.locator('.dir-count')).toHaveText(String(customerCount));
  await search.fill('CASEY');
  await expect(customers.locator('.dir-list > li')).toHaveCount(1);
  await expect(customers.locator('.dir-count')).toHaveText(`1 of ${customerCount}`);
  await expect(customers.getByRole('button', { name: /Casey Customer/ })).toBeVisible();
  await search.fill('LOPEZ@Example');
  const lopez = everyone.filter((p) => p.role === 'customer' && p.email.toLowerCase().includes('lopez@example'));
  expect(lopez.length).toBeGreaterThan(0);
  await expect(customers.locator('.dir-list > li')).toHaveCount(lopez.length);
  await search.fill('nobody-by-this-name');
  await expect(customers.getByText('No customers match "nobody-by-this-name".')).toBeVisible();
  await search.fill('');

  await expect(page.getByRole('button', { name: '+ Add Employee' })).toBeVisible();
  await expect(page.getByRole('button', { name: '+ Add Customer' })).toBeVisible();
  await expectNoSeriousAxe(page, 'directory');
  await shootAllSizes(page, 'directory');
});

test('Add Employee: required fields, the notice, the modal closing after 2 s, the invitation email, the new person', async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/directory');
  await page.getByRole('button', { name: '+ Add Employee' }).click();
  const modal = page.getByRole('dialog', { name: 'Add Employee' });
  await expect(modal).toBeVisible();
  await expect(modal.getByLabel('Role*').locator('option')).toHaveText(['Employee', 'Manager', 'Admin']);
  await expectNoSeriousAxe(page, 'add employee modal');
  await shootAllSizes(page, 'directory-add-employee');

  await modal.getByRole('button', { name: 'Add Employee' }).click();
  await expect(modal.getByRole('alert')).toHaveText('Full name and email are required.');

  const email = unique('new-manager');
  await modal.getByLabel('Full Name*').fill('Nina Newhire');
  await modal.getByLabel('Email*').fill(email);
  await modal.getByLabel('Phone (optional)').fill('+1 212 555 0177');
  await modal.getByLabel('Role*').selectOption('manager');
  await modal.getByRole('button', { name: 'Add Employee' }).click();
  await expect(modal.getByRole('status')).toHaveText(`Employee added. An email was sent to ${email} to set their password.`);
  const shownAt = Date.now();
  await expect(modal).toBeHidden({ timeout: 5_000 });
  expect(Date.now() - shownAt).toBeGreaterThan(1_200);

  await expect(staffColumn(page).getByRole('button', { name: /Nina Newhire.*Manager/ })).toBeVisible();
  const [created] = await people(page.request, token, email);
  expect(created).toMatchObject({ name: 'Nina Newhire', email, phone: '+12125550177', role: 'manager' }); // stored in E.164
  const mail = await waitForMail(email);
  expect(mail).toContain('/reset-password?token=');
});

test("Add Employee prefers the server's error; Add Customer adds a customer who gets the email", async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/directory');
  await page.getByRole('button', { name: '+ Add Employee' }).click();
  let modal = page.getByRole('dialog', { name: 'Add Employee' });
  await modal.getByLabel('Full Name*').fill('Copy of Emma');
  await modal.getByLabel('Email*').fill(DEMO.employee);
  await modal.getByRole('button', { name: 'Add Employee' }).click();
  const error = modal.getByRole('alert');
  await expect(error).toBeVisible();
  await expect(error).not.toHaveText('Failed to add employee');
  await expect(error).not.toHaveText('');
  await modal.getByRole('button', { name: 'Cancel' }).click();
  await expect(modal).toBeHidden();

  // Without an error field the fallback text is shown.
  await page.route('**/api/users/customer', (route) => route.fulfill({ status: 500, body: '' }));
  await page.getByRole('button', { name: '+ Add Customer' }).click();
  modal = page.getByRole('dialog', { name: 'Add Customer' });
  await expect(modal.getByLabel('Role*')).toHaveCount(0);
  await modal.getByLabel('Full Name*').fill('Carl Client');
  await modal.getByLabel('Email*').fill(unique('never'));
  await modal.getByRole('button', { name: 'Add Customer' }).click();
  await expect(modal.getByRole('alert')).toHaveText('Failed to add customer');
  await page.unroute('**/api/users/customer');

  const email = unique('new-customer');
  await modal.getByLabel('Email*').fill(email);
  await modal.getByRole('button', { name: 'Add Customer' }).click();
  await expect(modal.getByRole('status')).toHaveText(`Customer added. An email was sent to ${email} to set their password.`);
  await expect(modal).toBeHidden({ timeout: 5_000 });
  const customers = customerColumn(page);
  await customers.getByLabel('Search customers').fill('carl client');
  await expect(customers.getByRole('button', { name: /Carl Client/ })).toBeVisible();
  const [created] = await people(page.request, token, email);
  expect(created).toMatchObject({ name: 'Carl Client', role: 'customer', phone: null });
  expect(await waitForMail(email)).toContain('/reset-password?token=');
});

test("a customer's detail: the settings editor, Schedule Appointment with the customer chosen, Back to Directory", async ({ page }) => {
  await signInAs(page, DEMO.owner, '/directory');
  await customerColumn(page)
    .getByRole('button', { name: /Casey Customer/ })
    .click();
  await expect(page).toHaveURL(/\/directory\?person=\d+$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Casey Customer' })).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(DEMO.customer);
  // A customer has no work hours; admins edit their name and phone.
  await expect(page.getByRole('region', { name: 'Work hours' })).toHaveCount(0);
  await expect(page.getByLabel('Name', { exact: true })).toBeEnabled();
  await expectNoSeriousAxe(page, 'customer detail');
  await shootAllSizes(page, 'directory-customer');

  await page.getByRole('button', { name: 'Schedule Appointment' }).click();
  const modal = page.getByRole('dialog', { name: 'Create Appointment' });
  await expect(modal).toBeVisible();
  const customer = modal.getByLabel('Customer');
  await expect(customer).toBeVisible();
  await expect(customer.locator('option:checked')).toHaveText(/Casey Customer \(customer@demo\.test\)/);
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();

  await page.getByRole('button', { name: 'Back to Directory' }).click();
  await expect(page).toHaveURL(/\/directory$/);
  await expect(staffColumn(page)).toBeVisible();
});

test("a staff member's detail shows their work hours; the browser's Back returns to the list", async ({ page }) => {
  await signInAs(page, DEMO.owner, '/directory');
  await staffColumn(page)
    .getByRole('button', { name: /Noah Barber/ })
    .click();
  const hours = page.getByRole('region', { name: 'Work hours' });
  // The demo gives Noah personal hours, 12:00 to 18:00.
  await expect(hours.getByRole('combobox', { name: 'Monday Start' })).toHaveValue('12:00');
  await expect(hours.getByRole('combobox', { name: 'Monday End' })).toHaveValue('18:00');
  await expect(page.getByRole('button', { name: 'Schedule Appointment' })).toHaveCount(0);
  await page.goBack();
  await expect(customerColumn(page)).toBeVisible();
});

test('an admin removes someone who left: gone from the Directory and the public staff list, their own detail offers no removal', async ({
  page,
}) => {
  const token = await signInAs(page, DEMO.owner, '/directory');
  const auth = { Authorization: `Bearer ${token}` };
  const email = unique('leaver');
  const added = await page.request.post('/api/users/employee', { headers: auth, data: { name: 'Lee Leaver', email, role: 'employee' } });
  expect(added.status()).toBe(201);
  const leaver = (await added.json()) as Person;
  const publicStaff = async () => {
    const res = await page.request.get(`/api/employees?company_id=${leaver.company_id}`);
    return ((await res.json()) as { id: number }[]).map((e) => e.id);
  };
  expect(await publicStaff()).toContain(leaver.id);

  await page.reload();
  await staffColumn(page)
    .getByRole('button', { name: /Lee Leaver/ })
    .click();
  const card = page.getByRole('region', { name: 'Remove from the team' });
  await card.getByRole('button', { name: 'Remove from the team' }).click();
  const confirm = card.getByRole('alertdialog', { name: 'Remove Lee Leaver from the team?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect(await publicStaff()).toContain(leaver.id);
  await card.getByRole('button', { name: 'Remove from the team' }).click();
  await expectNoSeriousAxe(page, 'remove from the team');
  await shootAllSizes(page, 'directory-remove-staff');
  await confirm.getByRole('button', { name: 'Remove' }).click();

  await expect(staffColumn(page)).toBeVisible();
  await expect(staffColumn(page).getByRole('button', { name: /Lee Leaver/ })).toHaveCount(0);
  expect(await people(page.request, token, email)).toEqual([]);
  expect(await publicStaff()).not.toContain(leaver.id);

  // No one removes themselves.
  await staffColumn(page)
    .getByRole('button', { name: /Olivia Owner/ })
    .click();
  await expect(page.getByRole('region', { name: 'Work hours' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Remove from the team' })).toHaveCount(0);
});

test('someone who has not set a password gets the invitation again; the new link works, the old one does not', async ({
  page,
  browser,
}) => {
  const token = await signInAs(page, DEMO.owner, '/directory');
  const email = unique('lost-invite');
  const added = await page.request.post('/api/users/employee', {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: 'Ivy Invited', email, role: 'employee' },
  });
  expect(added.status()).toBe(201);
  const LINK = /https?:\/\/[^\s"'<>]+\/reset-password\?token=[^\s"'<>]+/;
  const first = new URL(linkIn(await waitForMail(email), LINK));

  await page.reload();
  await staffColumn(page)
    .getByRole('button', { name: /Ivy Invited/ })
    .click();
  const card = page.getByRole('region', { name: 'Invitation' });
  await expect(card).toContainText('Ivy Invited has not set a password yet, so cannot sign in.');
  await card.getByRole('button', { name: 'Send the invitation again' }).click();
  await expect(card.getByText(`Invitation sent to ${email}.`)).toBeVisible();
  await expectNoSeriousAxe(page, 'invitation card');
  const second = new URL(linkIn(await waitForMail(email, (body) => !body.includes(first.search)), LINK));
  expect(second.search).not.toBe(first.search);

  // In their own browser: the old link is dead; the new one sets the password.
  const theirs = await browser.newContext();
  const invited = await theirs.newPage();
  await invited.goto(first.pathname + first.search);
  await expect(invited.getByText('Invalid or expired reset token')).toBeVisible();
  await invited.goto(second.pathname + second.search);
  await invited.getByLabel('New password').fill('invited-1');
  await invited.getByLabel('Confirm password').fill('invited-1');
  await invited.getByRole('button', { name: 'Reset password' }).click();
  await expect(invited).toHaveURL(/\/login$/, { timeout: 5_000 });
  await theirs.close();
  // With a password, the card is gone.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Work hours' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Invitation' })).toHaveCount(0);
});

test('employees see the directory without the add buttons and read customers without editing them', async ({ page }) => {
  await signInAs(page, DEMO.employee, '/directory');
  await expect(staffColumn(page)).toBeVisible();
  await expect(page.getByRole('button', { name: '+ Add Employee' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '+ Add Customer' })).toHaveCount(0);
  await customerColumn(page)
    .getByRole('button', { name: /Casey Customer/ })
    .click();
  await expect(page.getByLabel('Name', { exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Schedule Appointment' })).toBeVisible();
  await page.getByRole('button', { name: 'Back to Directory' }).click();
  await staffColumn(page)
    .getByRole('button', { name: /Noah Barber/ })
    .click();
  await expect(page.getByRole('region', { name: 'Work hours' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Remove from the team' })).toHaveCount(0);
});

test("'Failed to fetch directory.' with Retry", async ({ page }) => {
  let fail = true;
  await page.route(
    (url) => url.pathname === '/api/users',
    (route) => (fail ? route.fulfill({ status: 500, body: '' }) : route.fallback()),
  );
  await signInAs(page, DEMO.owner, '/directory');
  await expect(page.getByText('Failed to fetch directory.')).toBeVisible();
  fail = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(staffColumn(page)).toBeVisible();
});

test.describe('on a phone (390x844)', () => {
  test.use({ viewport: SIZES.phone, hasTouch: true });

  test('search, open a customer, schedule, go back; add a customer', async ({ page }) => {
    const token = await signInAs(page, DEMO.manager, '/directory');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const customers = customerColumn(page);
    await customers.getByLabel('Search customers').fill('casey');
    await customers.getByRole('button', { name: /Casey Customer/ }).tap();
    await expect(page.getByRole('button', { name: 'Back to Directory' })).toBeVisible();
    await page.getByRole('button', { name: 'Schedule Appointment' }).tap();
    const modal = page.getByRole('dialog', { name: 'Create Appointment' });
    await expect(modal).toBeVisible();
    const box = await modal.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(SIZES.phone.width);
    await modal.getByRole('button', { name: 'Close' }).tap();
    await expect(modal).toBeHidden();
    await page.getByRole('button', { name: 'Back to Directory' }).tap();

    // Managers add employees only, and customers.
    await page.getByRole('button', { name: '+ Add Employee' }).tap();
    const add = page.getByRole('dialog', { name: 'Add Employee' });
    await expect(add.getByLabel('Role*').locator('option')).toHaveText(['Employee']);
    await add.getByRole('button', { name: 'Cancel' }).tap();
    await page.getByRole('button', { name: '+ Add Customer' }).tap();
    const addCustomer = page.getByRole('dialog', { name: 'Add Customer' });
    const email = unique('phone-customer');
    await addCustomer.getByLabel('Full Name*').fill('Pia Phone');
    await addCustomer.getByLabel('Email*').fill(email);
    await addCustomer.getByRole('button', { name: 'Add Customer' }).tap();
    await expect(addCustomer.getByRole('status')).toContainText('An email was sent to');
    await expect(addCustomer).toBeHidden({ timeout: 5_000 });
    expect((await people(page.request, token, email))[0]).toMatchObject({ name: 'Pia Phone', role: 'customer' });
    await shootAllSizes(page, 'directory-manager');
  });
});
