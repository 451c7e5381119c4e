// The customer's self-service page (docs/decisions/09-customer-self-service.md, 23-self-service.md) on a
// phone against the real server: book on the public page, open the link from the confirmation email
// in the e2e inbox, move the appointment to another day, then cancel it; the emails that follow carry
// the same link; an unknown link shows its own page; the admin's cancellation notice in Company settings
// closes the link's Cancel and Reschedule in time. Screenshots at phone, tablet and desktop sizes.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoSeriousAxe } from './support/axe.ts';
import { shootAllSizes, SIZES } from './support/screens.ts';
import { linkIn, waitForMail } from './support/mail.ts';
import { DEMO, signInAs } from './support/session.ts';

const SLUG = 'demo';
const ZONE = 'America/New_York';
const LINK = /http:\/\/localhost:\d+\/manage\/[A-Za-z0-9_-]{43}/;

interface Slot {
  value: string;
  label: string;
  start: string;
}

async function get<T>(request: APIRequestContext, path: string): Promise<{ status: number; body: T }> {
  const res = await request.get(`/api${path}`);
  return { status: res.status(), body: (await res.json()) as T };
}

async function demo(request: APIRequestContext) {
  const company = (await get<{ id: number; timezone: string }>(request, `/companies/slug/${SLUG}`)).body;
  const services = (await get<{ id: number; name: string }[]>(request, `/service-types?company_id=${company.id}`)).body;
  const staff = (await get<{ id: number; name: string }[]>(request, `/employees?company_id=${company.id}`)).body;
  return { company, haircut: services.find((s) => s.name === 'Haircut')!.id, emma: staff.find((e) => e.name === 'Emma Stylist')!.id };
}

async function freeDates(request: APIRequestContext, q: { company: number; service: number; employee: number }): Promise<string[]> {
  const res = await get<{ dates: string[] }>(
    request,
    `/appointments/available-dates?company_id=${q.company}&service_type_id=${q.service}&employee_id=${q.employee}`,
  );
  expect(res.status).toBe(200);
  // Not today: today's slots run out as the clock moves on.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return res.body.dates.filter((d) => d !== today);
}

async function freeSlots(request: APIRequestContext, q: { company: number; service: number; employee: number }, date: string) {
  const res = await get<{ slots: Slot[] }>(
    request,
    `/appointments/available-slots?company_id=${q.company}&service_type_id=${q.service}&employee_id=${q.employee}&date=${date}`,
  );
  expect(res.status).toBe(200);
  return res.body.slots;
}

const dateChip = (page: Page, date: string) => page.locator(`label[for="bk-date-${date}"]`);

/** Books Emma's first free Haircut through the API and answers the demo ids and the self-service link from the confirmation email. */
async function bookFirstFree(request: APIRequestContext, customer: { name: string; emailPrefix: string; phone: string }) {
  const { company, haircut, emma } = await demo(request);
  const q = { company: company.id, service: haircut, employee: emma };
  const date = (await freeDates(request, q))[0]!;
  const slot = (await freeSlots(request, q, date))[0]!;
  const email = `${customer.emailPrefix}-${Date.now().toString(36)}@example.org`;
  const booked = await request.post('/api/appointments', {
    data: {
      company_id: company.id,
      employee_id: emma,
      service_type_ids: [haircut],
      start_time: slot.start,
      customer: { name: customer.name, email, phone: customer.phone },
    },
  });
  expect(booked.status()).toBe(201);
  const link = linkIn(await waitForMail(email, (b) => b.includes('Booking confirmed') && LINK.test(b), 30_000), LINK);
  return { company, haircut, emma, date, slot, email, link };
}

