// Company settings, Messages card (issue 12 point 6, docs/decisions/22-messaging.md): a message the
// SMTP server really refused shows as not delivered with the server's reason; Retry puts it back in
// the queue and it then shows as sent. The e2e SMTP server refuses 'reject-once' addresses the first
// time only (api/src/testing/smtp.ts). Screenshots at phone and desktop size.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO, apiToken, signInAs } from './support/session.ts';
import { SCREENS_DIR, SIZES } from './support/screens.ts';

test('a refused message shows with its reason, Retry sends it, and it then shows as sent', async ({ page }) => {
  const owner = await apiToken(page, DEMO.owner);
  const me = await (await page.request.get('/api/me', { headers: { Authorization: `Bearer ${owner}` } })).json();
  const address = `reject-once.${Date.now()}@example.test`;
  // Adding a customer queues their invitation; the SMTP server refuses it (550) and it is dead at once.
  const added = await page.request.post('/api/users', {
    headers: { Authorization: `Bearer ${owner}` },
    data: { name: 'Bounce Customer', email: address, role: 'customer' },
  });
  expect(added.status()).toBe(201);
  const customerId = (await added.json()).id as number;

  try {
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/companies/${me.company_id}/messages?state=dead`, {
            headers: { Authorization: `Bearer ${owner}` },
          });
          return ((await res.json()) as { to: string }[]).some((m) => m.to === address);
        },
        { timeout: 30_000 },
      )
      .toBe(true);

    await signInAs(page, DEMO.manager, '/company-settings');
    const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Messages', exact: true }) });
    await expect(card).toBeVisible({ timeout: 20_000 });

    // Only the messages that were not delivered.
    await card.getByLabel('Show').selectOption({ label: 'Not delivered' });
    const item = card.getByRole('listitem').filter({ hasText: address });
    await expect(item).toContainText('Invitation');
    await expect(item).toContainText('Not delivered');
    await expect(item).toContainText('550');
    await expect(card.getByRole('listitem').filter({ hasText: 'Sent' })).toHaveCount(0);

    await item.scrollIntoViewIfNeeded();
    for (const size of ['phone', 'desktop'] as const) {
      await page.setViewportSize(SIZES[size]);
      await page.waitForTimeout(200);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `company settings scrolls horizontally at ${size}`).toBeLessThanOrEqual(0);
      await card.screenshot({ path: path.join(SCREENS_DIR, `messages-card-${size}.png`) });
    }

    // Back to every message, then send it again.
    await card.getByLabel('Show').selectOption({ label: 'All messages' });
    const again = card.getByRole('listitem').filter({ hasText: address });
    await again.getByRole('button', { name: `Retry Invitation to ${address}` }).click();
    await expect(again).toContainText('Sent', { timeout: 30_000 });
    await expect(again.getByRole('button', { name: /Retry/ })).toHaveCount(0);
    await expect(again).not.toContainText('550');
    await card.screenshot({ path: path.join(SCREENS_DIR, 'messages-card-sent-desktop.png') });
  } finally {
    await page.request.delete(`/api/users/${customerId}`, { headers: { Authorization: `Bearer ${owner}` } });
  }
});

test('an employee does not get Company settings, and the messages API refuses them', async ({ page }) => {
  const token = await apiToken(page, DEMO.employee);
  const me = await (await page.request.get('/api/me', { headers: { Authorization: `Bearer ${token}` } })).json();
  const res = await page.request.get(`/api/companies/${me.company_id}/messages`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(403);
  await signInAs(page, DEMO.employee, '/company-settings');
  await expect(page).toHaveURL(/\/calendar/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Messages', exact: true })).toHaveCount(0);
});
