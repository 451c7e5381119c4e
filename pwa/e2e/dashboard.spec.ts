// /dashboard (issue 5, item 8): today's and the next 7 days' appointments of the company with
// counts that match the server, the quick actions, the same view for employees, and docs/product/02-screens.md's
// "/" for signed-in users going to /calendar.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { DEMO, apiToken, signInAs } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';
import { addDays } from './support/appointments.ts';

interface Appt {
  id: number;
  employee_id: number | null;
  start_time: string;
  status: 'booked' | 'cancelled';
  customer_name: string | null;
}

function dateIn(iso: string, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

async function get<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const res = await request.get(`/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
}

/** The server's view of the dashboard's eight days, counted the way the page promises to. */
async function expected(request: APIRequestContext, token: string, onlyEmployee?: number) {
  const me = await get<{ id: number; company_id: number }>(request, token, '/me');
  const company = await get<{ timezone: string }>(request, token, `/companies/${me.company_id}`);
  const zone = company.timezone;
  const today = dateIn(new Date().toISOString(), zone);
  const all = await get<Appt[]>(request, token, `/appointments?start_date=${today}&end_date=${addDays(today, 7)}`);
  const days = all.filter((a) => dateIn(a.start_time, zone) >= today && (onlyEmployee === undefined || a.employee_id === onlyEmployee));
  const todays = days.filter((a) => dateIn(a.start_time, zone) === today);
  return {
    me,
    today,
    todays,
    counts: {
      today: todays.filter((a) => a.status === 'booked').length,
      week: days.filter((a) => a.status === 'booked' && dateIn(a.start_time, zone) !== today).length,
      cancelled: days.filter((a) => a.status === 'cancelled').length,
    },
  };
}

async function expectCounts(page: Page, counts: { today: number; week: number; cancelled: number }) {
  await expect(page.getByTestId('count-today')).toHaveText(String(counts.today));
  await expect(page.getByTestId('count-week')).toHaveText(String(counts.week));
  await expect(page.getByTestId('count-cancelled')).toHaveText(String(counts.cancelled));
}

test('owner: counts and lists match the server, quick actions, screenshots and axe', async ({ page }) => {
  const token = await apiToken(page, DEMO.owner);
  const want = await expected(page.request, token);
  expect(want.counts.week, 'the demo has appointments in the next 7 days').toBeGreaterThan(0);

  await signInAs(page, DEMO.owner, '/dashboard');
  await expect(page.getByRole('heading', { name: 'Demo Studio' })).toBeVisible();
  await expectCounts(page, want.counts);
  await expect(page.getByText('Today', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Next 7 days', { exact: true }).first()).toBeVisible();

  // Today's panel lists every appointment of today, by customer name.
  const todayPanel = page.locator('section', { has: page.getByRole('heading', { name: 'Today', exact: true }) });
  if (want.todays.length === 0) await expect(todayPanel.getByText('No appointments today.')).toBeVisible();
  else {
    await expect(todayPanel.locator('.dash-item')).toHaveCount(want.todays.length);
    for (const a of want.todays.slice(0, 3)) await expect(todayPanel.getByText(a.customer_name!).first()).toBeVisible();
  }

  const actions = page.getByRole('navigation', { name: 'Quick actions' });
  await expect(actions.getByRole('link', { name: 'Open Calendar' })).toHaveAttribute('href', '/calendar');
  await expect(actions.getByRole('link', { name: 'Directory' })).toHaveAttribute('href', '/directory');
  await expect(actions.getByRole('link', { name: 'Company Settings' })).toHaveAttribute('href', '/company-settings');

  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target}`),
  ).toEqual([]);
  await shootAllSizes(page, 'dashboard');

  // Create Appointment opens the calendar with the create modal.
  await actions.getByRole('link', { name: 'Create Appointment' }).click();
  await expect(page).toHaveURL(/\/calendar/);
  await expect(page.getByRole('dialog').getByRole('heading', { name: 'Create Appointment' })).toBeVisible();
  await expect(page.getByRole('dialog').getByLabel('Company')).toHaveValue('Demo Studio');
});

test('an employee sees the same company figures, and can narrow them to their own', async ({ page }) => {
  const ownerToken = await apiToken(page, DEMO.owner);
  const company = await expected(page.request, ownerToken);
  const token = await apiToken(page, DEMO.employee);
  const emma = await expected(page.request, token);
  expect(emma.counts).toEqual(company.counts);

  await signInAs(page, DEMO.employee, '/dashboard');
  await expectCounts(page, company.counts);
  const actions = page.getByRole('navigation', { name: 'Quick actions' });
  await expect(actions.getByRole('link', { name: 'Create Appointment' })).toBeVisible();
  await expect(actions.getByRole('link', { name: 'Company Settings' })).toHaveCount(0);

  const mine = await expected(page.request, token, emma.me.id);
  expect(mine.counts.week).toBeLessThan(company.counts.week);
  await page.getByLabel('Only my appointments').check();
  await expectCounts(page, mine.counts);
});

test('signed-in users go from / to /calendar; a customer is sent from /dashboard to /calendar', async ({ page }) => {
  await signInAs(page, DEMO.owner, '/');
  await expect(page).toHaveURL(/\/calendar/);
  await signInAs(page, DEMO.customer, '/dashboard');
  await expect(page).toHaveURL(/\/calendar(\?.*)?$/);
  await expect(page.getByRole('heading', { name: 'Your appointments' })).toBeVisible();
});
