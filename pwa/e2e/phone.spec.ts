// Phone-size runs (390x844, touch) of the calendar and the directory (issue 5, "Tests"): the
// content is usable there, not merely present. Calendar: the list view opens by default, lists
// exactly the server's appointments of the week with the titles of docs/product/02-screens.md, the toolbar fits without
// overlapping, the week can be changed, and tapping an appointment opens its edit modal within
// the screen. Directory: the Staff and Customers columns are stacked full width, the customer
// search works, and a customer's and a staff member's detail fit the screen with Back to
// Directory. Every staff page's title fits the header whole.
import path from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { DEMO, apiToken, signInAs } from './support/session.ts';
import { SCREENS_DIR, SIZES } from './support/screens.ts';
import { addDays, titleOf } from './support/appointments.ts';

test.use({ viewport: SIZES.phone, hasTouch: true });

interface Appt {
  user_id: number | null;
  start_time: string;
  description: string | null;
  status: 'booked' | 'cancelled';
  service_types: { name: string }[];
  customer_name: string | null;
}

interface Person {
  name: string;
  email: string;
  role: string;
}

async function get<T>(request: APIRequestContext, token: string, apiPath: string): Promise<T> {
  const res = await request.get(`/api${apiPath}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), apiPath).toBe(200);
  return (await res.json()) as T;
}

function localDate(iso: string, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

async function noHorizontalScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what} scrolls horizontally`).toBeLessThanOrEqual(0);
}

/** Inside the 390 px screen horizontally. */
async function expectWithinScreen(locator: Locator, what: string) {
  const box = await locator.boundingBox();
  expect(box, `${what} is rendered`).not.toBeNull();
  expect(box!.x, `${what} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what} ends on screen`).toBeLessThanOrEqual(SIZES.phone.width + 0.5);
}

async function expectNoOverlap(items: [string, Locator][]) {
  const boxes = await Promise.all(items.map(async ([name, l]) => [name, await l.boundingBox()] as const));
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [an, a] = boxes[i];
      const [bn, b] = boxes[j];
      expect(a && b, `${an} and ${bn} are rendered`).toBeTruthy();
      const overlap =
        a!.x < b!.x + b!.width - 0.5 && b!.x < a!.x + a!.width - 0.5 && a!.y < b!.y + b!.height - 0.5 && b!.y < a!.y + a!.height - 0.5;
      expect(overlap, `${an} overlaps ${bn}`).toBe(false);
    }
  }
}

const shoot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENS_DIR, `phone-${name}.png`), fullPage: true });

