import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { AxeBuilder } from '@axe-core/playwright';
import type { Frame, Page } from 'playwright-core';

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
type RunOptions = Parameters<AxeBuilder['options']>[0];
/** One frame's part of a run, as axe.runPartial gives it and axe.finishRun takes it. */
type PartialResult = object;
/** The page's axe, as far as these calls go. */
interface PageAxe {
  runPartial(context: unknown, options: RunOptions): Promise<PartialResult>;
  finishRun(parts: Array<PartialResult | null>, options: RunOptions): Promise<AxeResults>;
  utils: {
    getFrameContexts(context: unknown): Array<{ frameSelector: unknown; frameContext: unknown }>;
    shadowSelect(selector: unknown): Element;
  };
}

// The axe-core that @axe-core/playwright runs (its own dependency), as the source put in the page.
const AXE_SOURCE = (
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'))('axe-core') as {
    source: string;
  }
).source;

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const OPTIONS: RunOptions = { runOnly: { type: 'tag', values: WCAG_22_AA } };

// axe-core run as @axe-core/playwright's AxeBuilder runs it (axe.runPartial in the page and in each of
// its frames, axe.finishRun over the parts), without what AxeBuilder pays on every sweep: axe's 550 kB
// evaluated again in every frame, and a blank page opened to finish the run in. axe is put in a frame
// once per document, and the run finished in the page itself, which no script of its own disturbs.
// (Plain strings and arrow functions for the page: tsx's helpers are not there.)

/** axe in the frame, unless its document has it already. */
async function withAxe(frame: Frame): Promise<void> {
  if (await frame.evaluate('typeof window.axe?.runPartial === "function"')) return;
  await frame.evaluate(AXE_SOURCE);
}

/** The frame's part of the run, and its frames' parts (null for a frame that could not be run). */
async function partsOf(frame: Frame, context: unknown): Promise<Array<PartialResult | null>> {
  await withAxe(frame);
  const frameContexts = await frame.evaluate(
    (of) => (window as unknown as { axe: PageAxe }).axe.utils.getFrameContexts(of),
    context,
  );
  const own = frame.evaluate(
    ([of, options]) => (window as unknown as { axe: PageAxe }).axe.runPartial(of, options),
    [context, OPTIONS] as const,
  );
  // Awaited once the frames inside have their parts: meanwhile its failure is not yet unhandled.
  own.catch(() => {});
  const children: Array<Array<PartialResult | null>> = [];
  for (const { frameSelector, frameContext } of frameContexts) {
    let child: Array<PartialResult | null> = [null];
    try {
      const element = (
        await frame.evaluateHandle(
          (selector) => (window as unknown as { axe: PageAxe }).axe.utils.shadowSelect(selector),
          frameSelector,
        )
      ).asElement();
      const childFrame = await element?.contentFrame();
      if (childFrame) child = await partsOf(childFrame, frameContext);
    } catch {
      // A frame gone or not reachable: reported by axe's frame-tested rule, as AxeBuilder leaves it.
    }
    children.push(child);
  }
  return [await own, ...children.flat()];
}

async function axeResults(page: Page): Promise<AxeResults> {
  const parts = await partsOf(page.mainFrame(), { include: [], exclude: [] });
  return page.evaluate(
    ([partials, options]) => (window as unknown as { axe: PageAxe }).axe.finishRun(partials, options),
    [parts, OPTIONS] as const,
  );
}

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
  const { violations } = await axeResults(page).finally(async () => {
    await page.evaluate((y) => window.scrollTo(0, y), scrolledTo);
    await page.emulateMedia({ reducedMotion: null });
  });
  const summary = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  assert.deepEqual(summary, [], `${label} has accessibility violations`);
}
