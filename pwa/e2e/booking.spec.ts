// The public booking page (issue 6, docs/product/02-screens.md, 04-states.md, 05-validation.md and 08-errors.md; docs/decisions/04-customers-and-anonymous-booking.md and 05-scheduling-rules.md)
// against the real server: an anonymous visitor on a phone books through to the confirmation
// email in the SMTP inbox, a signed-in customer books, an anonymous booker becomes a customer and
// finds the booking in their calendar, Cancel back to the page before (another website too), the
// not-found company, the dates on offer (no closed days, no full days), the 409 race with a
// second browser, screenshots and axe.
//
// Every test reads what it needs from the server at run time (free dates and slots, ids) and uses
// its own email addresses, so it does not depend on run order or on other specs.
import { expect, test, type APIRequestContext, type Browser, type Page, type Request } from '@playwright/test';
import { expectNoSeriousAxe } from './support/axe.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { shootAllSizes, SIZES } from './support/screens.ts';
import { apiToken, DEMO, openWithToken } from './support/session.ts';
import { MAIL_URL, linkIn, waitForMail, type Mail } from './support/mail.ts';

const SLUG = 'demo';
const COMPANY_NAME = 'Demo Studio';
const COMPANY_EMAIL = 'hello@demo.test';
const ZONE = 'America/New_York';
const SLOT_TAKEN = 'Sorry, that time was just booked by someone else. Please choose another time.';

interface Company {
  id: number;
  name: string;
  slug: string;
  timezone: string;
  enable_employee_booking: boolean;
}
interface Service {
  id: number;
  name: string;
  duration_minutes: number;
  price: number | null;
  hide_price: boolean;
  available_slots: number | null;
}
interface Slot {
  value: string;
  label: string;
  start: string;
  end: string;
}
interface Appointment {
  id: number;
  user_id: number | null;
  employee_id: number | null;
  start_time: string;
  end_time: string;
  description: string | null;
  status: 'booked' | 'cancelled';
  service_types: { id: number; name: string }[];
  customer_name: string | null;
  customer_email?: string | null;
  employee_name: string | null;
  booking_contact?: { name: string | null; email: string | null; phone: string | null } | null;
}
interface BookingBody {
  company_id: number;
  user_id?: number;
  employee_id?: number;
  service_type_ids: number[];
  start_time: string;
  end_time: string;
  description: string;
  customer: { name: string; email: string; phone: string };
}

// ---------- server helpers ----------

async function api<T>(request: APIRequestContext, token: string | null, method: string, path: string, data?: unknown) {
  const res = await request.fetch(`/api${path}`, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(data === undefined ? {} : { data }),
  });
  const text = await res.text();
  return { status: res.status(), body: (text ? JSON.parse(text) : null) as T };
}

async function demoCompany(request: APIRequestContext): Promise<Company> {
  const res = await api<Company>(request, null, 'GET', `/companies/slug/${SLUG}`);
  expect(res.status).toBe(200);
  return res.body;
}

async function serviceNamed(request: APIRequestContext, companyId: number, name: string): Promise<Service> {
  const res = await api<Service[]>(request, null, 'GET', `/service-types?company_id=${companyId}`);
  const found = res.body.find((s) => s.name === name);
  if (!found) throw new Error(`no service ${name}`);
  return found;
}

async function employeeNamed(request: APIRequestContext, companyId: number, name: string): Promise<number> {
  const res = await api<{ id: number; name: string }[]>(request, null, 'GET', `/employees?company_id=${companyId}`);
  const found = res.body.find((e) => e.name === name);
  if (!found) throw new Error(`no employee ${name}`);
  return found.id;
}

async function serverDates(request: APIRequestContext, q: { company: number; service: number; employee?: number }) {
  const emp = q.employee ? `&employee_id=${q.employee}` : '';
  const res = await api<{ dates: string[] }>(
    request,
    null,
    'GET',
    `/appointments/available-dates?company_id=${q.company}&service_type_id=${q.service}${emp}`,
  );
  expect(res.status).toBe(200);
  return res.body.dates;
}

async function serverSlots(request: APIRequestContext, q: { company: number; service: number; employee?: number; date: string }) {
  const emp = q.employee ? `&employee_id=${q.employee}` : '';
  const res = await api<{ slots: Slot[] }>(
    request,
    null,
    'GET',
    `/appointments/available-slots?company_id=${q.company}&service_type_id=${q.service}&date=${q.date}${emp}`,
  );
  expect(res.status).toBe(200);
  return res.body.slots;
}

async function appointmentsOn(request: APIRequestContext, token: string, date: string) {
  const res = await api<Appointment[]>(request, token, 'GET', `/appointments?start_date=${date}&end_date=${date}`);
  expect(res.status).toBe(200);
  return res.body;
}

let serial = 0;
function uniqueEmail(tag: string): string {
  serial += 1;
  return `${tag}-${Date.now().toString(36)}-${serial}-${Math.random().toString(36).slice(2, 7)}@example.org`;
}

// ---------- mail helpers (raw MIME, so base64 attachments stay intact) ----------

interface MimePart {
  contentType: string;
  headers: string;
  body: string;
}

