import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';

/** WCAG's minimum contrast of normal-size text (1.4.3, AA). */
export const MIN_TEXT_CONTRAST = 4.5;

interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

function parseColour(value: string): Rgba {
  const [r = 0, g = 0, b = 0, a = 1] = value.match(/[\d.]+/g)?.map(Number) ?? [];
  return { r, g, b, a };
}

function luminance({ r, g, b }: Rgba): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG's contrast ratio of a text colour (alpha blended) on an opaque background. */
export function contrastRatio(textColour: string, backgroundColour: string): number {
  const text = parseColour(textColour);
  const background = parseColour(backgroundColour);
  const blend = (c: 'r' | 'g' | 'b') => text[c] * text.a + background[c] * (1 - text.a);
  const [light, dark] = [
    luminance({ r: blend('r'), g: blend('g'), b: blend('b'), a: 1 }),
    luminance(background),
  ].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/**
 * The contrast of an element's text against the background behind it, from its computed styles once
 * its transitions have run: the first background up the tree that is not transparent.
 */
export async function textContrast(element: Locator): Promise<number> {
  // No named functions inside: the page gets the source as it is, without tsx's helpers.
  const { text, background } = await element.evaluate(async (node) => {
    await Promise.all(node.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => {})));
    let at: Element | null = node;
    let background = 'rgb(255, 255, 255)';
    for (; at; at = at.parentElement) {
      const colour = getComputedStyle(at).backgroundColor;
      if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') {
        background = colour;
        break;
      }
    }
    return { text: getComputedStyle(node).color, background };
  });
  return contrastRatio(text, background);
}

/** Hovers an action as a mouse user does and checks its label stays readable, resting and hovered. */
export async function assertReadableOnHover(action: Locator, label: string): Promise<void> {
  await action.scrollIntoViewIfNeeded();
  const resting = await textContrast(action);
  assert.ok(resting >= MIN_TEXT_CONTRAST, `${label}: resting contrast ${resting.toFixed(2)}:1`);
  await action.hover();
  const hovered = await textContrast(action);
  assert.ok(hovered >= MIN_TEXT_CONTRAST, `${label}: hovered contrast ${hovered.toFixed(2)}:1`);
}