test('calendar on a phone: the list of the week, the toolbar, another week, an appointment opened by a tap', async ({ page }) => {
  const token = await apiToken(page, DEMO.owner);
  const me = await get<{ company_id: number }>(page.request, token, '/me');
  const { timezone: zone } = await get<{ timezone: string }>(page.request, token, `/companies/${me.company_id}`);

  await signInAs(page, DEMO.owner, '/calendar');
  await expect(page.locator('.fc-list')).toBeVisible();
  await expect(page.getByText('Loading appointments...')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'List', exact: true })).toHaveAttribute('aria-pressed', 'true');

  // The week shown (its first day is in the address, ?date=) lists exactly the server's
  // appointments of those seven company-local days, with the titles of docs/product/02-screens.md.
  await expect(page).toHaveURL(/[?&]date=\d{4}-\d{2}-\d{2}/);
  const sunday = new URL(page.url()).searchParams.get('date')!;
  expect(new Date(`${sunday}T12:00:00Z`).getUTCDay(), 'weeks start on Sunday').toBe(0);
  const today = localDate(new Date().toISOString(), zone);
  expect(Math.abs(Date.parse(today) - Date.parse(sunday)), 'the list opens on the current week').toBeLessThanOrEqual(7 * 86_400_000);
  const showCancelled = await page.getByLabel('Show cancelled').isChecked();
  const week = (
    await get<Appt[]>(page.request, token, `/appointments?start_date=${addDays(sunday, -1)}&end_date=${addDays(sunday, 8)}`)
  ).filter((a) => {
    const d = localDate(a.start_time, zone);
    return d >= sunday && d <= addDays(sunday, 6) && (showCancelled || a.status === 'booked');
  });
  expect(week.length, 'the demo has appointments this week').toBeGreaterThan(0);
  const shown = await page.locator('.fc-list-event .fc-list-event-title').allInnerTexts();
  expect(shown.map((t) => t.trim()).sort()).toEqual(week.map(titleOf).sort());

  // Usable: everything fits the width, the title and the buttons do not overlap, and the rows
  // are tall enough to tap.
  await noHorizontalScroll(page, 'the calendar list');
  const prev = page.getByRole('button', { name: 'Previous' });
  const todayBtn = page.getByRole('button', { name: 'Today' });
  const next = page.getByRole('button', { name: 'Next' });
  const title = page.locator('#calendar-title');
  const create = page.getByRole('button', { name: 'Create Appointment' });
  for (const [name, l] of [
    ['title', title],
    ['Previous', prev],
    ['Today', todayBtn],
    ['Next', next],
    ['Create Appointment', create],
  ] as const) {
    await expect(l).toBeVisible();
    await expectWithinScreen(l, name);
  }
  await expectNoOverlap([
    ['title', title],
    ['Previous', prev],
    ['Today', todayBtn],
    ['Next', next],
  ]);
  const views = page.getByRole('group', { name: 'View' }).getByRole('button');
  await expectNoOverlap(await Promise.all((await views.all()).map(async (b) => [(await b.textContent()) ?? '', b] as [string, Locator])));
  const firstRow = page.locator('.fc-list-event').first();
  expect((await firstRow.boundingBox())!.height, 'a list row is tall enough to tap').toBeGreaterThanOrEqual(24);
  await shoot(page, 'calendar-list');

  // Another week, by touch.
  const weekTitle = (await title.textContent()) ?? '';
  await next.tap();
  await expect(title).not.toHaveText(weekTitle);
  await expect(page.locator('.fc-list')).toBeVisible();
  await expect(page.getByText('Loading appointments...')).toHaveCount(0);
  await prev.tap();
  await expect(title).toHaveText(weekTitle);

  // A tap on an appointment opens its edit modal, within the screen, its actions reachable.
  const target = page.locator('.fc-list-event:not(.is-cancelled)').first();
  const label = (await target.getAttribute('aria-label')) ?? '';
  const customer = label.split(',')[0];
  await target.locator('.fc-list-event-title').tap();
  const modal = page.getByRole('dialog', { name: 'Edit Appointment' });
  await expect(modal).toBeVisible();
  await expectWithinScreen(modal, 'the edit modal');
  await expect(modal.getByLabel('Customer').locator('option:checked')).toHaveText(new RegExp(`^${customer} \\(`));
  const update = modal.getByRole('button', { name: 'Update Appointment' });
  await expect(update).toBeInViewport();
  await expectWithinScreen(update, 'Update Appointment');
  await noHorizontalScroll(page, 'the edit modal');
  await shoot(page, 'calendar-edit');
  await modal.getByRole('button', { name: 'Cancel', exact: true }).tap();
  await expect(modal).toBeHidden();
});

