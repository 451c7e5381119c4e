// Telling the person about offline changes (issue 11, point 3; docs/decisions/08-offline-pwa.md): an
// edit made while the server cannot be reached waits with a count and a mark on its event; when
// someone else changed the appointment meanwhile, the server refuses it (412) and the "Needs
// attention" list offers "Apply my change again" and "Keep theirs", each doing what it says.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signInAs, DEMO } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';
import { cutRequests, restoreRequests } from './support/connection.ts';
import { openEvent } from './support/appointments.ts';
import { api, book, demo, quietDay, type Appt } from './support/offline.ts';

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
  await expect(strip.getByTestId('offline-indicator')).toHaveText('Offline: appointment changes are saved on this device');
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
  await signInAs(page, DEMO.owner, '/dashboard');
  const d = await demo(page);
  const token = d.owner;
  const other = d.other;
  // Before the demo's opening hours on a day of its own: no seeded appointment shares the slot (at
  // some hours of the day a near date's slot held enough of them to fold this one into "+N more").
  const date = quietDay(d, 8);
  const stamp = Date.now();
  const created = await book(page, d, token, { date, time: '05:40', minutes: 15, description: `Offline ${stamp}` });
  const id = created.id;
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
    // What the other person changed, against what I saw when I made my change.
    await expect(item).toContainText('What changed:');
    await expect(item.getByRole('listitem')).toHaveText([new RegExp(`^Description: Offline ${stamp}\\W+is now\\W+Theirs ${stamp}$`)]);
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

    // 3. Applied again, my change carries only what I changed: the other person's move of the
    // appointment (a field I did not touch) stays.
    await editOffline(page, `Mine again ${stamp}`, `Mine third ${stamp}`);
    const before = (await api<Appt>(page.request, other, 'GET', `/appointments/${id}`)).body;
    const later = (iso: string) => new Date(new Date(iso).getTime() + 15 * 60_000).toISOString();
    const moved = await api<Appt>(
      page.request,
      other,
      'PUT',
      `/appointments/${id}`,
      { start_time: later(before.start_time), end_time: later(before.end_time) },
      { 'If-Match': `"${before.version}"` },
    );
    expect(moved.status).toBe(200);
    await restoreRequests(page, ONE_APPOINTMENT);
    item = await openRefusal(page);
    await item.getByRole('button', { name: 'Apply my change again' }).click();
    await expect.poll(description, { timeout: 15_000 }).toBe(`Mine third ${stamp}`);
    const after = (await api<Appt>(page.request, token, 'GET', `/appointments/${id}`)).body;
    expect([after.start_time, after.end_time]).toEqual([moved.body.start_time, moved.body.end_time]);
  } finally {
    await page.unroute(ONE_APPOINTMENT).catch(() => undefined);
    const now = await api<Appt>(page.request, token, 'GET', `/appointments/${id}`);
    await api(page.request, token, 'DELETE', `/appointments/${id}`, undefined, { 'If-Match': `"${now.body.version}"` });
  }
});
