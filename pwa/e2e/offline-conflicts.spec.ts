// Changes the server refuses after the tablet was offline (issue 11, point 3;
// docs/decisions/08-offline-pwa.md): while the tablet cannot reach the server, another person at
// another desk takes the same time (409), deletes the appointment (404), or the change is no longer
// allowed (403). On reconnect each refused change shows in "Needs attention" with its choices, and
// each choice does what it says, on this device and on the server (checked through the API).
// The API is cut with page.route (context.setOffline does not cut a service worker's requests; the
// worker is blocked so every API request passes the route).
import { expect, test, type Page } from '@playwright/test';
import { DEMO, signInAs } from './support/session.ts';
import { shootAllSizes } from './support/screens.ts';
import { cutRequests, restoreRequests } from './support/connection.ts';
import {
  API,
  api,
  book,
  createInModal,
  demo,
  editInModal,
  instantOf,
  onServer,
  openFormOnce,
  openNeedsAttention,
  quietDay,
  removeAll,
  waitForCalendar,
  type Appt,
} from './support/offline.ts';

test.use({ serviceWorkers: 'block' });

const strip = (page: Page) => page.getByTestId('offline-strip');

test('409 slot taken: "Pick another time" sends it once at the new time; "Discard" leaves nothing anywhere', async ({ page }) => {
  const d = await demo(page);
  const date = quietDay(d, 0);
  const stamp = Date.now();
  const moved = `Moved ${stamp}`;
  const dropped = `Dropped ${stamp}`;
  const cleanup: number[] = [];
  try {
    await signInAs(page, DEMO.owner, `/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    await openFormOnce(page);

    // Offline, the tablet books Emma at 5:00 and at 6:00.
    await cutRequests(page, API);
    await createInModal(page, { date, time: '05:00', description: moved, employee: true });
    await createInModal(page, { date, time: '06:00', description: dropped, employee: true });
    await expect(strip(page).getByTestId('outbox-count')).toHaveText('2 changes waiting to sync');

    // Meanwhile the manager books Emma at both times: her day is full there.
    for (const time of ['05:00', '06:00'])
      cleanup.push((await book(page, d, d.other, { date, time, description: `Theirs ${stamp} ${time}`, employee: true })).id);

    await restoreRequests(page, API);
    const items = await openNeedsAttention(page, 2);
    for (const item of await items.all()) {
      await expect(item).toContainText('This time is taken by another appointment.');
      await expect(item.getByRole('button')).toHaveText(['Pick another time', 'Discard']);
    }
    await shootAllSizes(page, 'offline-409-slot-taken');
    expect(await onServer(page, d, date, moved)).toEqual([]);
    // Each refused booking's event says it needs attention, not that it waits to sync.
    for (const description of [moved, dropped]) {
      const event = page.locator('.fc-event', { hasText: description });
      await expect(event).toHaveClass(/needs-attention/);
      await expect(event).not.toHaveClass(/is-pending/);
      await expect(event).toHaveAttribute('aria-label', /, needs attention$/);
      // Settled by its choices, not edited or dragged again: an edit would queue behind the refusal.
      await expect(event).not.toHaveClass(/fc-event-draggable/);
    }
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(items).toHaveCount(0);
    await page.locator('.fc-event', { hasText: moved }).click();
    await expect(items).toHaveCount(2);
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Signed out, the sign-in page does not promise to send them: they wait for the owner's choice.
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.goto('/login');
    await expect(page.getByTestId('waiting-for-sign-in')).toHaveText(
      'Sign in to send your changes. 2 changes the server refused wait for the person who made them to choose what to do.',
    );
    await page.getByLabel('Email address').fill(DEMO.owner);
    await page.getByLabel('Password').fill(DEMO.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto(`/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    await openNeedsAttention(page, 2);

    // Pick another time: 7:00, free. The server holds it exactly once, at 7:00.
    const first = items.filter({ hasText: '5:00 AM' });
    await first.getByRole('button', { name: 'Pick another time' }).click();
    await expect(first.getByLabel('Date')).toHaveValue(date);
    await expect(first.getByLabel('Start time')).toHaveValue('05:00');
    await shootAllSizes(page, 'offline-pick-another-time');
    await first.getByLabel('Start time').fill('07:00');
    await first.getByRole('button', { name: 'Send at this time' }).click();
    await expect
      .poll(async () => (await onServer(page, d, date, moved)).map((a) => a.start_time), { timeout: 20_000 })
      .toEqual([instantOf(date, '07:00', d.timezone)]);
    cleanup.push(...(await onServer(page, d, date, moved)).map((a) => a.id));
    await expect(page.getByTestId('refused-change')).toHaveCount(1);
    await expect(page.locator('.fc-event', { hasText: moved })).toHaveCount(1);
    await expect(page.locator('.fc-event', { hasText: moved })).toContainText('7:00');
    await expect(page.locator('.fc-event', { hasText: moved })).not.toHaveClass(/needs-attention|is-pending/, { timeout: 15_000 });

    // Discard: gone from the calendar, never on the server.
    await page.getByTestId('refused-change').getByRole('button', { name: 'Discard' }).click();
    await expect(strip(page)).toHaveCount(0, { timeout: 15_000 });
    await expect(page.locator('.fc-event', { hasText: dropped })).toHaveCount(0);
    await page.reload();
    await waitForCalendar(page);
    await expect(page.locator('.fc-event', { hasText: moved })).toHaveCount(1);
    await expect(page.locator('.fc-event', { hasText: dropped })).toHaveCount(0);
    expect(await onServer(page, d, date, dropped)).toEqual([]);
    expect((await onServer(page, d, date, moved)).length).toBe(1);
  } finally {
    await page.unroute(API).catch(() => undefined);
    await removeAll(page, d, cleanup);
  }
});

test('404 deleted elsewhere: "Keep theirs", the one choice, drops my edit, and the appointment stays deleted', async ({ page }) => {
  const d = await demo(page);
  const date = quietDay(d, 1);
  const stamp = Date.now();
  const first = await book(page, d, d.owner, { date, time: '05:00', description: `First ${stamp}` });
  const second = await book(page, d, d.owner, { date, time: '06:00', description: `Second ${stamp}` });
  try {
    await signInAs(page, DEMO.owner, `/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    await expect(page.locator('.fc-event', { hasText: `Second ${stamp}` })).toBeVisible();
    await openFormOnce(page);

    // Offline, the tablet edits both; meanwhile the manager deletes both.
    await cutRequests(page, API);
    await editInModal(page, `First ${stamp}`, `First mine ${stamp}`);
    await editInModal(page, `Second ${stamp}`, `Second mine ${stamp}`);
    await expect(strip(page).getByTestId('outbox-count')).toHaveText('2 changes waiting to sync');
    for (const a of [first, second])
      expect(
        (await api(page.request, d.other, 'DELETE', `/appointments/${a.id}`, undefined, { 'If-Match': `"${a.version}"` })).status,
      ).toBe(204);

    await restoreRequests(page, API);
    const items = await openNeedsAttention(page, 2);
    for (const item of await items.all()) {
      await expect(item).toContainText('Someone else deleted this appointment before your change was sent.');
      await expect(item.getByRole('button')).toHaveText(['Keep theirs']);
    }
    await shootAllSizes(page, 'offline-404-deleted');

    // Keep theirs: the deletion stands; my edit is dropped.
    await items.filter({ hasText: '5:00 AM' }).getByRole('button', { name: 'Keep theirs' }).click();
    await expect(page.getByTestId('refused-change')).toHaveCount(1);
    await expect(page.locator('.fc-event', { hasText: `First` }).filter({ hasText: String(stamp) })).toHaveCount(0);
    await page.getByTestId('refused-change').getByRole('button', { name: 'Keep theirs' }).click();
    await expect(strip(page)).toHaveCount(0, { timeout: 15_000 });
    await expect(page.locator('.fc-event', { hasText: String(stamp) })).toHaveCount(0);

    await page.reload();
    await waitForCalendar(page);
    await expect(page.locator('.fc-event', { hasText: String(stamp) })).toHaveCount(0);
    await expect(strip(page)).toHaveCount(0);
    for (const a of [first, second]) expect((await api(page.request, d.owner, 'GET', `/appointments/${a.id}`)).status).toBe(404);
  } finally {
    await page.unroute(API).catch(() => undefined);
    await removeAll(page, d, [first.id, second.id]);
  }
});

test('403 no longer allowed: the change shows with "Discard", which puts the server\'s appointment back', async ({ page }) => {
  // No staff member's appointment write is refused with 403 by this API: a role or password change
  // raises token_version (401), another company's appointment answers 404, and staff keep writing
  // after the subscription ends (docs/decisions/06-subscriptions.md). So the server's answer is
  // stood in for, with the API's own error body, to show what the person sees.
  const d = await demo(page);
  const date = quietDay(d, 2);
  const stamp = Date.now();
  const appt = await book(page, d, d.owner, { date, time: '05:00', description: `Allowed ${stamp}` });
  try {
    await signInAs(page, DEMO.owner, `/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    await expect(page.locator('.fc-event', { hasText: `Allowed ${stamp}` })).toBeVisible();
    await openFormOnce(page);

    await cutRequests(page, API);
    await editInModal(page, `Allowed ${stamp}`, `Not allowed ${stamp}`);
    await page.route(`**/api/appointments/${appt.id}`, (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 403,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'You do not have permission to perform this action', code: 'forbidden' }),
          })
        : route.fallback(),
    );
    await restoreRequests(page, API);
    const items = await openNeedsAttention(page, 1);
    await expect(items).toContainText('You are no longer allowed to make this change.');
    await expect(items.getByRole('button')).toHaveText(['Discard']);
    const refused = page.locator('.fc-event', { hasText: `Not allowed ${stamp}` });
    await expect(refused).toHaveClass(/needs-attention/);
    await expect(refused).not.toHaveClass(/is-pending/);
    await expect(refused).toHaveAttribute('aria-label', /, needs attention$/);
    await shootAllSizes(page, 'offline-403-not-allowed');

    await items.getByRole('button', { name: 'Discard' }).click();
    await expect(strip(page)).toHaveCount(0, { timeout: 15_000 });
    await expect(page.locator('.fc-event', { hasText: `Allowed ${stamp}` })).toHaveCount(1);
    await expect(page.locator('.fc-event', { hasText: `Not allowed ${stamp}` })).toHaveCount(0);
    await expect(page.locator('.fc-event.is-pending')).toHaveCount(0);
    await expect(page.locator('.fc-event.needs-attention')).toHaveCount(0);
    await expect(page.locator('.fc-event', { hasText: `Allowed ${stamp}` })).not.toHaveAttribute(
      'aria-label',
      /needs attention|waiting to sync/,
    );
    await page.reload();
    await waitForCalendar(page);
    await expect(page.locator('.fc-event', { hasText: `Allowed ${stamp}` })).toHaveCount(1);
    expect((await api<Appt>(page.request, d.owner, 'GET', `/appointments/${appt.id}`)).body.description).toBe(`Allowed ${stamp}`);
  } finally {
    await page.unroute('**/api/**').catch(() => undefined);
    await removeAll(page, d, [appt.id]);
  }
});
