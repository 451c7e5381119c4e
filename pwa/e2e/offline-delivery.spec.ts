// Delivering offline changes exactly once (issue 11; docs/decisions/08-offline-pwa.md): a create
// whose acknowledgement is lost is retried with the same Idempotency-Key and books once; two tabs
// offline share one outbox and one runner, so no change is sent twice and both tabs end up showing
// the same calendar; a 401 while syncing keeps the changes for the same user and never hands them
// to another; an event's accessible label follows its current data. The API is cut with page.route
// (context.setOffline does not cut a service worker's requests; the worker is blocked).
import { expect, test, type BrowserContext, type Page, type Route } from '@playwright/test';
import { DEMO, apiToken, signInAs } from './support/session.ts';
import { cutRequests, restoreRequests } from './support/connection.ts';
import { shootAllSizes } from './support/screens.ts';
import { addDays, openEvent } from './support/appointments.ts';
import {
  API,
  api,
  book,
  createInModal,
  demo,
  editInModal,
  onServer,
  openFormOnce,
  quietDay,
  removeAll,
  waitForCalendar,
  type Appt,
} from './support/offline.ts';

test.use({ serviceWorkers: 'block' });

/** POST /api/appointments (not the list, which has a query string, nor one appointment). */
const isCreate = (url: URL) => url.pathname === '/api/appointments';

/**
 * The first create reaches the server and is committed there, but its answer never arrives; later
 * ones pass. Returns the Idempotency-Key of every create that reached the server.
 */
async function loseFirstAcknowledgement(page: Page): Promise<string[]> {
  const keys: string[] = [];
  await page.route(isCreate, async (route: Route) => {
    const request = route.request();
    if (request.method() !== 'POST') return route.fallback();
    keys.push((await request.allHeaders())['idempotency-key'] ?? '(none)');
    if (keys.length === 1) {
      await route.fetch(); // the server books it...
      return route.abort('connectionreset'); // ...and the answer is lost on the way back
    }
    return route.continue();
  });
  return keys;
}

