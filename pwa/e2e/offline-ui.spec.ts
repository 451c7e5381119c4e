// Telling the person about offline changes (issue 11, point 3; docs/decisions/08-offline-pwa.md): an
// edit made while the server cannot be reached waits with a count and a mark on its event; when
// someone else changed the appointment meanwhile, the server refuses it (412) and the "Needs
// attention" list offers "Apply my change again" and "Keep theirs", each doing what it says.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, apiToken, signInAs } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';
import { cutRequests, restoreRequests, wallDate } from './support/connection.ts';
import { openEvent } from './support/appointments.ts';

interface Appt {
  id: number;
  version: number;
  start_time: string;
  description: string | null;
}

async function api<T>(
  request: APIRequestContext,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await request.fetch(`/api${path}`, { method, headers: { Authorization: `Bearer ${token}`, ...headers }, data: body });
  const text = await res.text();
  return { status: res.status(), body: (text ? JSON.parse(text) : undefined) as T };
}

/** Requests for one appointment (PUT/DELETE /api/appointments/:id). */
const ONE_APPOINTMENT = '**/api/appointments/**';

/** Edits the description in the appointment modal while the server cannot be reached: the change is queued. */
async function editOffline(page: Page, from: string, to: string) {
  await cutRequests(page, ONE_APPOINTMENT);
  await openEvent(page, from);
  const d = page.getByRole('dialog');
  await expect(d.getByRole('heading', { name: 'Edit Appointment' })).toBeVisible();
  await d.getByLabel('Description').fill(to);
  await d.getByRole('button', { name: 'Update Appointment' }).click();
  await expect(d).toBeHidden();
  const strip = page.getByTestId('offline-strip');
  await expect(strip.getByTestId('outbox-count')).toHaveText('1 change waiting to sync');
  await expect(strip.getByTestId('offline-indicator')).toHaveText('Offline: changes are saved on this device');
  await expect(page.locator('.fc-event.is-pending', { hasText: to })).toBeVisible();
}

/** After a reload (still without a connection) the change is still waiting, marked and labelled. */
async function expectPendingAfterReload(page: Page, to: string) {
  await page.reload();
  const event = page.locator('.fc-event.is-pending', { hasText: to });
  await expect(event).toHaveAttribute('aria-label', /, waiting to sync$/);
  await expect(page.getByTestId('outbox-count')).toHaveText('1 change waiting to sync');
}

/** Someone else changes the same appointment on the server meanwhile. */
async function changeElsewhere(request: APIRequestContext, token: string, id: number, description: string) {
  const now = await api<Appt>(request, token, 'GET', `/appointments/${id}`);
  const res = await api<Appt>(request, token, 'PUT', `/appointments/${id}`, { description }, { 'If-Match': `"${now.body.version}"` });
  expect(res.status).toBe(200);
}

async function openRefusal(page: Page) {
  const button = page.getByRole('button', { name: 'Needs attention, 1 change' });
  await expect(button).toBeVisible({ timeout: 15_000 });
  await expect(button).toContainText('1');
  await button.click();
  const item = page.getByTestId('refused-change');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Someone else changed this appointment before your change was sent.');
  await expect(item.getByRole('button')).toHaveText(['Apply my change again', 'Keep theirs']);
  return item;
}

test('a change refused because someone else changed the appointment (412): keep theirs, or apply mine again', async ({ page }) => {
  const token = await signInAs(page, DEMO.owner, '/dashboard');
  const other = await apiToken(page, DEMO.manager);
  const me = await api<{ company_id: number }>(page.request, token, 'GET', '/me');
  const company = await api<{ timezone: string }>(page.request, token, 'GET', `/companies/${me.body.company_id}`);
  const [customer] = (await api<{ id: number }[]>(page.request, token, 'GET', `/users?company_id=${me.body.company_id}&role=customer`))
    .body;
  const start = new Date(Math.ceil((Date.now() + 2 * 86_400_000) / 3_600_000) * 3_600_000 + 40 * 60_000);
  const stamp = Date.now();
  const created = await api<Appt>(page.request, token, 'POST', '/appointments', {
    company_id: me.body.company_id,
    user_id: customer!.id,
    start_time: start.toISOString(),
    end_time: new Date(start.getTime() + 15 * 60_000).toISOString(),
    description: `Offline ${stamp}`,
  });
  expect(created.status).toBe(201);
  const id = created.body.id;
  const date = wallDate(created.body.start_time, company.body.timezone);
  const description = async () => (await api<Appt>(page.request, token, 'GET', `/appointments/${id}`)).body.description;

  try {
    await page.goto(`/calendar?view=day&date=${date}`);
    await expect(page.locator('.fc-event', { hasText: `Offline ${stamp}` })).toBeVisible();

    // 1. Keep theirs: my change is dropped, the server keeps the other person's.
    await editOffline(page, `Offline ${stamp}`, `Mine ${stamp}`);
    await expectPendingAfterReload(page, `Mine ${stamp}`);
    await changeElsewhere(page.request, other, id, `Theirs ${stamp}`);
    await restoreRequests(page, ONE_APPOINTMENT);
    let item = await openRefusal(page);
    await shootAllSizes(page, 'offline-needs-attention');
    await item.getByRole('button', { name: 'Keep theirs' }).click();
    await expect(page.getByTestId('offline-strip')).toHaveCount(0);
    await expect(page.locator('.fc-event', { hasText: `Theirs ${stamp}` })).toBeVisible();
    await expect(page.locator('.fc-event.is-pending')).toHaveCount(0);
    expect(await description()).toBe(`Theirs ${stamp}`);

    // 2. Apply my change again: mine goes over theirs.
    await editOffline(page, `Theirs ${stamp}`, `Mine again ${stamp}`);
    await shootAllSizes(page, 'offline-waiting');
    await changeElsewhere(page.request, other, id, `Theirs again ${stamp}`);
    await restoreRequests(page, ONE_APPOINTMENT);
    item = await openRefusal(page);
    await item.getByRole('button', { name: 'Apply my change again' }).click();
    await expect.poll(description, { timeout: 15_000 }).toBe(`Mine again ${stamp}`);
    await expect(page.getByTestId('offline-strip')).toHaveCount(0, { timeout: 15_000 });
  } finally {
    await page.unroute(ONE_APPOINTMENT).catch(() => undefined);
    const now = await api<Appt>(page.request, token, 'GET', `/appointments/${id}`);
    await api(page.request, token, 'DELETE', `/appointments/${id}`, undefined, { 'If-Match': `"${now.body.version}"` });
  }
});