function decodeQp(s: string): string {
  const bytes: number[] = [];
  const text = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The leaf parts of a MIME message, bodies decoded. */
function mimeParts(raw: string): MimePart[] {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1]!);
  if (boundaries.length === 0) return [];
  const escaped = boundaries.map((b) => b.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const chunks = raw.split(new RegExp(`\\r?\\n--(?:${escaped.join('|')})(?:--)?[ \\t]*(?=\\r?\\n|$)`));
  const parts: MimePart[] = [];
  for (const chunk of chunks.slice(1)) {
    const split = /\r?\n\r?\n/.exec(chunk);
    if (!split) continue;
    const headers = chunk.slice(0, split.index).replace(/\r?\n[ \t]+/g, ' ');
    const contentType = /^content-type:\s*([^\r\n]+)/im.exec(headers)?.[1]?.trim() ?? '';
    if (!contentType || /^multipart\//i.test(contentType)) continue;
    const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase() ?? '7bit';
    const rawBody = chunk.slice(split.index + split[0].length);
    const body =
      encoding === 'base64'
        ? Buffer.from(rawBody.replace(/\s+/g, ''), 'base64').toString('utf8')
        : encoding === 'quoted-printable'
          ? decodeQp(rawBody)
          : rawBody;
    parts.push({ contentType, headers, body });
  }
  return parts;
}

async function waitForRawMail(to: string, pred: (raw: string) => boolean, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const list = (await (await fetch(`${MAIL_URL}?to=${encodeURIComponent(to)}`)).json()) as Mail[];
    const found = list
      .map((m) => m.raw)
      .reverse()
      .find(pred);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no email for ${to} within ${timeoutMs} ms`);
}

// ---------- what people read ----------

/** '09:30' -> '9:30 AM', as the slot labels and the emails write a time. */
function twelveHour(value: string): string {
  const [h, m] = value.split(':').map(Number) as [number, number];
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/** '2026-11-24' + '09:30' -> 'Tuesday, 24 November 2026 at 9:30 AM (America/New_York)'. */
function emailWhen(date: string, value: string, zone: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  const weekday = day.toLocaleDateString('en-US', { timeZone: 'UTC', weekday: 'long' });
  const month = day.toLocaleDateString('en-US', { timeZone: 'UTC', month: 'long' });
  return `${weekday}, ${day.getUTCDate()} ${month} ${day.getUTCFullYear()} at ${twelveHour(value)} (${zone})`;
}

/** '2026-11-24' -> 'Tuesday, November 24, 2026', as the page writes a day. */
function longDate(date: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(
    new Date(`${date}T00:00:00Z`),
  );
}

function weekdayOf(date: string): number {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

const spaces = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ').trim();

// ---------- the page ----------

function form(page: Page) {
  const name = page.getByLabel('Full Name');
  const email = page.getByLabel('Email Address');
  const phone = page.getByLabel('Phone Number');
  return {
    name,
    email,
    phone,
    /** Types the booker's name, email and phone. */
    contact: async (who: { name: string; email: string; phone: string }) => {
      await name.fill(who.name);
      await email.fill(who.email);
      await phone.fill(who.phone);
    },
    employee: page.getByLabel('Team Member'),
    time: page.getByLabel('Time', { exact: true }),
    notes: page.getByLabel('Additional Notes'),
    submit: page.getByRole('button', { name: 'Book Appointment' }),
    service: (name: string) => page.getByRole('radio', { name: new RegExp(`^${name}\\b`) }),
    dateChip: (date: string) => page.locator(`label[for="bk-date-${date}"]`),
    dateInput: (date: string) => page.locator(`#bk-date-${date}`),
  };
}

