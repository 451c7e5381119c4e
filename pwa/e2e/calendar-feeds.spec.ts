// Calendar feeds (docs/decisions/24-calendar-feeds.md): the staff member's card in Settings and the
// company's card in Company settings. Copy puts the address on the clipboard (read back), the feed
// it names holds the employee's appointment, Regenerate asks first and the old address then answers
// 404; the hide-names toggle reaches the feed. Screenshots at phone and desktop size.
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, signInAs } from './support/session.ts';

const SHOTS = process.env.FEED_SCREENS_DIR ?? path.join(import.meta.dirname, 'artifacts', 'screens');

async function shoot(page: Page, name: string) {
  for (const [size, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1440, height: 900 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} scrolls horizontally at ${size}`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size}.png`), fullPage: true });
  }
}

function card(page: Page, title: string) {
  return page.locator('section.feed-card').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/** A booked appointment of the signed-in employee inside the feed's window (the demo has a month around today). */
async function anAppointmentOf(page: Page, token: string): Promise<number> {
  const auth = { Authorization: `Bearer ${token}` };
  const me = await (await page.request.get('/api/me', { headers: auth })).json();
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const res = await page.request.get(`/api/appointments?start_date=${day(-14)}&end_date=${day(14)}`, { headers: auth });
  expect(res.status()).toBe(200);
  const mine = ((await res.json()) as { id: number; employee_id: number | null; status: string }[]).filter(
    (a) => a.employee_id === me.id && a.status === 'booked',
  );
  expect(mine.length, 'the demo employee has appointments around today').toBeGreaterThan(0);
  return mine[0].id;
}

test('Settings: copy the feed address, the feed holds my appointment, regenerate kills the old address', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const token = await signInAs(page, DEMO.employee, '/settings');
  const feed = card(page, 'Calendar feed');
  const address = feed.getByRole('textbox', { name: 'Calendar feed address' });
  await expect(address).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/, { timeout: 20_000 });
  const oldUrl = await address.inputValue();

  await feed.getByRole('button', { name: 'Copy' }).click();
  await expect(feed.getByRole('status').getByText('Copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(oldUrl);

  const ics = await page.request.get(oldUrl);
  expect(ics.status()).toBe(200);
  expect(ics.headers()['content-type']).toMatch(/^text\/calendar/);
  const body = await ics.text();
  expect(body).toMatch(/^BEGIN:VCALENDAR/);
  expect(body).toContain(`UID:appointment-${await anAppointmentOf(page, token)}@`);
  await shoot(page, 'calendar-feed-settings');

  // Regenerate asks first; Cancel keeps the address.
  await feed.getByRole('button', { name: 'Regenerate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Regenerate the feed address?' });
  await expect(dialog.getByText('Calendars subscribed to the current address stop updating at once.')).toBeVisible();
  await shoot(page, 'calendar-feed-regenerate-confirm');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(address).toHaveValue(oldUrl);
  expect((await page.request.get(oldUrl)).status()).toBe(200);

  await feed.getByRole('button', { name: 'Regenerate' }).click();
  await dialog.getByRole('button', { name: 'Regenerate' }).click();
  await expect(dialog).toBeHidden();
  await expect(feed.getByText('New address ready')).toBeVisible();
  await expect(address).not.toHaveValue(oldUrl);
  const newUrl = await address.inputValue();
  expect(newUrl).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  expect((await page.request.get(oldUrl)).status()).toBe(404);
  expect((await page.request.get(newUrl)).status()).toBe(200);
  // A reload shows the same new address.
  await page.reload();
  await expect(card(page, 'Calendar feed').getByRole('textbox', { name: 'Calendar feed address' })).toHaveValue(newUrl, {
    timeout: 20_000,
  });
});

test('a customer has no calendar feed card', async ({ page }) => {
  await signInAs(page, DEMO.customer, '/settings');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(DEMO.customer, { timeout: 20_000 });
  await expect(page.locator('section.feed-card')).toHaveCount(0);
});

test('Company settings: the company feed, copy, regenerate and hiding customer names', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const owner = await signInAs(page, DEMO.owner, '/company-settings');
  const feed = card(page, 'Company calendar feed');
  const address = feed.getByRole('textbox', { name: 'Company calendar feed address' });
  await expect(address).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/, { timeout: 20_000 });
  const url = await address.inputValue();
  await feed.getByRole('button', { name: 'Copy' }).click();
  await expect(feed.getByText('Copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  const toggle = feed.getByRole('checkbox', { name: 'Hide customer names in feeds' });
  await expect(toggle).not.toBeChecked();
  const summaries = async (u: string) => {
    const text = await (await page.request.get(u)).text();
    return [...text.matchAll(/^SUMMARY:(.*)$/gm)].map((m) => m[1].trim());
  };
  const shown = await summaries(url);
  expect(shown.length).toBeGreaterThan(0);
  expect(shown.some((s) => s !== 'Booked')).toBe(true);

  const saved = page.waitForResponse((r) => r.url().includes('/api/companies/') && r.request().method() === 'PUT');
  await toggle.check();
  expect((await saved).status()).toBe(200);
  await expect(toggle).toBeChecked();
  expect(new Set(await summaries(url))).toEqual(new Set(['Booked']));
  await shoot(page, 'calendar-feed-company');

  // Back as it was, for the other specs.
  const restored = page.waitForResponse((r) => r.url().includes('/api/companies/') && r.request().method() === 'PUT');
  await toggle.uncheck();
  expect((await restored).status()).toBe(200);
  expect((await summaries(url)).some((s) => s !== 'Booked')).toBe(true);

  await feed.getByRole('button', { name: 'Regenerate' }).click();
  await page.getByRole('dialog', { name: 'Regenerate the feed address?' }).getByRole('button', { name: 'Regenerate' }).click();
  await expect(address).not.toHaveValue(url);
  expect((await page.request.get(url)).status()).toBe(404);
  const me = await (await page.request.get('/api/me', { headers: { Authorization: `Bearer ${owner}` } })).json();
  const current = await page.request.get(`/api/companies/${me.company_id}/calendar-feed`, {
    headers: { Authorization: `Bearer ${owner}` },
  });
  expect((await current.json()).url).toBe(await address.inputValue());
});
