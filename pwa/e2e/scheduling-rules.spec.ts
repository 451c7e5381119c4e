// Scheduling rules in the browser (issue 13, docs/decisions/11-scheduling-rules-beyond-spec.md): a break
// added in Company settings and in a person's work hours is stored as two intervals; the booking
// page does not offer the times of the break.
//
// Every test puts the demo company back as it found it: the calendar and booking specs rely on it.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoSeriousAxe } from './support/axe.ts';
import { DEMO, apiToken, signInAs } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';

interface HoursRow {
  id: number;
  user_id: number | null;
  day_of_week: number;
  open_time: string | null;
  close_time: string | null;
  is_closed: boolean;
}

async function call<T>(request: APIRequestContext, token: string, method: string, path: string, data?: unknown) {
  const res = await request.fetch(`/api${path}`, { method, headers: { Authorization: `Bearer ${token}` }, data });
  const text = await res.text();
  return { status: res.status(), body: (text ? JSON.parse(text) : undefined) as T };
}

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

async function hoursOf(page: Page, token: string, companyId: number, userId: number | null, day: number) {
  const q = userId === null ? `company_id=${companyId}` : `company_id=${companyId}&user_id=${userId}`;
  const r = await call<HoursRow[]>(page.request, token, 'GET', `/operating-hours?${q}`);
  expect(r.status).toBe(200);
  return r.body
    .filter((x) => x.user_id === userId && x.day_of_week === day && !x.is_closed)
    .map((x) => [x.open_time, x.close_time])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
}

/** Puts a day of the company (or a person) back to one interval, or none. */
async function resetDay(page: Page, token: string, companyId: number, userId: number | null, day: number, hours: [string, string] | null) {
  const q = userId === null ? `company_id=${companyId}` : `company_id=${companyId}&user_id=${userId}`;
  const rows = (await call<HoursRow[]>(page.request, token, 'GET', `/operating-hours?${q}`)).body;
  for (const r of rows.filter((x) => x.user_id === userId && x.day_of_week === day)) {
    await call(page.request, token, 'DELETE', `/operating-hours/${r.id}`);
  }
  if (hours) {
    const res = await call(page.request, token, 'POST', '/operating-hours', {
      company_id: companyId,
      ...(userId === null ? {} : { user_id: userId }),
      day_of_week: day,
      open_time: hours[0],
      close_time: hours[1],
      is_closed: false,
    });
    expect([200, 201]).toContain(res.status);
  }
}

test('company hours: Add break splits a day into two stored intervals, Remove takes the second away; screenshots and axe', async ({
  page,
}) => {
  const token = await signInAs(page, DEMO.owner, '/company-settings');
  const me = await call<{ company_id: number }>(page.request, token, 'GET', '/me');
  const companyId = me.body.company_id;
  const hours = card(page, 'Opening hours');
  try {
    await expect(hours.getByRole('combobox', { name: 'Wednesday End', exact: true })).toHaveValue('18:00');
    await hours.getByRole('button', { name: 'Add break on Wednesday' }).click();
    // 09:00-18:00 at the 30-minute increment: a half-hour break in the middle.
    await expect(hours.getByRole('combobox', { name: 'Wednesday End', exact: true })).toHaveValue('13:00');
    await expect(hours.getByRole('combobox', { name: 'Wednesday Start 2' })).toHaveValue('13:30');
    await expect(hours.getByRole('combobox', { name: 'Wednesday End 2' })).toHaveValue('18:00');
    await expect
      .poll(() => hoursOf(page, token, companyId, null, 3), { timeout: 15_000 })
      .toEqual([
        ['09:00:00', '13:00:00'],
        ['13:30:00', '18:00:00'],
      ]);

    // A longer break: the afternoon starts at 14:00, saved as soon as it is chosen.
    await hours.getByRole('combobox', { name: 'Wednesday Start 2' }).selectOption('14:00');
    await expect
      .poll(() => hoursOf(page, token, companyId, null, 3), { timeout: 15_000 })
      .toEqual([
        ['09:00:00', '13:00:00'],
        ['14:00:00', '18:00:00'],
      ]);

    // Hours overlapping the morning are refused in the form, never sent.
    await hours.getByRole('combobox', { name: 'Wednesday Start 2' }).selectOption('12:00');
    await expect(hours.getByText('Wednesday hours overlap: a break must end before the next hours start')).toBeVisible();
    await hours.getByRole('combobox', { name: 'Wednesday Start 2' }).selectOption('14:00');
    await expect(hours.getByText('Wednesday hours overlap: a break must end before the next hours start')).toHaveCount(0);

    await expectNoSeriousAxe(page, 'company settings with a break');
    await hours.scrollIntoViewIfNeeded();
    await shootAllSizes(page, 'company-hours-break');

    await hours.getByRole('button', { name: 'Remove Wednesday hours 2' }).click();
    await expect(hours.getByRole('combobox', { name: 'Wednesday Start 2' })).toHaveCount(0);
    await expect.poll(() => hoursOf(page, token, companyId, null, 3), { timeout: 15_000 }).toEqual([['09:00:00', '13:00:00']]);
  } finally {
    await resetDay(page, token, companyId, null, 3, ['09:00:00', '18:00:00']);
  }
});

test("a person's work hours: Add break and Save Changes store two intervals; removing the break stores one", async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/settings');
  const me = await call<{ id: number; company_id: number }>(page.request, token, 'GET', '/me');
  const hours = card(page, 'Work hours');
  const save = page.getByRole('button', { name: 'Save Changes' });
  const before = await hoursOf(page, token, me.body.company_id, me.body.id, 4);
  try {
    await hours.getByRole('combobox', { name: 'Thursday Start', exact: true }).selectOption('08:00');
    await hours.getByRole('combobox', { name: 'Thursday End', exact: true }).selectOption('16:00');
    await hours.getByRole('button', { name: 'Add break on Thursday' }).click();
    await expect(hours.getByRole('combobox', { name: 'Thursday End', exact: true })).toHaveValue('11:30');
    await expect(hours.getByRole('combobox', { name: 'Thursday Start 2' })).toHaveValue('12:00');
    await save.click();
    await expect(page.getByText('Settings saved successfully.')).toBeVisible();
    await expect
      .poll(() => hoursOf(page, token, me.body.company_id, me.body.id, 4))
      .toEqual([
        ['08:00:00', '11:30:00'],
        ['12:00:00', '16:00:00'],
      ]);

    // After a reload both intervals are shown; removing the second and saving keeps the morning.
    await page.reload();
    await expect(hours.getByRole('combobox', { name: 'Thursday Start 2' })).toHaveValue('12:00');
    await hours.getByRole('button', { name: 'Remove Thursday hours 2' }).click();
    await save.click();
    await expect(page.getByText('Settings saved successfully.')).toBeVisible();
    await expect.poll(() => hoursOf(page, token, me.body.company_id, me.body.id, 4)).toEqual([['08:00:00', '11:30:00']]);
  } finally {
    const owner = await apiToken(page, DEMO.owner);
    const first = before[0];
    await resetDay(page, owner, me.body.company_id, me.body.id, 4, first ? [first[0]!, first[1]!] : null);
  }
});