test.describe('self-service link on a phone', () => {
  test.use({ viewport: SIZES.phone });

  test('book, open the link from the email, reschedule, then cancel', async ({ page }) => {
    const { company, haircut, emma } = await demo(page.request);
    const q = { company: company.id, service: haircut, employee: emma };
    const who = { name: 'Morgan Manage', email: `manage-${Date.now().toString(36)}@example.org`, phone: '+1 646 555 0199' };

    // Book on the public page.
    const dates = await freeDates(page.request, q);
    expect(dates.length).toBeGreaterThan(1);
    const [bookDate, moveDate] = [dates[0]!, dates[dates.length - 1]!];
    const bookSlot = (await freeSlots(page.request, q, bookDate))[0]!;
    await page.goto(`/public/booking/${SLUG}`);
    await page.getByLabel('Full Name').fill(who.name);
    await page.getByLabel('Email Address').fill(who.email);
    await page.getByLabel('Phone Number').fill(who.phone);
    await page.getByRole('radio', { name: /^Haircut\b/ }).check();
    await page.getByLabel('Team Member').selectOption({ label: 'Emma Stylist' });
    await dateChip(page, bookDate).click();
    await page.getByLabel('Time', { exact: true }).selectOption(bookSlot.value);
    await page.getByRole('button', { name: 'Book Appointment' }).click();
    await expect(page.getByRole('heading', { name: 'Your appointment is booked!' })).toBeVisible();

    // The confirmation email carries the link (instead of "contact the business").
    const confirmation = await waitForMail(who.email, (b) => b.includes('Booking confirmed') && LINK.test(b), 30_000);
    expect(confirmation).toContain('To change or cancel it, open your booking page');
    const link = linkIn(confirmation, LINK);
    const token = link.slice(link.lastIndexOf('/') + 1);

    // Opened in the browser: the appointment, without signing in; the token leaves the address bar.
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Your appointment' })).toBeVisible();
    await expect(page).toHaveURL(/\/manage$/);
    const summary = page.locator('.manage-summary');
    await expect(summary).toContainText('Haircut');
    await expect(summary).toContainText('Emma Stylist');
    await expect(summary).toContainText('Demo Studio');
    await expect(page.getByText('You can change or cancel online until')).toBeVisible();
    await shootAllSizes(page, 'manage-booked');
    await expectNoSeriousAxe(page, 'the booked appointment', { wcag21aa: true });

    // Reschedule to another day, from the offered slots of the same service and employee.
    await page.getByRole('button', { name: 'Reschedule' }).click();
    await expect(page.getByRole('heading', { name: 'Choose a new time' })).toBeVisible();
    await dateChip(page, moveDate).click();
    const moveSlot = (await freeSlots(page.request, q, moveDate)).at(-1)!;
    const time = page.getByLabel('Time', { exact: true });
    await expect(time).toBeEnabled();
    await time.selectOption(moveSlot.start);
    await shootAllSizes(page, 'manage-reschedule');
    await expectNoSeriousAxe(page, 'the reschedule picker', { wcag21aa: true });
    await page.getByRole('button', { name: 'Move appointment' }).click();
    await expect(page.getByText('Your appointment has moved.')).toBeVisible();
    await expect(summary.locator('time')).toHaveAttribute('datetime', moveSlot.start);
    const moved = await get<{ start_time: string; version: number; status: string }>(page.request, `/manage/${token}`);
    expect(moved.body).toMatchObject({ start_time: moveSlot.start, version: 2, status: 'booked' });
    const notice = await waitForMail(who.email, (b) => b.includes('Appointment moved'), 30_000);
    expect(linkIn(notice, LINK)).toBe(link);

    // A reload keeps the page (the token stays with this tab).
    await page.reload();
    await expect(summary.locator('time')).toHaveAttribute('datetime', moveSlot.start);

    // Cancel, with a confirming step.
    await page.getByRole('button', { name: 'Cancel appointment' }).click();
    await expect(page.getByText('Cancel this appointment?')).toBeVisible();
    // The confirmation spans the card at every size (beside Reschedule, it was squeezed word by word).
    for (const viewport of Object.values(SIZES)) {
      await page.setViewportSize(viewport);
      const confirm = await page.getByRole('group', { name: 'Cancel appointment' }).boundingBox();
      const card = await summary.boundingBox();
      expect(confirm!.width).toBeGreaterThanOrEqual(card!.width - 1);
    }
    await shootAllSizes(page, 'manage-cancel-confirm');
    await page.getByRole('button', { name: 'Keep it' }).click();
    await page.getByRole('button', { name: 'Cancel appointment' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect(page.getByText('Your appointment is cancelled.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reschedule' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Book a new appointment' })).toHaveAttribute('href', `/public/booking/${SLUG}`);
    const cancelled = await get<{ status: string; version: number }>(page.request, `/manage/${token}`);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', version: 3 });
    await waitForMail(who.email, (b) => b.includes('Appointment cancelled'), 30_000);
    await shootAllSizes(page, 'manage-cancelled');
    await expectNoSeriousAxe(page, 'the cancelled appointment', { wcag21aa: true });
  });

  test('an unknown link says so', async ({ page }) => {
    await page.goto(`/manage/${'x'.repeat(43)}`);
    await expect(page.getByRole('heading', { level: 1, name: 'This link is not valid any more' })).toBeVisible();
    await shootAllSizes(page, 'manage-invalid');
  });

  test('offline: the link says so while loading and once shown; a cancel tapped offline fails plainly and changes nothing', async ({
    page,
    context,
  }) => {
    const OFFLINE =
      'You are offline. Changing your appointment needs an internet connection: nothing has been changed. Connect and try again.';
    const { link } = await bookFirstFree(page.request, { name: 'Olu Offline', emailPrefix: 'offline', phone: '+1 646 555 0177' });
    const token = link.slice(link.lastIndexOf('/') + 1);

    // The connection drops while the appointment is on its way: the notice, not a spinner alone.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(`**/api/manage/${token}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(link);
    await expect(page.getByText('Loading your appointment...')).toBeVisible();
    await context.setOffline(true);
    await expect(page.getByText(OFFLINE)).toBeVisible();
    await context.setOffline(false);
    release();
    await expect(page.getByRole('button', { name: 'Cancel appointment' })).toBeVisible();
    await expect(page.getByText(OFFLINE)).toHaveCount(0);
    await page.unroute(`**/api/manage/${token}`);

    // Offline with the page open: the notice, and a cancel fails at once instead of waiting to
    // happen whenever the connection returns.
    await context.setOffline(true);
    await expect(page.getByText(OFFLINE)).toBeVisible();
    await page.getByRole('button', { name: 'Cancel appointment' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect(page.getByText('Cannot connect to the server. Please check your network connection.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Yes, cancel it' })).toBeEnabled();
    await shootAllSizes(page, 'manage-offline');
    await context.setOffline(false);
    await expect(page.getByText(OFFLINE)).toHaveCount(0);
    await page.waitForTimeout(500);
    const after = await get<{ status: string; version: number }>(page.request, `/manage/${token}`);
    expect(after.body).toMatchObject({ status: 'booked', version: 1 });
  });

  test("the company's cancellation notice, set in Company settings, closes changes in time", async ({ page }) => {
    const { company, link } = await bookFirstFree(page.request, {
      name: 'Nia Notice',
      emailPrefix: 'notice',
      phone: '+1 646 555 0123',
    });

    const owner = await signInAs(page, DEMO.owner, '/company-settings');
    const field = page.getByLabel('Cancellation notice (hours)');
    const save = page.getByRole('button', { name: 'Save Cancellation Notice' });
    try {
      await expect(field).toHaveValue('0');
      await field.fill('200');
      await save.click();
      await expect(page.getByText('Enter a whole number of hours from 0 to 168 (one week).')).toBeVisible();
      // A week: the next free day is inside it.
      await field.fill('168');
      await save.click();
      await expect(page.getByText('Cancellation notice saved.')).toBeVisible();
      const saved = await page.request.get(`/api/companies/${company.id}`, { headers: { authorization: `Bearer ${owner}` } });
      expect(((await saved.json()) as { cancellation_notice_hours: number }).cancellation_notice_hours).toBe(168);

      await page.goto(link);
      await expect(page.getByText('Changes online were possible until')).toBeVisible();
      // ...and how to reach the business instead: its email, as the confirmation gives it.
      const email = ((await saved.json()) as { email: string | null }).email;
      expect(email).toBeTruthy();
      await expect(page.getByRole('link', { name: email! })).toHaveAttribute('href', `mailto:${email}`);
      await expect(page.getByRole('button', { name: 'Cancel appointment' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Reschedule' })).toHaveCount(0);
      await shootAllSizes(page, 'manage-too-late');

      // The notice changes while the page is open: the refused cancel turns the page into the same
      // state, instead of leaving buttons that can only be refused again.
      const setNotice = (hours: number) =>
        page.request.put(`/api/companies/${company.id}`, {
          headers: { authorization: `Bearer ${owner}` },
          data: { cancellation_notice_hours: hours },
        });
      expect((await setNotice(0)).status()).toBe(200);
      await page.reload();
      await page.getByRole('button', { name: 'Cancel appointment' }).click();
      expect((await setNotice(168)).status()).toBe(200);
      await page.getByRole('button', { name: 'Yes, cancel it' }).click();
      await expect(page.getByText('Changes online were possible until')).toBeVisible();
      await expect(page.getByRole('button', { name: /Cancel appointment|Yes, cancel it|Reschedule/ })).toHaveCount(0);
      await expect(page.getByText('You can change or cancel online until')).toHaveCount(0);
    } finally {
      // Other specs expect the demo company's default.
      await page.request.put(`/api/companies/${company.id}`, {
        headers: { authorization: `Bearer ${owner}` },
        data: { cancellation_notice_hours: 0 },
      });
    }
  });

  test("with no other time free, the reschedule picker names the company's booking window, not 30 days", async ({ page }) => {
    const { company, emma, date, link } = await bookFirstFree(page.request, {
      name: 'Wes Window',
      emailPrefix: 'window',
      phone: '+1 646 555 0142',
    });

    // The window ends on the booked day, and Emma is off every day of it: nothing else to offer.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      new Date(),
    );
    const days = Math.round((Date.parse(`${date}T12:00:00Z`) - Date.parse(`${today}T12:00:00Z`)) / 86_400_000) + 1;
    const owner = await (await page.request.post('/api/login', { data: { email: DEMO.owner, password: DEMO.password } })).json();
    const auth = { authorization: `Bearer ${owner.token as string}` };
    const overrideIds: number[] = [];
    try {
      const set = await page.request.put(`/api/companies/${company.id}`, { headers: auth, data: { booking_window_days: days } });
      expect(set.status()).toBe(200);
      for (let i = 0; i < days; i++) {
        const day = new Date(Date.parse(`${today}T12:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10);
        const res = await page.request.post('/api/date-overrides', {
          headers: auth,
          data: { company_id: company.id, user_id: emma, date: day, is_closed: true },
        });
        expect(res.status()).toBe(201);
        overrideIds.push(((await res.json()) as { id: number }).id);
      }
      const seen = await get<{ booking_window_days: number }>(page.request, `/manage/${link.slice(link.lastIndexOf('/') + 1)}`);
      expect(seen.body.booking_window_days).toBe(days);

      await page.goto(link);
      await page.getByRole('button', { name: 'Reschedule' }).click();
      const expected = days === 1 ? 'No other times are available today.' : `No other times are available in the next ${days} days.`;
      await expect(page.getByText(expected)).toBeVisible();
      await expect(page.getByText('in the next 30 days')).toHaveCount(0);
      await shootAllSizes(page, 'manage-no-dates');
    } finally {
      for (const id of overrideIds) await page.request.delete(`/api/date-overrides/${id}`, { headers: auth });
      await page.request.put(`/api/companies/${company.id}`, { headers: auth, data: { booking_window_days: 30 } });
      await page.request.post(`/api/manage/${link.slice(link.lastIndexOf('/') + 1)}/cancel`);
    }
  });
});