test('a lost acknowledgement of an offline booking: the retry carries the same key, and one appointment exists', async ({ page }) => {
  const d = await demo(page);
  const date = quietDay(d, 3);
  const description = `Lost ack ${Date.now()}`;
  try {
    await signInAs(page, DEMO.owner, `/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    await openFormOnce(page);
    // Registered before the cut, so the cut (the later route) wins while offline.
    const keys = await loseFirstAcknowledgement(page);
    await cutRequests(page, API);
    await createInModal(page, { date, time: '05:00', description });
    await restoreRequests(page, API);

    await expect.poll(() => keys.length, { timeout: 20_000 }).toBe(2);
    expect(keys[1]).toBe(keys[0]);
    await expect(page.getByTestId('offline-strip')).toHaveCount(0, { timeout: 15_000 });
    expect((await onServer(page, d, date, description)).length).toBe(1);
    await expect(page.locator('.fc-event', { hasText: description })).toHaveCount(1);
    await page.reload();
    await waitForCalendar(page);
    await expect(page.locator('.fc-event', { hasText: description })).toHaveCount(1);
    expect(keys).toHaveLength(2);
  } finally {
    await page.unroute(API).catch(() => undefined);
    await removeAll(
      page,
      d,
      (await onServer(page, d, date, description)).map((a) => a.id),
    );
  }
});

test('a lost acknowledgement of an online booking: the change is queued with the same key, and one appointment exists', async ({
  page,
}) => {
  const d = await demo(page);
  const date = quietDay(d, 4);
  const description = `Lost online ack ${Date.now()}`;
  try {
    await signInAs(page, DEMO.owner, `/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    const keys = await loseFirstAcknowledgement(page);
    // Online: the modal's POST books, its answer is lost, so the app queues the booking.
    await createInModal(page, { date, time: '05:00', description });

    await expect.poll(() => keys.length, { timeout: 20_000 }).toBe(2);
    expect(keys[1]).toBe(keys[0]);
    await expect(page.getByTestId('offline-strip')).toHaveCount(0, { timeout: 15_000 });
    expect((await onServer(page, d, date, description)).length).toBe(1);
    await page.reload();
    await waitForCalendar(page);
    await expect(page.locator('.fc-event', { hasText: description })).toHaveCount(1);
    expect(keys).toHaveLength(2);
  } finally {
    await removeAll(
      page,
      d,
      (await onServer(page, d, date, description)).map((a) => a.id),
    );
  }
});

/** Idempotency-Key of every appointment write that got an answer from the server, in every tab. */
function answeredWrites(context: BrowserContext): Map<string, number> {
  const counts = new Map<string, number>();
  context.on('requestfinished', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'GET' || !path.startsWith('/api/appointments')) return;
    const key = request.headers()['idempotency-key'] ?? `(no key) ${request.method()} ${path}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  return counts;
}

/** The titles of this test's events a tab shows, sorted. */
async function shownTitles(page: Page, stamp: string): Promise<string[]> {
  return (await page.locator('.fc-event', { hasText: stamp }).allTextContents()).map((t) => t.trim()).sort();
}

test('two tabs offline, both editing and booking: one runner sends each change once, and both tabs show the same', async ({
  context,
  page,
}) => {
  const d = await demo(page);
  const date = quietDay(d, 5);
  const stamp = String(Date.now());
  await book(page, d, d.owner, { date, time: '05:00', description: `P ${stamp}` });
  await book(page, d, d.owner, { date, time: '06:00', description: `Q ${stamp}` });
  const writes = answeredWrites(context);
  const second = await context.newPage();
  try {
    await signInAs(page, DEMO.owner, `/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    await openFormOnce(page);
    await second.goto(`/calendar?view=day&date=${date}`);
    await waitForCalendar(second);
    await expect(second.locator('.fc-event', { hasText: `Q ${stamp}` })).toBeVisible();

    await context.route(API, (route) => route.abort('internetdisconnected'));
    await editInModal(page, `P ${stamp}`, `P first tab ${stamp}`);
    await createInModal(page, { date, time: '07:00', description: `R first tab ${stamp}` });
    await editInModal(second, `Q ${stamp}`, `Q second tab ${stamp}`);
    await createInModal(second, { date, time: '08:00', description: `S second tab ${stamp}` });
    // One outbox for the user, whichever tab wrote to it.
    await expect(page.getByTestId('outbox-count')).toHaveText('4 changes waiting to sync');
    await expect(second.getByTestId('outbox-count')).toHaveText('4 changes waiting to sync');

    await context.unroute(API);
    for (const tab of [page, second]) await tab.evaluate(() => window.dispatchEvent(new Event('online')));

    await expect
      .poll(
        async () =>
          (await onServer(page, d, date, ''))
            .filter((a) => a.description?.includes(stamp))
            .map((a) => a.description)
            .sort(),
        {
          timeout: 20_000,
        },
      )
      .toEqual([`P first tab ${stamp}`, `Q second tab ${stamp}`, `R first tab ${stamp}`, `S second tab ${stamp}`]);
    for (const tab of [page, second]) await expect(tab.getByTestId('offline-strip')).toHaveCount(0, { timeout: 15_000 });
    // Four changes, four keys, each answered once: nothing was sent twice.
    expect([...writes.values()]).toEqual([1, 1, 1, 1]);

    // Each tab re-reads its week once the changes have left the outbox (coalesced, within a second).
    const descriptions = async (tab: Page) =>
      (await shownTitles(tab, stamp)).map((t) => /([PQRS](?: first tab| second tab)?) \d+/.exec(t)?.[1]).sort();
    const sent = ['P first tab', 'Q second tab', 'R first tab', 'S second tab'];
    await expect.poll(() => descriptions(page), { timeout: 15_000 }).toEqual(sent);
    const expected = await shownTitles(page, stamp);
    await expect.poll(() => shownTitles(second, stamp), { timeout: 15_000 }).toEqual(expected);
    await expect(page.locator('.fc-event.is-pending')).toHaveCount(0);
    await expect(second.locator('.fc-event.is-pending')).toHaveCount(0);
    expect([...writes.values()]).toEqual([1, 1, 1, 1]);
  } finally {
    await context.unroute(API).catch(() => undefined);
    await removeAll(
      page,
      d,
      (await onServer(page, d, date, '')).filter((a) => a.description?.includes(stamp)).map((a) => a.id),
    );
  }
});

