// Helpers for the offline calendar specs (docs/decisions/08-offline-pwa.md): the API as another
// person sees it, the demo company's facts, booking through the appointment modal, and the
// "Needs attention" list.
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { DEMO, apiToken } from './session.ts';
import { addDays, openEvent } from './appointments.ts';
import { wallDate } from './connection.ts';

export interface Appt {
  id: number;
  version: number;
  start_time: string;
  end_time: string;
  description: string | null;
  employee_id: number | null;
}

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

/** One API call with a token, outside the page (page.route does not see it). */
export async function api<T>(
  request: APIRequestContext,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiAnswer<T>> {
  const res = await request.fetch(`/api${path}`, { method, headers: { Authorization: `Bearer ${token}`, ...headers }, data: body });
  const text = await res.text();
  return { status: res.status(), body: (text ? JSON.parse(text) : undefined) as T };
}

/** Every request of the app to the API. */
export const API = '**/api/**';

export interface Demo {
  /** The owner's token (the tablet's user in most specs). */
  owner: string;
  /** The manager's token: "another user" at another desk. */
  other: string;
  companyId: number;
  timezone: string;
  customerId: number;
  emmaId: number;
  today: string;
}

/** Tokens and ids of the demo company (scripts/lib/demo-seed.ts). */
export async function demo(page: Page): Promise<Demo> {
  const owner = await apiToken(page, DEMO.owner);
  const other = await apiToken(page, DEMO.manager);
  const me = (await api<{ company_id: number }>(page.request, owner, 'GET', '/me')).body;
  const company = (await api<{ timezone: string }>(page.request, owner, 'GET', `/companies/${me.company_id}`)).body;
  const customers = (
    await api<{ id: number; email: string }[]>(page.request, owner, 'GET', `/users?company_id=${me.company_id}&role=customer`)
  ).body;
  const staff = (await api<{ id: number; name: string }[]>(page.request, owner, 'GET', `/users?company_id=${me.company_id}`)).body;
  return {
    owner,
    other,
    companyId: me.company_id,
    timezone: company.timezone,
    customerId: customers.find((c) => c.email === DEMO.customer)!.id,
    emmaId: staff.find((s) => s.name === 'Emma Stylist')!.id,
    today: wallDate(new Date().toISOString(), company.timezone),
  };
}

/**
 * A day of its own for one test: some weeks ahead (inside the local window of 90 days), varied per
 * run so a second run on the same server finds the early hours free. Early morning, before the
 * demo's opening hours, holds no seeded appointment; staff book at any time.
 */
export function quietDay(d: Demo, spread: number): string {
  return addDays(d.today, 20 + spread * 7 + Math.floor(Math.random() * 6));
}

/** The instant of a wall time on a day in the company's zone (ISO, UTC); no DST edge at these hours. */
export function instantOf(date: string, time: string, zone: string): string {
  const guess = new Date(`${date}T${time}:00Z`);
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(guess);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  const shown = new Date(`${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:00Z`);
  return new Date(guess.getTime() - (shown.getTime() - guess.getTime())).toISOString();
}

/** Books through the API as `token` (staff: any free time). */
export async function book(
  page: Page,
  d: Demo,
  token: string,
  at: { date: string; time: string; minutes?: number; description: string; employee?: boolean },
): Promise<Appt> {
  const start = instantOf(at.date, at.time, d.timezone);
  const res = await api<Appt>(page.request, token, 'POST', '/appointments', {
    company_id: d.companyId,
    user_id: d.customerId,
    employee_id: at.employee ? d.emmaId : undefined,
    start_time: start,
    end_time: new Date(Date.parse(start) + (at.minutes ?? 30) * 60_000).toISOString(),
    description: at.description,
  });
  expect(res.status, `booking ${at.description}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

/** The server's appointments of a day whose description starts with `prefix`. */
export async function onServer(page: Page, d: Demo, date: string, prefix: string): Promise<Appt[]> {
  const res = await api<Appt[]>(page.request, d.owner, 'GET', `/appointments?start_date=${date}&end_date=${date}`);
  expect(res.status).toBe(200);
  return res.body.filter((a) => a.description?.startsWith(prefix));
}

/** Deletes what a test left on the server (any status: it may already be gone). */
export async function removeAll(page: Page, d: Demo, ids: number[]): Promise<void> {
  for (const id of ids) {
    const now = await api<Appt>(page.request, d.owner, 'GET', `/appointments/${id}`);
    if (now.status === 200)
      await api(page.request, d.owner, 'DELETE', `/appointments/${id}`, undefined, { 'If-Match': `"${now.body.version}"` });
  }
}

export async function waitForCalendar(page: Page): Promise<void> {
  await expect(page.locator('.fc')).toBeVisible();
  await expect(page.getByText('Loading appointments...')).toHaveCount(0);
}

/** How many kept answers each cached table of the signed-in user's local store holds (IndexedDB, read in the page). */
export async function keptAnswers(page: Page, userId: number): Promise<Record<string, number>> {
  return page.evaluate(
    (name) =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tables = ['users', 'services', 'durations', 'hours', 'company'].filter((t) => db.objectStoreNames.contains(t));
          const counts: Record<string, number> = {};
          if (tables.length === 0) {
            db.close();
            return resolve(counts);
          }
          const tx = db.transaction(tables, 'readonly');
          for (const t of tables) {
            const req = tx.objectStore(t).count();
            req.onsuccess = () => (counts[t] = req.result);
          }
          tx.oncomplete = () => {
            db.close();
            resolve(counts);
          };
        };
      }),
    `bookwell-${userId}`,
  );
}

/**
 * Opens the appointment modal once while online and closes it. Since the offline session fills
 * the local store at start (components/offline/offline-prefill.ts) a tablet no longer needs this
 * to book offline; the conflict specs keep it so the form is warm and quick under load.
 */
export async function openFormOnce(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Create Appointment' }).click();
  const d = page.getByRole('dialog');
  await expect(d.getByLabel('Customer', { exact: true }).locator('option', { hasText: 'Casey Customer' })).toHaveCount(1);
  await expect(d.getByRole('checkbox', { name: /Haircut/ })).toBeVisible();
  await d.getByRole('button', { name: 'Cancel' }).click();
  await expect(d).toBeHidden();
}

/** Books in the appointment modal (Casey Customer, Haircut, 30 minutes). */
export async function createInModal(
  page: Page,
  at: { date: string; time: string; description: string; employee?: boolean },
): Promise<void> {
  await page.getByRole('button', { name: 'Create Appointment' }).click();
  const d = page.getByRole('dialog');
  await expect(d.getByRole('heading', { name: 'Create Appointment' })).toBeVisible();
  await d.getByLabel('Customer', { exact: true }).selectOption({ label: 'Casey Customer (customer@demo.test)' });
  if (at.employee) await d.getByLabel('Employee (optional)').selectOption({ label: 'Emma Stylist' });
  await d.getByLabel('Start date').fill(at.date);
  await d.getByLabel('Start time').fill(at.time);
  await d.getByRole('checkbox', { name: /Haircut/ }).check();
  await d.getByLabel('Description').fill(at.description);
  await d.getByRole('button', { name: 'Create Appointment' }).click();
  await expect(d.getByText('Appointment created successfully!')).toBeVisible();
  await expect(d).toBeHidden({ timeout: 5_000 });
  // first(): after a lost acknowledgement the server's row may show beside the queued one until the retry is answered.
  await expect(page.locator('.fc-event', { hasText: at.description }).first()).toBeVisible();
}

/** Changes an appointment's description in the modal. */
export async function editInModal(page: Page, from: string, to: string): Promise<void> {
  await openEvent(page, from);
  const d = page.getByRole('dialog');
  await expect(d.getByRole('heading', { name: 'Edit Appointment' })).toBeVisible();
  await d.getByLabel('Description').fill(to);
  await d.getByRole('button', { name: 'Update Appointment' }).click();
  await expect(d).toBeHidden({ timeout: 5_000 });
  await expect(page.locator('.fc-event', { hasText: to })).toBeVisible();
}

/** Opens the "Needs attention" list once `count` refused changes are in it; returns its items. */
export async function openNeedsAttention(page: Page, count: number): Promise<Locator> {
  const button = page.getByRole('button', { name: `Needs attention, ${count === 1 ? '1 change' : `${count} changes`}` });
  await expect(button).toBeVisible({ timeout: 20_000 });
  await button.click();
  const items = page.getByTestId('refused-change');
  await expect(items).toHaveCount(count);
  return items;
}