async function offeredDates(page: Page): Promise<string[]> {
  await expect(page.locator('input[name="date"]').first()).toBeAttached();
  return page.locator('input[name="date"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
}

async function offeredTimes(page: Page): Promise<{ value: string; label: string }[]> {
  return page
    .getByLabel('Time', { exact: true })
    .locator('option')
    .evaluateAll((els) => els.map((e) => ({ value: (e as HTMLOptionElement).value, label: e.textContent ?? '' })).filter((o) => o.value));
}

/** Waits until the time select offers exactly the server's slots of that day. */
async function expectTimesMatchServer(page: Page, slots: Slot[]) {
  await expect(form(page).time).toBeEnabled();
  await expect.poll(async () => (await offeredTimes(page)).map((o) => o.value)).toEqual(slots.map((s) => s.value));
  const offered = await offeredTimes(page);
  expect(offered.map((o) => spaces(o.label))).toEqual(slots.map((s) => spaces(s.label)));
}

async function openBookingPage(page: Page) {
  await page.goto(`/public/booking/${SLUG}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Book Appointment' })).toBeVisible();
  await expect(page.locator('.booking-company-name')).toHaveText(COMPANY_NAME);
}

/** Captures the body of the booking POST the page sends (and its answer). */
function watchBookings(page: Page) {
  const sent: BookingBody[] = [];
  const answers: Promise<{ status: number; body: unknown }>[] = [];
  page.on('request', (req: Request) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/appointments') sent.push(req.postDataJSON() as BookingBody);
  });
  page.on('response', (res) => {
    if (res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/appointments') {
      answers.push(
        res
          .json()
          .catch(() => null)
          .then((body: unknown) => ({ status: res.status(), body })),
      );
    }
  });
  /** The server's answer to the i-th booking POST. */
  const answer = async (i: number) => {
    await expect.poll(() => answers.length).toBeGreaterThan(i);
    return answers[i]!;
  };
  return { sent, answer };
}

/** Checks the dates offered are the server's and picks the first (after today). */
async function pickDate(
  page: Page,
  request: APIRequestContext,
  q: { company: number; service: number; employee?: number },
  /** 'first' (after today), or a given day. */
  which: string = 'first',
) {
  const dates = await serverDates(request, q);
  expect(dates.length, 'the demo company has free dates in the next 30 days').toBeGreaterThan(0);
  await expect.poll(() => offeredDates(page)).toEqual(dates);
  // Not today when avoidable: today's slots run out as the clock moves on.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const date = which === 'first' ? (dates.find((d) => d !== today) ?? dates[0]!) : which;
  expect(dates).toContain(date);
  await form(page).dateChip(date).click();
  await expect(form(page).dateInput(date)).toBeChecked();
  const slots = await serverSlots(request, { ...q, date });
  expect(slots.length).toBeGreaterThan(0);
  await expectTimesMatchServer(page, slots);
  return { date, slots };
}

async function book(
  request: APIRequestContext,
  token: string | null,
  body: Omit<BookingBody, 'end_time' | 'description'> & { description?: string },
) {
  return api<Appointment & { error?: string; code?: string }>(request, token, 'POST', '/appointments', body);
}

// ---------- tests ----------

test.describe('anonymous visitor on a phone', () => {
  test.use({ viewport: SIZES.phone });

  test('a phone number the server cannot read: its message under Phone Number, in view, and focus there', async ({ page }) => {
    const company = await demoCompany(page.request);
    const haircut = await serviceNamed(page.request, company.id, 'Haircut');
    const emma = await employeeNamed(page.request, company.id, 'Emma Stylist');
    const watched = watchBookings(page);
    await openBookingPage(page);
    const f = form(page);
    // A British number in a US company: possible nowhere as dialled in the US.
    await f.contact({ name: 'Pat Abroad', email: uniqueEmail('abroad'), phone: '020 7946 0958' });
    await f.service('Haircut').check();
    await f.employee.selectOption({ label: 'Emma Stylist' });
    const { slots } = await pickDate(page, page.request, { company: company.id, service: haircut.id, employee: emma });
    await f.time.selectOption(slots[0]!.value);
    await f.submit.click();

    const answer = await watched.answer(0);
    expect(answer.status).toBe(400);
    // The API names the field (docs/decisions/10-reminders-and-sms.md); the form says it beside the field instead.
    expect(answer.body).toMatchObject({ error: expect.stringMatching(/^customer\.phone is not a possible phone number/) });
    await expect(f.phone).toBeFocused();
    await expect(f.phone).toHaveAttribute('aria-invalid', 'true');
    await expect(f.phone).toHaveAccessibleDescription(
      'Not a possible phone number: write it as dialled in US, or with + and the country code',
    );
    await expect(page.getByText('not a possible phone number', { exact: false })).toHaveCount(1);
    // Shown, not under the sticky header: the topmost element at the message's centre is the message.
    const error = page.locator('.field-error', { hasText: 'Not a possible phone number' });
    await expect(error).toBeInViewport({ ratio: 1 });
    expect(
      await error.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
      }),
    ).toBe(true);
  });

  test('books from the slug page through to the confirmation email and the appointment on the server', async ({ page }) => {
    const company = await demoCompany(page.request);
    expect(company.timezone).toBe(ZONE);
    const haircut = await serviceNamed(page.request, company.id, 'Haircut');
    const emma = await employeeNamed(page.request, company.id, 'Emma Stylist');
    // A long address with nowhere to break, as some are: the confirmation below must wrap it inside its card.
    const who = {
      name: `Riley Phone ${Date.now().toString(36)}`,
      email: `rileyphonebookerwithalongmailbox${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.org`,
      phone: '+1 646 555 0142',
    };
    const notes = 'First visit, please use the side entrance.';
    const watched = watchBookings(page);

    // Loading... while the company is on its way.
    let releaseCompany!: () => void;
    const companyHeld = new Promise<void>((r) => (releaseCompany = r));
    await page.route(`**/api/companies/slug/${SLUG}`, async (route) => {
      await companyHeld;
      await route.continue();
    });
    await page.goto(`/public/booking/${SLUG}`);
    await expect(page.getByText('Loading...')).toBeVisible();
    releaseCompany();
    await expect(page.getByRole('heading', { level: 1, name: 'Book Appointment' })).toBeVisible();
    await expect(page.locator('.booking-company-name')).toHaveText(COMPANY_NAME);
    await page.unroute(`**/api/companies/slug/${SLUG}`);

    const f = form(page);
    await expect(page.getByRole('group', { name: 'Personal Information' })).toBeVisible();
    await expect(f.name).toBeEnabled();
    await expect(f.email).toBeEnabled();
    await f.contact(who);

    // Services: a radio list with duration and price (hidden for Consultation, which hides it).
    await expect(page.locator('label.choice', { hasText: 'Haircut' })).toContainText('30 min');
    await expect(page.locator('label.choice', { hasText: 'Haircut' })).toContainText('$35.00');
    await expect(page.locator('label.choice', { hasText: 'Consultation' })).not.toContainText('$');
    await f.service('Haircut').check();
    await expect(page.getByText('Choose a team member to see available dates.')).toBeVisible();
    await f.employee.selectOption({ label: 'Emma Stylist' });

    const { date, slots } = await pickDate(page, page.request, { company: company.id, service: haircut.id, employee: emma });
    const slot = slots[0]!;
    await f.time.selectOption(slot.value);
    await f.notes.fill(notes);

    // Booking... while the request is out.
    let releaseBooking!: () => void;
    const bookingHeld = new Promise<void>((r) => (releaseBooking = r));
    await page.route('**/api/appointments', async (route) => {
      if (route.request().method() === 'POST') await bookingHeld;
      await route.continue();
    });
    await f.submit.click();
    await expect(page.getByRole('button', { name: 'Booking...' })).toBeDisabled();
    releaseBooking();

    // The anonymous success panel: booked, and an invitation to Log In or Sign Up.
    const panel = page.locator('.booking-done');
    await expect(panel.getByRole('heading', { name: 'Your appointment is booked!' })).toBeVisible();
    await expect(panel).toContainText(who.email);
    expect(await panel.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await expect(panel.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    await expect(panel.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', `/register?company=${SLUG}`);

    // What was sent: the typed contact details, the chosen employee, service and slot, no user_id.
    expect(watched.sent).toHaveLength(1);
    const sent = watched.sent[0]!;
    expect(sent.customer).toEqual(who);
    expect(sent.company_id).toBe(company.id);
    expect(sent.employee_id).toBe(emma);
    expect(sent.service_type_ids).toEqual([haircut.id]);
    expect(new Date(sent.start_time).toISOString()).toBe(slot.start);
    expect(sent.description).toBe(notes);
    expect(sent).not.toHaveProperty('user_id');
    const answer = await watched.answer(0);
    expect(answer.status).toBe(201);

    // The appointment on the server, under the typed name.
    const owner = await apiToken(page, DEMO.owner);
    const created = (await appointmentsOn(page.request, owner, date)).find((a) => a.id === (answer.body as Appointment).id);
    expect(created).toBeDefined();
    expect(created).toMatchObject({
      customer_name: who.name,
      customer_email: who.email,
      employee_id: emma,
      employee_name: 'Emma Stylist',
      start_time: slot.start,
      end_time: new Date(Date.parse(slot.start) + haircut.duration_minutes * 60_000).toISOString(),
      description: notes,
      status: 'booked',
      service_types: [{ id: haircut.id, name: 'Haircut' }],
    });
    expect(created!.booking_contact).toEqual({ ...who, phone: '+16465550142' }); // stored in E.164

    // The confirmation email at the SMTP inbox.
    const raw = await waitForRawMail(who.email, (m) => /^Subject: Booking confirmed/m.test(m));
    expect(raw).toMatch(/^Subject: Booking confirmed: Haircut at Demo Studio$/m);
    const parts = mimeParts(raw);
    const text = parts.find((p) => /^text\/plain/i.test(p.contentType))?.body ?? '';
    expect(text).toContain(`Hello ${who.name},`);
    expect(text).toContain(`Your appointment at ${COMPANY_NAME} is booked.`);
    expect(text).toContain('What: Haircut');
    expect(text).toContain(`When: ${emailWhen(date, slot.value, ZONE)}`);
    expect(text).toContain('With: Emma Stylist');
    expect(text).toContain(`Notes: ${notes}`);
    expect(text).toContain(`contact ${COMPANY_NAME} at ${COMPANY_EMAIL}`);
    const ics = parts.find((p) => /^text\/calendar/i.test(p.contentType));
    expect(ics, 'an .ics attachment').toBeDefined();
    expect(ics!.contentType).toMatch(/method=REQUEST/i);
    expect(ics!.headers).toMatch(/filename="?[^"\s;]+\.ics/i);
    const cal = ics!.body.replace(/\r?\n[ \t]/g, '');
    expect(cal).toMatch(/^METHOD:REQUEST\r?$/m);
    expect(cal).toMatch(new RegExp(`^DTSTART:${slot.start.replace(/[-:]/g, '').replace('.000', '')}\\r?$`, 'm'));
    expect(cal).toContain(`SUMMARY:Haircut at ${COMPANY_NAME}`);
    expect(cal).toMatch(/^ORGANIZER;CN="?Demo Studio"?:mailto:hello@demo\.test\r?$/im);

    // No thanks, finish: the thank-you page.
    await page.getByRole('button', { name: 'No thanks, finish' }).click();
    await expect(page).toHaveURL(/\/appointment-success$/);
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await expect(page.locator('.confirm-summary')).toContainText(COMPANY_NAME);
    await expect(page.locator('.confirm-summary')).toContainText('Haircut');
    await expect(page.locator('.confirm-summary')).toContainText(`${longDate(date)} at ${slot.label}`);
    // The visitor just declined an account: the page does not offer it again.
    await expect(page.getByRole('link', { name: 'Sign Up' })).toHaveCount(0);
    await expect(page.getByText('Create an account to see, change or cancel your appointments.')).toHaveCount(0);
    // Without an account, the dashboard is a sign-in page: the page says what a guest has instead.
    await expect(page.getByText('The link in that email lets you change or cancel it, no account needed.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Book another appointment' })).toHaveAttribute('href', `/public/booking/${SLUG}`);
  });
});

test('a signed-in customer books with their account: name and email prefilled and disabled, then the thank-you page', async ({ page }) => {
  const company = await demoCompany(page.request);
  const haircut = await serviceNamed(page.request, company.id, 'Haircut');
  const noah = await employeeNamed(page.request, company.id, 'Noah Barber');
  const customerToken = await apiToken(page, DEMO.customer);
  const me = (await api<{ id: number; name: string; email: string; phone: string | null }>(page.request, customerToken, 'GET', '/me')).body;
  const watched = watchBookings(page);

  // From their calendar's Book button; Cancel goes back one page.
  await openWithToken(page, customerToken, '/calendar');
  await page.getByRole('link', { name: 'Book an Appointment' }).click();
  await expect(page).toHaveURL(new RegExp(`/public/booking/${SLUG}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Book Appointment' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/calendar(\?.*)?$/);
  await page.getByRole('link', { name: 'Book an Appointment' }).click();

  const f = form(page);
  await expect(f.name).toHaveValue(me.name);
  await expect(f.name).toBeDisabled();
  await expect(f.email).toHaveValue(me.email);
  await expect(f.email).toBeDisabled();
  await expect(f.phone).toHaveValue(me.phone ?? '');
  if (!me.phone) await f.phone.fill('+1 212 555 0100');

  await f.service('Haircut').check();
  await f.employee.selectOption({ label: 'Noah Barber' });
  const { date, slots } = await pickDate(page, page.request, { company: company.id, service: haircut.id, employee: noah });
  // Noah works weekday afternoons only (his own hours bound the company's).
  expect(weekdayOf(date)).toBeLessThanOrEqual(5);
  for (const s of slots) expect(s.value >= '12:00').toBe(true);
  const slot = slots[slots.length - 1]!;
  await f.time.selectOption(slot.value);
  await f.submit.click();

  await expect(page.getByRole('status').filter({ hasText: 'Appointment created successfully!' })).toBeVisible();
  await expect(page).toHaveURL(/\/appointment-success$/, { timeout: 5_000 });
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  await expect(page.locator('.confirm-summary')).toContainText('Noah Barber');
  // Signed in: no sign-up invitation.
  await expect(page.getByRole('link', { name: 'Sign Up' })).toHaveCount(0);

  expect(watched.sent).toHaveLength(1);
  expect(watched.sent[0]).toMatchObject({ user_id: me.id, employee_id: noah, customer: { name: me.name, email: me.email } });
  const id = ((await watched.answer(0)).body as Appointment).id;
  const owner = await apiToken(page, DEMO.owner);
  const created = (await appointmentsOn(page.request, owner, date)).find((a) => a.id === id);
  expect(created).toMatchObject({ user_id: me.id, customer_name: me.name, employee_id: noah, start_time: slot.start, status: 'booked' });
  // And it is in the customer's own list.
  const mine = await api<Appointment[]>(page.request, customerToken, 'GET', '/appointments');
  expect(mine.body.map((a) => a.id)).toContain(id);
  await waitForMail(
    me.email,
    (b) => b.includes('Booking confirmed: Haircut at Demo Studio') && b.includes(emailWhen(date, slot.value, ZONE)),
  );
});

test('an anonymous booker signs up from the success panel and sees the booking in their calendar', async ({ page }) => {
  const company = await demoCompany(page.request);
  const beard = await serviceNamed(page.request, company.id, 'Beard Trim');
  const ava = await employeeNamed(page.request, company.id, 'Ava Coach');
  const who = { name: `Sam Signup ${Date.now().toString(36)}`, email: uniqueEmail('signup-booker'), phone: '+1 917 555 0177' };
  const password = 'fresh-pass-42';
  const watched = watchBookings(page);

  await openBookingPage(page);
  const f = form(page);
  await f.contact(who);
  await f.service('Beard Trim').check();
  await f.employee.selectOption({ label: 'Ava Coach' });
  const { date, slots } = await pickDate(page, page.request, { company: company.id, service: beard.id, employee: ava });
  await f.time.selectOption(slots[0]!.value);
  await f.submit.click();
  await expect(page.getByRole('heading', { name: 'Your appointment is booked!' })).toBeVisible();
  const bookingId = ((await watched.answer(0)).body as Appointment).id;

  // Sign Up: the customer sign-up of this company, without a company name.
  await page.getByRole('link', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(new RegExp(`/register\\?company=${SLUG}$`));
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.getByText(`Sign up as a customer of ${COMPANY_NAME}`)).toBeVisible();
  await expect(page.getByLabel('Company name')).toHaveCount(0);
  // The name and email just typed are filled in already (carried in the history state, not the address).
  await expect(page.getByLabel('Full name')).toHaveValue(who.name);
  await expect(page.getByLabel('Email address')).toHaveValue(who.email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  const registered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/register'));
  await page.getByRole('button', { name: 'Create account' }).click();
  const answer = await registered;
  expect(answer.request().postDataJSON()).toEqual({ name: who.name, email: who.email, password, role: 'customer', company_slug: SLUG });

  // The booking created a password-less customer with this email, so (docs/decisions/04-customers-and-anonymous-booking.md) the
  // server does not set the password: 202 and a set-password email.
  expect(answer.status()).toBe(202);
  const message = ((await answer.json()) as { message: string }).message;
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await expect(page.getByText(message)).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  // The password typed here was not set.
  expect((await page.request.post('/api/login', { data: { email: who.email, password } })).status()).toBe(400);

  const mail = await waitForMail(who.email, (b) => b.includes('/reset-password?token='));
  expect(mail).toMatch(/^Subject: Set your password for Demo Studio$/m);
  const link = new URL(linkIn(mail, /https?:\/\/[^\s"'<>]+\/reset-password\?token=[^\s"'<>]+/));
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  await expect(page).not.toHaveURL(/token=/);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'Redirecting to login' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 5_000 });

  await page.getByLabel('Email address').fill(who.email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/calendar(\?.*)?$/);
  await expect(page.getByRole('heading', { name: 'Your appointments' })).toBeVisible();
  await expect(page.getByText(`at ${COMPANY_NAME}`)).toBeVisible();
  const row = page.locator(`.customer-appt[data-appointment-id="${bookingId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText('Beard Trim');
  await expect(row).toContainText('with Ava Coach');
  await expect(row).toContainText(longDate(date));
  // Their list on the server is that one booking.
  const token = (await page.evaluate(() => localStorage.getItem('token')))!;
  const mine = await api<Appointment[]>(page.request, token, 'GET', '/appointments');
  expect(mine.body.map((a) => a.id)).toEqual([bookingId]);
  expect(mine.body[0]!.start_time).toBe(slots[0]!.start);
});

test('Book clicked three times in the same instant books once', async ({ page }) => {
  const company = await demoCompany(page.request);
  const haircut = await serviceNamed(page.request, company.id, 'Haircut');
  const emma = await employeeNamed(page.request, company.id, 'Emma Stylist');
  const who = { name: `Tia Triple ${Date.now().toString(36)}`, email: uniqueEmail('triple'), phone: '+1 212 555 0133' };
  const watched = watchBookings(page);

  await openBookingPage(page);
  const f = form(page);
  await f.contact(who);
  await f.service('Haircut').check();
  await f.employee.selectOption({ label: 'Emma Stylist' });
  // The last day offered, out of the way of the other tests' first days.
  const q = { company: company.id, service: haircut.id, employee: emma };
  const { slots } = await pickDate(page, page.request, q, [...(await serverDates(page.request, q))].pop()!);
  await f.time.selectOption(slots[0]!.value);
  // Three clicks before React can disable the button (a jittery tap, an impatient mouse).
  await f.submit.evaluate((button: HTMLButtonElement) => {
    button.click();
    button.click();
    button.click();
  });
  await expect(page.getByRole('heading', { name: 'Your appointment is booked!' })).toBeVisible();
  expect((await watched.answer(0)).status).toBe(201);
  await page.waitForLoadState('networkidle');
  expect(watched.sent).toHaveLength(1);
});

test('Cancel goes back one page, also to another website; in a fresh tab to the landing page', async ({ page, baseURL }) => {
  // The business's own website, on another origin, links to its booking page.
  const site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>Demo Studio website</title><h1>Welcome to Demo Studio</h1><a href="${baseURL}/public/booking/${SLUG}">Book online</a> <a href="${baseURL}/public/booking/${SLUG}" target="_blank">Book in a new tab</a>`,
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  await page.goto(siteUrl);
  await page.getByRole('link', { name: 'Book online', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Book Appointment' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(siteUrl);
  await expect(page.getByRole('heading', { name: 'Welcome to Demo Studio' })).toBeVisible();

  // Opened in a new tab (the website's second link, like a link in an email): nothing to go back to.
  await page.goto(siteUrl);
  const [fresh] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: 'Book in a new tab' }).click()]);
  await expect(fresh.getByRole('heading', { level: 1, name: 'Book Appointment' })).toBeVisible();
  expect(await fresh.evaluate(() => history.length)).toBe(1);
  await fresh.getByRole('button', { name: 'Cancel' }).click();
  await expect(fresh).toHaveURL(/\/$/);
  await expect(fresh.getByRole('link', { name: 'Start Free Trial' }).first()).toBeVisible();
  await fresh.close();
  await new Promise((resolve) => site.close(resolve));
});

test('an unknown company: Company not found with Go Home', async ({ page }) => {
  for (const path of ['/public/booking/no-such-company', '/book-appointment/987654', '/book-appointment/not-a-number']) {
    await page.goto(path);
    await expect(page.getByRole('alert').filter({ hasText: 'Company not found' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Book Appointment' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
  }
  await page.goto('/public/booking/no-such-company');
  await expect(page.getByText('Company not found')).toBeVisible();
  await shootAllSizes(page, 'booking-not-found');
  await page.getByRole('link', { name: 'Go Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Start Free Trial' }).first()).toBeVisible();
});

test('the date picker offers only the dates with free slots: no closed Sundays, and a day made full disappears', async ({ page }) => {
  const company = await demoCompany(page.request);
  const owner = await apiToken(page, DEMO.owner);
  const emma = await employeeNamed(page.request, company.id, 'Emma Stylist');
  const customers = await api<{ id: number; email: string }[]>(page.request, owner, 'GET', '/users?role=customer');
  const casey = customers.body.find((u) => u.email === DEMO.customer)!;

  // A one-at-a-time service of our own (archived again at the end).
  const created = await api<{ service_type: Service }>(page.request, owner, 'POST', '/service-types', {
    company_id: company.id,
    name: `Private Session ${Date.now().toString(36)}`,
    duration_minutes: 60,
    price: 50,
    hide_price: false,
    available_slots: 1,
  });
  expect(created.status).toBe(201);
  const service = created.body.service_type;
  const filled: number[] = [];
  try {
    await openBookingPage(page);
    const f = form(page);
    await f.name.fill('Dana Dates');
    await f.email.fill(uniqueEmail('dates'));
    await f.phone.fill('+1 212 555 0123');
    await expect(page.getByText('Choose a service to see available dates.')).toBeVisible();
    await f.service(service.name).check();
    await f.employee.selectOption({ label: 'Emma Stylist' });

    const dates = await serverDates(page.request, { company: company.id, service: service.id, employee: emma });
    await expect.poll(() => offeredDates(page)).toEqual(dates);
    // Open days of the next 30 company-local days, never a Sunday (closed).
    expect(dates.length).toBeGreaterThanOrEqual(20);
    expect(dates.filter((d) => weekdayOf(d) === 7)).toEqual([]);
    const first = new Date(`${dates[0]}T00:00:00Z`).getTime();
    for (let t = first; t <= first + 29 * 86_400_000; t += 86_400_000) {
      const d = new Date(t).toISOString().slice(0, 10);
      if (weekdayOf(d) === 7) await expect(f.dateInput(d)).toHaveCount(0);
    }
    expect(Date.parse(`${dates[dates.length - 1]}T00:00:00Z`) - first).toBeLessThanOrEqual(30 * 86_400_000);

    // Book without a date: 'Please select an available date.'
    await f.submit.click();
    await expect(page.getByText('Please select an available date.')).toBeVisible();

    // Picking a date clears the chosen time.
    const [d1, d2] = [dates[dates.length - 2]!, dates[dates.length - 1]!];
    await f.dateChip(d1).click();
    await expect(page.getByText('Please select an available date.')).toHaveCount(0);
    await expectTimesMatchServer(
      page,
      await serverSlots(page.request, { company: company.id, service: service.id, employee: emma, date: d1 }),
    );
    await f.time.selectOption({ index: 1 });
    await f.dateChip(d2).click();
    await expect(f.time).toHaveValue('');

    // Make d2 full: book every slot of the one-at-a-time service through the API.
    for (let i = 0; i < 24; i++) {
      const free = await serverSlots(page.request, { company: company.id, service: service.id, date: d2 });
      if (free.length === 0) break;
      const res = await api<Appointment>(page.request, owner, 'POST', '/appointments', {
        company_id: company.id,
        user_id: casey.id,
        service_type_ids: [service.id],
        start_time: free[0]!.start,
        end_time: free[0]!.end,
        description: 'Filling the day (e2e)',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      filled.push(res.body.id);
    }
    expect(filled.length).toBeGreaterThan(0);
    expect(await serverSlots(page.request, { company: company.id, service: service.id, date: d2 })).toEqual([]);
    const after = await serverDates(page.request, { company: company.id, service: service.id, employee: emma });
    expect(after).not.toContain(d2);
    expect(after).toContain(d1);

    // Fresh choices: another team member's dates come from the server, and d2 is gone, so the
    // chosen date is cleared (a date no longer offered).
    await f.employee.selectOption({ label: 'Ava Coach' });
    await expect(f.dateInput(d1)).toBeAttached();
    await expect(f.dateInput(d2)).toHaveCount(0);
    await expect(page.locator('input[name="date"]:checked')).toHaveCount(0);
    await expect(f.time).toHaveValue('');

    // Reloaded, the page never offers the full day.
    await page.reload();
    await f.service(service.name).check();
    await f.employee.selectOption({ label: 'Emma Stylist' });
    await expect.poll(() => offeredDates(page)).toEqual(after);
    await expect(f.dateInput(d2)).toHaveCount(0);
  } finally {
    for (const id of filled) await api(page.request, owner, 'DELETE', `/appointments/${id}`);
    await api(page.request, owner, 'DELETE', `/service-types/${service.id}`);
  }
});

async function secondBrowserTakes(
  browser: Browser,
  baseURL: string,
  slot: { company: number; service: number; employee: number; date: string; start: string },
) {
  // Another visitor in another browser books the same time, until the time is no longer offered
  // (a service with room for several at once takes several bookings).
  const context = await browser.newContext({ baseURL });
  const taken: number[] = [];
  try {
    for (let i = 0; i < 10; i++) {
      const free = await serverSlots(context.request, slot);
      if (!free.some((s) => s.start === slot.start)) break;
      const res = await book(context.request, null, {
        company_id: slot.company,
        service_type_ids: [slot.service],
        employee_id: slot.employee,
        start_time: slot.start,
        customer: { name: `Quick Other ${i}`, email: uniqueEmail('race-other'), phone: '+1 212 555 0111' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      taken.push(res.body.id);
    }
  } finally {
    await context.close();
  }
  return taken;
}

test('the 409 race: a second browser takes the chosen time first, the customer is told and sees the fresh times', async ({
  page,
  browser,
  baseURL,
}) => {
  const company = await demoCompany(page.request);
  const colour = await serviceNamed(page.request, company.id, 'Colour & Style');
  const emma = await employeeNamed(page.request, company.id, 'Emma Stylist');
  const who = { name: `Rae Race ${Date.now().toString(36)}`, email: uniqueEmail('race'), phone: '+1 212 555 0166' };
  const watched = watchBookings(page);

  await openBookingPage(page);
  const f = form(page);
  await f.contact(who);
  await f.service('Colour & Style').check();
  await f.employee.selectOption({ label: 'Emma Stylist' });
  // A day with plenty of free times (the latest such), so that once one is taken the day itself
  // stays on offer and other times remain.
  const q = { company: company.id, service: colour.id, employee: emma };
  let roomy: string | null = null;
  for (const d of [...(await serverDates(page.request, q))].reverse()) {
    if ((await serverSlots(page.request, { ...q, date: d })).length >= 5) {
      roomy = d;
      break;
    }
  }
  expect(roomy, 'a day with at least 5 free times for Colour & Style with Emma').not.toBeNull();
  const { date, slots } = await pickDate(page, page.request, q, roomy!);
  const chosen = slots[0]!;
  await f.time.selectOption(chosen.value);

  const taken = await secondBrowserTakes(browser, baseURL!, {
    company: company.id,
    service: colour.id,
    employee: emma,
    date,
    start: chosen.start,
  });
  expect(taken.length).toBeGreaterThan(0);
  const fresh = await serverSlots(page.request, { company: company.id, service: colour.id, employee: emma, date });
  expect(fresh.map((s) => s.start)).not.toContain(chosen.start);

  await f.submit.click();
  await expect(page.getByText(SLOT_TAKEN)).toBeVisible();
  expect(await watched.answer(0)).toEqual({
    status: 409,
    body: expect.objectContaining({ error: 'This time is no longer available', code: 'slot_taken' }),
  });
  // The taken time is cleared and the fresh slots (without it) are offered, the date kept.
  await expect(f.time).toHaveValue('');
  await expect(f.time).toBeFocused();
  await expect(f.dateInput(date)).toBeChecked();
  await expectTimesMatchServer(page, fresh);
  expect((await offeredTimes(page)).map((o) => o.value)).not.toContain(chosen.value);

  // Nothing was written for this customer; the other browser holds the time.
  const owner = await apiToken(page, DEMO.owner);
  let onDay = await appointmentsOn(page.request, owner, date);
  expect(onDay.filter((a) => a.customer_name === who.name)).toEqual([]);
  expect(onDay.filter((a) => taken.includes(a.id)).every((a) => a.start_time === chosen.start)).toBe(true);

  // Another time works.
  if (fresh.length > 0) {
    const next = fresh[0]!;
    await f.time.selectOption(next.value);
    await expect(page.getByText(SLOT_TAKEN)).toHaveCount(0);
    await f.submit.click();
    await expect(page.getByRole('heading', { name: 'Your appointment is booked!' })).toBeVisible();
    onDay = await appointmentsOn(page.request, owner, date);
    expect(onDay.filter((a) => a.customer_name === who.name).map((a) => a.start_time)).toEqual([next.start]);
  }
});

test('booking page screenshots (form, success panel) at three sizes and no serious axe violations', async ({ page }) => {
  const company = await demoCompany(page.request);
  const consult = await serviceNamed(page.request, company.id, 'Consultation');
  const emma = await employeeNamed(page.request, company.id, 'Emma Stylist');

  await openBookingPage(page);
  const f = form(page);
  const axe = (what: string) => expectNoSeriousAxe(page, what, { wcag21aa: true });
  await axe('empty booking form');

  // Errors on an empty submit are announced next to their fields (and pass axe too).
  await f.submit.click();
  await expect(page.getByText('Please enter your full name.')).toBeVisible();
  await expect(f.name).toBeFocused();
  await axe('booking form with errors');

  await f.name.fill('Shay Screens');
  await f.email.fill(uniqueEmail('screens'));
  await f.phone.fill('+1 212 555 0150');
  await f.service('Consultation').check();
  await f.employee.selectOption({ label: 'Emma Stylist' });
  const { slots } = await pickDate(page, page.request, { company: company.id, service: consult.id, employee: emma });
  await f.time.selectOption(slots[slots.length - 1]!.value);
  await f.notes.fill('Screenshots.');
  await axe('filled booking form');
  await shootAllSizes(page, 'booking-form');

  await f.submit.click();
  await expect(page.getByRole('heading', { name: 'Your appointment is booked!' })).toBeVisible();
  await axe('booking success panel');
  await shootAllSizes(page, 'booking-success');
});
