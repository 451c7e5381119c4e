// Scheduling rules in the browser (issue 13, docs/decisions/11-scheduling-rules-beyond-spec.md): a break
// added in Company settings and in a person's work hours is stored as two intervals; after a break
// and a holiday the booking page no longer offers those times or that day; one employee's time off
// removes only their slots.
//
// Every test puts the demo company back as it found it: the calendar and booking specs rely on it.
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
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

const ZONE = 'America/New_York';

/** 'YYYY-MM-DD' in the demo company's zone, `days` from today. */
function companyDate(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return new Date(Date.parse(`${today}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** ISO weekday (1 Monday .. 7 Sunday) of a 'YYYY-MM-DD'. */
const weekdayOf = (date: string) => ((new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;

/** The first date from two days ahead (never today, whose slots run out as the clock moves) on that weekday. */
function nextWeekday(day: number, after = 2): string {
  for (let i = after; i < after + 7; i++) if (weekdayOf(companyDate(i)) === day) return companyDate(i);
  throw new Error('unreachable');
}

const longDate = (date: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(
    new Date(`${date}T12:00:00Z`),
  );

interface Override {
  id: number;
  user_id: number | null;
  date: string;
  is_closed: boolean;
  note?: string | null;
}

async function overridesOn(page: Page, token: string, companyId: number, date: string, userId: number | null) {
  const q = `company_id=${companyId}${userId === null ? '' : `&user_id=${userId}`}&from=${date}&to=${date}`;
  const r = await call<Override[]>(page.request, token, 'GET', `/date-overrides?${q}`);
  expect(r.status).toBe(200);
  return r.body.filter((o) => o.user_id === userId);
}

async function removeOverrides(page: Page, token: string, companyId: number, date: string, userId: number | null) {
  for (const o of await overridesOn(page, token, companyId, date, userId))
    await call(page.request, token, 'DELETE', `/date-overrides/${o.id}`);
}

/** An anonymous booking page with the service and team member chosen. */
async function bookingPage(browser: Browser, service: string, employee: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/public/booking/demo');
  await expect(page.getByRole('heading', { level: 1, name: 'Book Appointment' })).toBeVisible();
  await page.getByRole('radio', { name: new RegExp(`^${service}\\b`) }).check();
  await page.getByLabel('Team Member').selectOption({ label: employee });
  await expect(page.locator('input[name="date"]').first()).toBeAttached({ timeout: 15_000 });
  return { page, close: () => context.close() };
}

async function timesOn(page: Page, date: string): Promise<string[]> {
  await page.locator(`label[for="bk-date-${date}"]`).click();
  await expect(page.locator(`#bk-date-${date}`)).toBeChecked();
  const time = page.getByLabel('Time', { exact: true });
  await expect(time).toBeEnabled({ timeout: 15_000 });
  await expect(time.locator('option[value]:not([value=""])').first()).toBeAttached({ timeout: 15_000 });
  return time.locator('option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value).filter(Boolean));
}

/** The values ('HH:MM') the API offers for a service with an employee on a date. */
async function slotValues(page: Page, q: { company: number; service: number; employee: number; date: string }): Promise<string[]> {
  const r = await call<{ slots: { value: string }[] }>(
    page.request,
    '',
    'GET',
    `/appointments/available-slots?company_id=${q.company}&service_type_id=${q.service}&employee_id=${q.employee}&date=${q.date}`,
  );
  expect(r.status).toBe(200);
  return r.body.slots.map((x) => x.value);
}

async function employeeId(page: Page, token: string, companyId: number, name: string): Promise<number> {
  const r = await call<{ id: number; name: string }[]>(page.request, token, 'GET', `/employees?company_id=${companyId}`);
  const found = r.body.find((e) => e.name === name);
  expect(found, name).toBeTruthy();
  return found!.id;
}

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

test('company hours: Add break splits a day into two stored intervals, Remove break joins them again; screenshots and axe', async ({
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

    // Remove break joins the two again (the afternoon is not lost); clearing a time removes hours.
    await hours.getByRole('button', { name: 'Remove break on Wednesday' }).click();
    await expect(hours.getByRole('combobox', { name: 'Wednesday Start 2' })).toHaveCount(0);
    await expect(hours.getByRole('combobox', { name: 'Wednesday End', exact: true })).toHaveValue('18:00');
    await expect.poll(() => hoursOf(page, token, companyId, null, 3), { timeout: 15_000 }).toEqual([['09:00:00', '18:00:00']]);
    await hours.getByRole('button', { name: 'Add break on Wednesday' }).click();
    await expect.poll(() => hoursOf(page, token, companyId, null, 3), { timeout: 15_000 }).toHaveLength(2);
    await hours.getByRole('combobox', { name: 'Wednesday End 2' }).selectOption('');
    await expect(hours.getByRole('combobox', { name: 'Wednesday Start 2' })).toHaveCount(0);
    await expect.poll(() => hoursOf(page, token, companyId, null, 3), { timeout: 15_000 }).toHaveLength(1);
  } finally {
    await resetDay(page, token, companyId, null, 3, ['09:00:00', '18:00:00']);
  }
});

test('company hours: clearing the new hours right after Add break, before the server has answered, removes them', async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/company-settings');
  const me = await call<{ company_id: number }>(page.request, token, 'GET', '/me');
  const companyId = me.body.company_id;
  const hours = card(page, 'Opening hours');
  // The afternoon's row is stored slowly, so the screen still shows it under a temporary id when
  // it is cleared: the removal must wait for the stored row, not send the temporary id.
  let answerPost!: () => void;
  const postAnswered = new Promise<void>((resolve) => (answerPost = resolve));
  await page.route('**/api/operating-hours', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await postAnswered;
    await route.fallback();
  });
  try {
    await expect(hours.getByRole('combobox', { name: 'Wednesday End', exact: true })).toHaveValue('18:00');
    await hours.getByRole('button', { name: 'Add break on Wednesday' }).click();
    await expect(hours.getByRole('combobox', { name: 'Wednesday End 2' })).toHaveValue('18:00');
    await hours.getByRole('combobox', { name: 'Wednesday End 2' }).selectOption('');
    await expect(hours.getByRole('combobox', { name: 'Wednesday Start 2' })).toHaveCount(0);
    answerPost();
    await expect.poll(() => hoursOf(page, token, companyId, null, 3), { timeout: 15_000 }).toEqual([['09:00:00', '13:00:00']]);
    await expect(hours.getByText('Saving…')).toHaveCount(0);
    await expect(hours.getByText(/Could not/)).toHaveCount(0);
    await expect(hours.getByRole('combobox', { name: 'Wednesday End', exact: true })).toHaveValue('13:00');
  } finally {
    answerPost();
    await page.unroute('**/api/operating-hours');
    await resetDay(page, token, companyId, null, 3, ['09:00:00', '18:00:00']);
  }
});

test("a person's work hours: Add break and Save Changes store two intervals; Remove break stores the whole day again", async ({ page }) => {
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

    // After a reload both intervals are shown; removing the break and saving stores the whole day again.
    await page.reload();
    await expect(hours.getByRole('combobox', { name: 'Thursday Start 2' })).toHaveValue('12:00');
    await hours.getByRole('button', { name: 'Remove break on Thursday' }).click();
    await expect(hours.getByRole('combobox', { name: 'Thursday End', exact: true })).toHaveValue('16:00');
    await save.click();
    await expect(page.getByText('Settings saved successfully.')).toBeVisible();
    await expect.poll(() => hoursOf(page, token, me.body.company_id, me.body.id, 4)).toEqual([['08:00:00', '16:00:00']]);
  } finally {
    const owner = await apiToken(page, DEMO.owner);
    const first = before[0];
    await resetDay(page, owner, me.body.company_id, me.body.id, 4, first ? [first[0]!, first[1]!] : null);
  }
});

