// The accessibility check of the browser specs: no serious or critical axe-core violation on the page
// as it is now (optionally only in one part of it, or only against the WCAG 2.1 A/AA rules).
import { expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

export async function expectNoSeriousAxe(page: Page, what: string, opts: { include?: string; wcag21aa?: boolean } = {}): Promise<void> {
  // The page as it settles: a colour still in its CSS transition (a date chip just chosen turns its
  // background from white to the brand colour in 0.15 s, its text white at once) is measured half-way
  // by the contrast rule. Every animation with an end is awaited first; endless ones (spinners) are not.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number(a.effect?.getComputedTiming().endTime) !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  let builder = new AxeBuilder({ page });
  if (opts.include) builder = builder.include(opts.include);
  if (opts.wcag21aa) builder = builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const { violations } = await builder.analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `${what}: serious or critical accessibility problems`,
  ).toEqual([]);
}
