import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * Zero axe-core violations of the WCAG 2.2 A/AA rules on the page as it is once its running animations
 * (a toast fading in) have finished: mid-fade, text is faint and the contrast check would depend on timing.
 * While axe runs, the page is shown as to a borrower who asked for reduced motion, so that a toast
 * appearing meanwhile (one queued for the page just opened) shows at once, without a fade.
 */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // The signed-in header stays on top as the page scrolls: a control scrolled under it counts to axe's
  // target-size rule as covered, though the borrower scrolls it back. Checked from the page's top (where
  // nothing is under the header), then put back where it was.
  const scrolledTo = await page.evaluate(() => {
    const y = window.scrollY;
    window.scrollTo(0, 0);
    return y;
  });
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => {})),
    ),
  );
  const { violations } = await new AxeBuilder({ page })
    .withTags(WCAG_22_AA)
    .analyze()
    .finally(async () => {
      await page.evaluate((y) => window.scrollTo(0, y), scrolledTo);
      await page.emulateMedia({ reducedMotion: null });
    });
  const summary = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  assert.deepEqual(summary, [], `${label} has accessibility violations`);
}
