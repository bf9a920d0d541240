import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeBuilder } from '@axe-core/playwright';
import type { Frame, JSHandle, Page } from 'playwright-core';

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
type RunOptions = Parameters<AxeBuilder['options']>[0];
/** One frame's part of a run, as axe.runPartial gives it and axe.finishRun takes it. */
type PartialResult = object;
/** A frame's part, or null for a frame that could not be run. */
type Part = PartialResult | null;
/** The page's axe, as far as these calls go. */
interface PageAxe {
  runPartial(context: unknown, options: RunOptions): Promise<PartialResult>;
  finishRun(parts: Part[], options: RunOptions): Promise<AxeResults>;
  utils: {
    getFrameContexts(context: unknown): Array<{ frameSelector: unknown; frameContext: unknown }>;
    shadowSelect(selector: unknown): Element;
  };
}

// The axe-core that @axe-core/playwright runs (its own dependency), put in the page as its minified
// build: the same code in 0.6 MB instead of the 1.3 MB of `axe.source`, half the text to carry to the
// page and parse there in every document swept.
const AXE_SOURCE = readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve(
    'axe-core/axe.min.js',
  ),
  'utf8',
);

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
// The violations in full. Of the other outcomes, which no sweep reads, finishRun's report keeps one node
// per rule (runPartial ignores the option: a frame's part holds every node axe looked at).
const OPTIONS: RunOptions = { runOnly: { type: 'tag', values: WCAG_22_AA }, resultTypes: ['violations'] };

// axe-core run as @axe-core/playwright's AxeBuilder runs it (axe.runPartial in the page and in each of
// its frames, axe.finishRun over the parts), without what AxeBuilder pays on every sweep: axe evaluated
// again in every frame, a blank page opened to finish the run in, and the page's own part (every node
// axe looked at, a few hundred kB) carried to the test and back. axe is put in a frame once per
// document; the page's part stays in the page, where the run is finished (no script of the page's own
// disturbs it), so only the frames' parts (if any) and the violations cross to the test.
// (Plain strings and arrow functions for the page: tsx's helpers are not there.)

/** axe in the frame, unless its document has it already. */
async function withAxe(frame: Frame): Promise<void> {
  if (await frame.evaluate('typeof window.axe?.runPartial === "function"')) return;
  await frame.evaluate(AXE_SOURCE);
}

/** The frame's own part, as `run` takes it, and the parts of the frames inside it, in axe's order. */
async function ownAndInnerParts<Own>(
  frame: Frame,
  context: unknown,
  run: () => Promise<Own>,
): Promise<[Own, Part[]]> {
  await withAxe(frame);
  const frameContexts = await frame.evaluate(
    (of) => (window as unknown as { axe: PageAxe }).axe.utils.getFrameContexts(of),
    context,
  );
  const own = run();
  // Awaited once the frames inside have their parts: meanwhile its failure is not yet unhandled.
  own.catch(() => {});
  const inner: Part[] = [];
  for (const { frameSelector, frameContext } of frameContexts) {
    let parts: Part[] = [null];
    try {
      const element = (
        await frame.evaluateHandle(
          (selector) => (window as unknown as { axe: PageAxe }).axe.utils.shadowSelect(selector),
          frameSelector,
        )
      ).asElement();
      const childFrame = await element?.contentFrame();
      if (childFrame) parts = await partsOf(childFrame, frameContext);
    } catch {
      // A frame gone or not reachable: reported by axe's frame-tested rule, as AxeBuilder leaves it.
    }
    inner.push(...parts);
  }
  return [await own, inner];
}

/** A frame's part and its frames' parts, brought to the test for the page's finishRun. */
async function partsOf(frame: Frame, context: unknown): Promise<Part[]> {
  const [own, inner] = await ownAndInnerParts(frame, context, () =>
    frame.evaluate(([of, options]) => (window as unknown as { axe: PageAxe }).axe.runPartial(of, options), [
      context,
      OPTIONS,
    ] as const),
  );
  return [own, ...inner];
}

async function violationsOf(page: Page): Promise<AxeResults['violations']> {
  const top = page.mainFrame();
  const context = { include: [], exclude: [] };
  const [own, inner] = await ownAndInnerParts(top, context, (): Promise<JSHandle<PartialResult>> =>
    top.evaluateHandle(
      ([of, options]) => (window as unknown as { axe: PageAxe }).axe.runPartial(of, options),
      [context, OPTIONS] as const,
    ),
  );
  try {
    return await top.evaluate(
      async ([ownPart, innerParts, options]) =>
        (await (window as unknown as { axe: PageAxe }).axe.finishRun([ownPart, ...innerParts], options))
          .violations,
      [own, inner, OPTIONS] as const,
    );
  } finally {
    await own.dispose();
  }
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
  const scrolledTo = await page.evaluate(async () => {
    const y = window.scrollY;
    window.scrollTo(0, 0);
    await Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => {})),
    );
    return y;
  });
  const violations = await violationsOf(page).finally(async () => {
    await page.evaluate((y) => window.scrollTo(0, y), scrolledTo);
    await page.emulateMedia({ reducedMotion: null });
  });
  const summary = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  assert.deepEqual(summary, [], `${label} has accessibility violations`);
}