test("an event's accessible label follows an edit made in place, online and offline", async ({ page }) => {
  const d = await demo(page);
  const date = quietDay(d, 6);
  const stamp = Date.now();
  const appt = await book(page, d, d.owner, { date, time: '05:00', description: `Label ${stamp}` });
  const event = page.locator('.fc-event', { hasText: String(stamp) });
  try {
    await signInAs(page, DEMO.owner, `/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    await openFormOnce(page);
    await expect(event).toHaveAttribute('aria-label', new RegExp(`Label ${stamp}`));

    await editInModal(page, `Label ${stamp}`, `Renamed ${stamp}`);
    await expect(event).toHaveAttribute('aria-label', new RegExp(`^Casey Customer, Renamed ${stamp}, .*5:00 AM to 5:30 AM`));
    await expect(event).toHaveAttribute('title', new RegExp(`Renamed ${stamp}`));

    await cutRequests(page, API);
    await editInModal(page, `Renamed ${stamp}`, `Offline name ${stamp}`);
    await expect(event).toHaveAttribute('aria-label', new RegExp(`^Casey Customer, Offline name ${stamp}, .*, waiting to sync$`));
    await restoreRequests(page, API);
    await expect(event).not.toHaveAttribute('aria-label', /waiting to sync/, { timeout: 15_000 });
    await expect(event).toHaveAttribute('aria-label', new RegExp(`^Casey Customer, Offline name ${stamp}, `));
    expect((await api<Appt>(page.request, d.owner, 'GET', `/appointments/${appt.id}`)).body.description).toBe(`Offline name ${stamp}`);
  } finally {
    await page.unroute(API).catch(() => undefined);
    await removeAll(page, d, [appt.id]);
  }
});

// The other tests cut the API with page.route, under which the browser still says it is online. A
// tablet whose Wi-Fi drops says it is not (navigator.onLine false, an "offline" event), and the data
// layer's queries must still run then: they read the local store.
test('the browser says the connection is gone: an edit shows pending, another day opens from the store, and it syncs on return', async ({
  page,
  context,
}) => {
  const d = await demo(page);
  const date = quietDay(d, 7);
  const next = addDays(date, 1);
  const stamp = Date.now();
  const appt = await book(page, d, d.owner, { date, time: '05:00', description: `Wifi ${stamp}` });
  const later = await book(page, d, d.owner, { date: next, time: '05:00', description: `Next day ${stamp}` });
  try {
    await signInAs(page, DEMO.owner, `/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    await openFormOnce(page);
    // The next day once online, so the local store holds it.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.locator('.fc-event', { hasText: `Next day ${stamp}` })).toBeVisible();
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(page.locator('.fc-event', { hasText: `Wifi ${stamp}` })).toBeVisible();

    await context.setOffline(true);
    await openEvent(page, `Wifi ${stamp}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Description').fill(`Offline wifi ${stamp}`);
    await dialog.getByRole('button', { name: 'Update Appointment' }).click();
    // Done here, not yet on the server, and the modal says so.
    await expect(dialog.getByRole('status').filter({ hasText: 'successfully' })).toHaveText(
      'Appointment updated successfully! Saved on this device: it will be sent when the connection returns.',
    );
    await expect(dialog).toBeHidden({ timeout: 5_000 });
    const event = page.locator('.fc-event', { hasText: `Offline wifi ${stamp}` });
    await expect(event).toHaveClass(/is-pending/);
    await expect(page.getByText('1 change waiting to sync')).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.locator('.fc-event', { hasText: `Next day ${stamp}` })).toBeVisible();
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect(event).toHaveClass(/is-pending/);

    await context.setOffline(false);
    await expect(event).not.toHaveClass(/is-pending/, { timeout: 15_000 });
    const stored = await api<Appt>(page.request, d.owner, 'GET', `/appointments/${appt.id}`);
    expect(stored.body.description).toBe(`Offline wifi ${stamp}`);
    expect(stored.body.version).toBe(appt.version + 1);
  } finally {
    await context.setOffline(false);
    await removeAll(page, d, [appt.id, later.id]);
  }
});

// A booking made offline and changed again before it was sent never reached the server: its customer
// hears of it once, as it ended up (a confirmation and then a cancellation of a booking they never had
// was the alternative). The browser must say it is offline for that: a create tried while it says it
// is online may have reached the server (docs/decisions/08-offline-pwa.md).
test('offline as the browser says: a booking made then edited is sent once as it ended up; one made then deleted is never sent', async ({
  page,
  context,
}) => {
  const d = await demo(page);
  const date = quietDay(d, 9);
  const stamp = Date.now();
  const made = `Made ${stamp}`;
  const edited = `Edited ${stamp}`;
  const dropped = `Dropped ${stamp}`;
  const writes = answeredWrites(context);
  const cleanup: number[] = [];
  try {
    await signInAs(page, DEMO.owner, `/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    await openFormOnce(page);

    await context.setOffline(true);
    await createInModal(page, { date, time: '05:00', description: made });
    await editInModal(page, made, edited);
    await createInModal(page, { date, time: '06:00', description: dropped });
    await openEvent(page, dropped);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete Appointment' }).click();
    await dialog.getByRole('button', { name: 'Yes, Delete' }).click();
    await expect(page.locator('.fc-event', { hasText: dropped })).toHaveCount(0);
    await expect(page.getByText('1 change waiting to sync')).toBeVisible();

    await context.setOffline(false);
    await expect(page.locator('.fc-event', { hasText: edited })).not.toHaveClass(/is-pending/, { timeout: 15_000 });
    const stored = await onServer(page, d, date, edited);
    cleanup.push(...stored.map((a) => a.id));
    // Created once, as it ended up, and never updated; the deleted one never sent at all.
    expect(stored.map((a) => a.version)).toEqual([1]);
    expect([...writes.values()]).toEqual([1]);
    expect(await onServer(page, d, date, dropped)).toEqual([]);
  } finally {
    await context.setOffline(false);
    await removeAll(page, d, cleanup);
  }
});

/** Signs in through the form of /login (the page the app sent the person to). */
async function signInWithForm(page: Page, email: string, password: string) {
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

test('a 401 while sending: the sign-in page says the change waits; another user neither sends nor sees it; the author signing in sends it once', async ({
  context,
  page,
}) => {
  // Ava: a demo employee no other spec signs in as; her password changes here and is put back at the end.
  const ava = 'ava@demo.test';
  const newPassword = `Changed-${Date.now()}-pw`;
  const d = await demo(page);
  const date = quietDay(d, 7);
  const stamp = Date.now();
  const appt = await book(page, d, d.owner, { date, time: '05:00', description: `Theirs ${stamp}` });
  const mine = `Ava offline ${stamp}`;
  // Every answered PUT of the appointment: its status and Idempotency-Key. A resend with the same key
  // (a reload cut off the acknowledgement) is the same change: the server replays its first answer.
  const answers: { status: number; key: string }[] = [];
  context.on('requestfinished', async (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === `/api/appointments/${appt.id}`)
      answers.push({ status: (await request.response())!.status(), key: request.headers()['idempotency-key'] ?? '' });
  });
  const appliedKeys = () => [...new Set(answers.filter((a) => a.status === 200).map((a) => a.key))];
  const description = async () => (await api<Appt>(page.request, d.owner, 'GET', `/appointments/${appt.id}`)).body.description;
  let avaPassword: string = DEMO.password;
  try {
    await signInAs(page, ava, `/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    await openFormOnce(page);
    await cutRequests(page, API);
    await editInModal(page, `Theirs ${stamp}`, mine);
    await expect(page.getByTestId('outbox-count')).toHaveText('1 change waiting to sync');

    // Meanwhile Ava changes her password at another desk: this tablet's token stops working (401).
    const elsewhere = await apiToken(page, ava);
    const changed = await api(page.request, elsewhere, 'POST', '/me/change-password', {
      current_password: DEMO.password,
      new_password: newPassword,
    });
    expect(changed.status).toBe(200);
    avaPassword = newPassword;

    // Back online: the 401 signs her out (docs/decisions/08-offline-pwa.md); the change waits, and the sign-in page says so.
    await restoreRequests(page, API);
    await expect(page).toHaveURL(/\/login/, { timeout: 20_000 });
    const notice = page.getByTestId('waiting-for-sign-in');
    await expect(notice).toHaveText(
      'Sign in to send your changes. 1 change made on this device is waiting and will be sent once the person who made it signs in again.',
    );
    await shootAllSizes(page, 'offline-waiting-for-sign-in');
    expect(await description()).toBe(`Theirs ${stamp}`);

    // Someone else signs in on this tablet: nothing of Ava's is sent or shown to them.
    await signInWithForm(page, DEMO.owner, DEMO.password);
    await page.goto(`/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    await expect(page.locator('.fc-event', { hasText: `Theirs ${stamp}` })).toBeVisible();
    await expect(page.locator('.fc-event', { hasText: mine })).toHaveCount(0);
    await expect(page.getByTestId('offline-strip')).toHaveCount(0);
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.goto('/login');
    await expect(notice).toBeVisible();
    expect(await description()).toBe(`Theirs ${stamp}`);
    expect(appliedKeys()).toEqual([]);

    // Ava signs in again: her change is sent, once.
    await signInWithForm(page, ava, newPassword);
    await expect.poll(description, { timeout: 20_000 }).toBe(mine);
    await page.goto(`/calendar?view=day&date=${date}`);
    await waitForCalendar(page);
    await expect(page.locator('.fc-event', { hasText: mine })).toHaveCount(1);
    await expect(page.getByTestId('offline-strip')).toHaveCount(0);
    // One change applied once: one key answered 200, and one new version.
    expect(appliedKeys()).toHaveLength(1);
    expect((await api<Appt>(page.request, d.owner, 'GET', `/appointments/${appt.id}`)).body.version).toBe(appt.version + 1);
    // Nothing waits any more: the sign-in page no longer mentions it.
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.goto('/login');
    await expect(page.getByLabel('Email address')).toBeVisible();
    await expect(notice).toHaveCount(0);
  } finally {
    await page.unroute(API).catch(() => undefined);
    if (avaPassword !== DEMO.password) {
      const token = await apiToken(page, ava, avaPassword);
      expect(
        (await api(page.request, token, 'POST', '/me/change-password', { current_password: avaPassword, new_password: DEMO.password }))
          .status,
      ).toBe(200);
    }
    await removeAll(page, d, [appt.id]);
  }
});