test('a break and a holiday added in Company settings: the booking page no longer offers those times or that day', async ({
  page,
  browser,
}) => {
  const token = await signInAs(page, DEMO.owner, '/company-settings');
  const companyId = (await call<{ company_id: number }>(page.request, token, 'GET', '/me')).body.company_id;
  const haircut = (
    await call<{ id: number; name: string }[]>(page.request, token, 'GET', `/service-types?company_id=${companyId}`)
  ).body.find((x) => x.name === 'Haircut')!.id;
  // A Wednesday on which someone has 13:00 free (the demo has appointments), and the Thursday after it.
  let found: { employee: string; wednesday: string } | null = null;
  for (let week = 0; week < 3 && !found; week++) {
    const date = nextWeekday(3, 2 + 7 * week);
    for (const name of ['Emma Stylist', 'Ava Coach', 'Marco Manager']) {
      const id = await employeeId(page, token, companyId, name);
      // 12:30 and 13:30 too: the test expects them still offered around the break (other specs book demo times).
      const free = await slotValues(page, { company: companyId, service: haircut, employee: id, date });
      if (['12:30', '13:00', '13:30'].every((t) => free.includes(t))) {
        found = { employee: name, wednesday: date };
        break;
      }
    }
  }
  expect(found, 'a Wednesday with 13:00 free').toBeTruthy();
  const { employee, wednesday } = found!;
  const holiday = new Date(Date.parse(`${wednesday}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10); // its Thursday
  const hours = card(page, 'Opening hours');
  const closures = card(page, 'Closures and special hours');
  try {
    // Before: Haircut at 13:00 on that Wednesday, and the Thursday, are offered.
    let booking = await bookingPage(browser, 'Haircut', employee);
    await expect(booking.page.locator(`#bk-date-${holiday}`)).toBeAttached();
    expect(await timesOn(booking.page, wednesday)).toContain('13:00');
    await booking.close();

    await hours.getByRole('button', { name: 'Add break on Wednesday' }).click();
    await expect
      .poll(() => hoursOf(page, token, companyId, null, 3), { timeout: 15_000 })
      .toEqual([
        ['09:00:00', '13:00:00'],
        ['13:30:00', '18:00:00'],
      ]);

    await closures.getByLabel('Date').fill(holiday);
    await closures.getByLabel('Note (optional)').fill('Public holiday');
    await expect(closures.getByRole('checkbox', { name: 'Closed all day' })).toBeChecked();
    await closures.getByRole('button', { name: 'Add closure' }).click();
    const item = closures.getByRole('listitem').filter({ hasText: longDate(holiday) });
    await expect(item).toContainText('Closed all day');
    await expect(item).toContainText('Public holiday');
    await expect.poll(async () => (await overridesOn(page, token, companyId, holiday, null)).map((o) => o.is_closed)).toEqual([true]);
    await expectNoSeriousAxe(page, 'company settings with a closure');
    await closures.scrollIntoViewIfNeeded();
    await shootAllSizes(page, 'company-closures');

    // The same date again: the date as the list shows it, not the server's words.
    await closures.getByLabel('Date').fill(holiday);
    await closures.getByRole('button', { name: 'Add closure' }).click();
    await expect(closures.getByText(`${longDate(holiday)} is already in the list: remove it there first to enter it again.`)).toBeVisible();
    await expect.poll(async () => (await overridesOn(page, token, companyId, holiday, null)).length).toBe(1);

    // After: the holiday is greyed out (not a choice) and the break's half hour is gone.
    booking = await bookingPage(browser, 'Haircut', employee);
    await expect(booking.page.locator(`#bk-date-${holiday}`)).toHaveCount(0);
    await expect(booking.page.locator(`[data-off-date="${holiday}"]`)).toBeVisible();
    const times = await timesOn(booking.page, wednesday);
    expect(times).toContain('12:30');
    expect(times).toContain('13:30');
    expect(times).not.toContain('13:00');
    await booking.close();

    // Remove in the list takes the closure away.
    await item.getByRole('button', { name: `Remove ${longDate(holiday)}` }).click();
    await expect(closures.getByText(`Removed ${longDate(holiday)}.`)).toBeVisible();
    await expect(item).toHaveCount(0);
    await expect.poll(async () => (await overridesOn(page, token, companyId, holiday, null)).length).toBe(0);
  } finally {
    await removeOverrides(page, token, companyId, holiday, null);
    await resetDay(page, token, companyId, null, 3, ['09:00:00', '18:00:00']);
  }
});

test("time off for one employee, added from their Directory page, removes only that employee's slots", async ({ page, browser }) => {
  const token = await apiToken(page, DEMO.owner);
  const companyId = (await call<{ company_id: number }>(page.request, token, 'GET', '/me')).body.company_id;
  const emma = await employeeId(page, token, companyId, 'Emma Stylist');
  const dayOff = nextWeekday(5);
  try {
    await signInAs(page, DEMO.owner, `/directory?person=${emma}`);
    const timeOff = card(page, 'Time off');
    await timeOff.getByLabel('Date').fill(dayOff);
    await timeOff.getByRole('button', { name: 'Add time off' }).click();
    await expect(timeOff.getByRole('listitem').filter({ hasText: longDate(dayOff) })).toContainText('Off all day');
    await expect.poll(async () => (await overridesOn(page, token, companyId, dayOff, emma)).length).toBe(1);
    await timeOff.scrollIntoViewIfNeeded();
    await shootAllSizes(page, 'time-off');

    const withEmma = await bookingPage(browser, 'Haircut', 'Emma Stylist');
    await expect(withEmma.page.locator(`#bk-date-${dayOff}`)).toHaveCount(0);
    await withEmma.close();
    const withAva = await bookingPage(browser, 'Haircut', 'Ava Coach');
    expect((await timesOn(withAva.page, dayOff)).length).toBeGreaterThan(0);
    await withAva.close();
  } finally {
    await removeOverrides(page, token, companyId, dayOff, emma);
  }
});

test('Notice and booking window and a service with buffers performed by one employee are saved and read back', async ({
  page,
  browser,
}) => {
  const token = await signInAs(page, DEMO.owner, '/company-settings');
  const companyId = (await call<{ company_id: number }>(page.request, token, 'GET', '/me')).body.company_id;
  const company = async () =>
    (await call<{ min_notice_minutes: number; booking_window_days: number }>(page.request, token, 'GET', `/companies/${companyId}`)).body;
  const rules = card(page, 'Notice and booking window');
  const services = card(page, 'Services');
  const emma = await employeeId(page, token, companyId, 'Emma Stylist');
  type Service = { id: number; name: string; buffer_before_minutes: number; buffer_after_minutes: number; employee_ids: number[] };
  const colour = async () =>
    (await call<Service[]>(page.request, token, 'GET', `/service-types?company_id=${companyId}`)).body.find(
      (s) => s.name === 'Colour & Style',
    )!;
  const original = await colour();
  try {
    await rules.getByLabel('Minimum notice (minutes)').fill('10081');
    await rules.getByRole('button', { name: 'Save Booking Rules' }).click();
    await expect(rules.getByText('Enter a whole number of minutes from 0 to 10080 (one week).')).toBeVisible();
    await rules.getByLabel('Minimum notice (minutes)').fill('120');
    await rules.getByLabel('Booking window (days)').fill('60');
    await rules.getByRole('button', { name: 'Save Booking Rules' }).click();
    await expect(rules.getByText('Booking rules saved.')).toBeVisible();
    expect(await company()).toMatchObject({ min_notice_minutes: 120, booking_window_days: 60 });

    await services.getByRole('button', { name: 'Edit Colour & Style' }).click();
    const form = services.getByRole('form', { name: 'Edit Colour & Style' });
    await form.getByLabel('Buffer after (minutes)').fill('15');
    await form.getByRole('checkbox', { name: 'Emma Stylist' }).check();
    await expectNoSeriousAxe(page, 'service form with buffers');
    await form.scrollIntoViewIfNeeded();
    await shootAllSizes(page, 'service-buffers');
    await form.getByRole('button', { name: 'Save Service' }).click();
    await expect(services.getByRole('status')).toContainText(/updated/i);
    expect(await colour()).toMatchObject({ buffer_before_minutes: 0, buffer_after_minutes: 15, employee_ids: [emma] });
    await expect(services.getByRole('rowheader', { name: /^Colour & Style/ })).toContainText('Buffers: 15 min after · By Emma Stylist');

    // The booking page offers only Emma for it; another service still offers everyone.
    const booking = await browser.newContext();
    const visitor = await booking.newPage();
    await visitor.goto('/public/booking/demo');
    const teamMember = visitor.getByLabel('Team Member');
    await visitor.getByRole('radio', { name: /^Colour & Style\b/ }).check();
    await expect(teamMember.locator('option')).toHaveText(['Select a team member', 'Emma Stylist']);
    await visitor.getByRole('radio', { name: /^Haircut\b/ }).check();
    await expect.poll(() => teamMember.locator('option').count()).toBeGreaterThan(2);
    // The other way round: someone else chosen first, Colour & Style is not offered, so choosing a
    // service never drops the team member silently; back to nobody chosen, it is.
    await teamMember.selectOption({ label: 'Noah Barber' });
    await expect(visitor.getByRole('radio', { name: /^Colour & Style\b/ })).toHaveCount(0);
    await expect(visitor.getByRole('radio', { name: /^Haircut\b/ })).toBeChecked();
    await teamMember.selectOption({ label: 'Select a team member' });
    await expect(visitor.getByRole('radio', { name: /^Colour & Style\b/ })).toHaveCount(1);
    await booking.close();
  } finally {
    await call(page.request, token, 'PUT', `/companies/${companyId}`, { min_notice_minutes: 0, booking_window_days: 30 });
    await call(page.request, token, 'PUT', `/service-types/${original.id}`, {
      buffer_before_minutes: original.buffer_before_minutes ?? 0,
      buffer_after_minutes: original.buffer_after_minutes ?? 0,
      employee_ids: original.employee_ids ?? [],
    });
  }
});

test('special hours with several intervals: Add interval and Remove in the Closures form, stored as sent, and the booking page offers only those hours', async ({
  page,
}) => {
  const token = await signInAs(page, DEMO.owner, '/company-settings');
  const companyId = (await call<{ company_id: number }>(page.request, token, 'GET', '/me')).body.company_id;
  const haircut = (
    await call<{ id: number; name: string }[]>(page.request, token, 'GET', `/service-types?company_id=${companyId}`)
  ).body.find((x) => x.name === 'Haircut')!.id;
  const emma = await employeeId(page, token, companyId, 'Emma Stylist');
  const day = nextWeekday(2, 9); // a Tuesday at least nine days ahead
  const closures = card(page, 'Closures and special hours');
  const select = (name: string) => closures.getByRole('combobox', { name, exact: true });
  try {
    await closures.getByLabel('Date').fill(day);
    await closures.getByRole('checkbox', { name: 'Closed all day' }).uncheck();
    await select('Open only — start').selectOption('10:00');
    await select('Open only — end').selectOption('12:00');

    // Add interval: a second row starting one increment after the first ends, numbered like the first now is.
    await closures.getByRole('button', { name: 'Add interval' }).click();
    await expect(select('Open only — start (interval 1)')).toHaveValue('10:00');
    await expect(select('Open only — start (interval 2)')).toHaveValue('12:30');
    await expect(select('Open only — end (interval 2)')).toHaveValue('13:30');
    await select('Open only — start (interval 2)').selectOption('14:00');
    await select('Open only — end (interval 2)').selectOption('16:00');

    // A third row, then Remove takes it away again.
    await closures.getByRole('button', { name: 'Add interval' }).click();
    await expect(select('Open only — start (interval 3)')).toHaveValue('16:30');
    await closures.getByRole('button', { name: 'Remove interval 3' }).click();
    await expect(select('Open only — start (interval 3)')).toHaveCount(0);

    // Overlapping intervals are refused in the form, never sent.
    await select('Open only — start (interval 2)').selectOption('11:00');
    await closures.getByRole('button', { name: 'Add special hours' }).click();
    await expect(closures.getByText('The intervals overlap: each must start after the one before it ends.')).toBeVisible();
    expect(await overridesOn(page, token, companyId, day, null)).toEqual([]);
    await select('Open only — start (interval 2)').selectOption('14:00');

    await expectNoSeriousAxe(page, 'closures form with two intervals');
    await closures.scrollIntoViewIfNeeded();
    await shootAllSizes(page, 'company-closures-intervals');

    await closures.getByRole('button', { name: 'Add special hours' }).click();
    const item = closures.getByRole('listitem').filter({ hasText: longDate(day) });
    await expect(item).toContainText('Open only 10:00 AM – 12:00 PM, 2:00 PM – 4:00 PM');
    const stored = await call<{ user_id: number | null; is_closed: boolean; intervals: { open_time: string; close_time: string }[] }[]>(
      page.request,
      token,
      'GET',
      `/date-overrides?company_id=${companyId}&from=${day}&to=${day}`,
    );
    expect(stored.body.filter((o) => o.user_id === null).map((o) => [o.is_closed, o.intervals])).toEqual([
      [
        false,
        [
          { open_time: '10:00:00', close_time: '12:00:00' },
          { open_time: '14:00:00', close_time: '16:00:00' },
        ],
      ],
    ]);
    // The form is back to one blank interval for the next date.
    await expect(select('Open only — start (interval 2)')).toHaveCount(0);

    // That day the booking page offers only those hours (Haircut is 30 minutes on a 30-minute grid).
    const offered = await slotValues(page, { company: companyId, service: haircut, employee: emma, date: day });
    expect(offered.length).toBeGreaterThan(0);
    for (const v of offered) expect(['10:00', '10:30', '11:00', '11:30', '14:00', '14:30', '15:00', '15:30']).toContain(v);
  } finally {
    await removeOverrides(page, token, companyId, day, null);
  }
});