test("directory on a phone: stacked columns, the customer search, a person's detail and back", async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/directory');
  const staff = page.getByRole('region', { name: 'Staff' });
  const customers = page.getByRole('region', { name: 'Customers' });
  await expect(staff.getByRole('button', { name: /Olivia Owner/ })).toBeVisible();
  await expect(customers.getByRole('button', { name: /Casey Customer/ })).toBeVisible();
  await noHorizontalScroll(page, 'the directory');

  // Stacked: Staff above Customers, each the full width of the content, neither beside the other.
  const s = (await staff.boundingBox())!;
  const c = (await customers.boundingBox())!;
  expect(s.y + s.height, 'Staff ends before Customers begins').toBeLessThanOrEqual(c.y + 0.5);
  expect(Math.abs(s.x - c.x), 'the columns are aligned').toBeLessThanOrEqual(1);
  expect(Math.abs(s.width - c.width), 'the columns are equally wide').toBeLessThanOrEqual(1);
  expect(s.width, 'a column takes the screen width').toBeGreaterThanOrEqual(SIZES.phone.width - 64);
  await expectWithinScreen(staff, 'Staff');
  await expectWithinScreen(customers, 'Customers');
  await shoot(page, 'directory');

  // The search: case-insensitive on name or email, as the server holds them.
  const everyone = await (async () => {
    const res = await page.request.get('/api/users', { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(200);
    return (await res.json()) as Person[];
  })();
  const allCustomers = everyone.filter((p) => p.role === 'customer');
  await expect(customers.locator('.dir-list > li')).toHaveCount(allCustomers.length);
  const search = customers.getByLabel('Search customers');
  await expectWithinScreen(search, 'the search field');
  await search.tap();
  await search.fill('MARTINEZ');
  const martinez = allCustomers.filter((p) => `${p.name} ${p.email}`.toLowerCase().includes('martinez'));
  expect(martinez.length).toBeGreaterThan(0);
  await expect(customers.locator('.dir-list > li')).toHaveCount(martinez.length);
  for (const p of martinez) await expect(customers.getByRole('button', { name: new RegExp(p.name) })).toBeVisible();
  await search.fill('casey');
  await expect(customers.locator('.dir-list > li')).toHaveCount(1);

  // A customer's detail fits the screen; Back to Directory returns to both columns.
  await customers.getByRole('button', { name: /Casey Customer/ }).tap();
  await expect(page.getByRole('heading', { level: 2, name: 'Casey Customer' })).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(DEMO.customer);
  await expectWithinScreen(page.getByLabel('Name', { exact: true }), 'the Name field');
  await expectWithinScreen(page.getByRole('button', { name: 'Schedule Appointment' }), 'Schedule Appointment');
  await noHorizontalScroll(page, "a customer's detail");
  await shoot(page, 'directory-customer');
  await page.getByRole('button', { name: 'Back to Directory' }).tap();
  await expect(staff).toBeVisible();
  await expect(customers).toBeVisible();

  // A staff member's detail: the work hours fit the screen too.
  await staff.getByRole('button', { name: /Noah Barber/ }).tap();
  const hours = page.getByRole('region', { name: 'Work hours' });
  await expect(hours.getByRole('combobox', { name: 'Monday Start' })).toHaveValue('12:00');
  await expectWithinScreen(hours, 'Work hours');
  await expectWithinScreen(hours.getByRole('combobox', { name: 'Sunday End' }), 'the last work-hours field');
  await noHorizontalScroll(page, "a staff member's detail");
  await shoot(page, 'directory-staff');
  await page.getByRole('button', { name: 'Back to Directory' }).tap();
  await expect(customers).toBeVisible();
});

test("every staff page's title fits the phone's header whole", async ({ page }) => {
  await signInAs(page, DEMO.owner, '/calendar');
  // The owner's pages (an admin's Administration is the global admin's only).
  for (const [to, title] of [
    ['/dashboard', 'Dashboard'],
    ['/upgrade', 'Upgrade'],
    ['/calendar', 'Calendar'],
    ['/directory', 'Directory'],
    ['/company-settings', 'Company Settings'],
    ['/settings', 'Your Settings'],
  ] as const) {
    await page.goto(to);
    const heading = page.locator('.app-title');
    await expect(heading).toHaveText(title);
    expect(await heading.evaluate((h) => h.scrollWidth <= h.clientWidth), `${title} is not cut short`).toBe(true);
  }
});
