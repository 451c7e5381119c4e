// The accessibility check of the browser specs: no serious or critical axe-core violation on the page
// as it is now (optionally only in one part of it, or only against the WCAG 2.1 A/AA rules).
import { expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

export async function expectNoSeriousAxe(page: Page, what: string, opts: { include?: string; wcag21aa?: boolean } = {}): Promise<void> {
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
