import type { Page } from 'playwright-core';

// The page's toasts as they come and go, timed in the page itself (a MutationObserver), so that the
// test's own polling does not blur the durations it measures.

export interface ToastLife {
  title: string;
  status: string | null;
  /** The toast's own duration, as the page gave it to Radix (data-duration). */
  duration: number;
  shownAt: number;
  goneAt: number | null;
}

// Plain JavaScript: functions compiled by tsx carry helpers the page does not have.
const RECORDER = `(() => {
  const lives = [];
  const seen = new Map();
  window.__toastLives = lives;
  const toastsIn = (node) =>
    node instanceof Element
      ? [...(node.matches('[data-testid="toast"]') ? [node] : []), ...node.querySelectorAll('[data-testid="toast"]')]
      : [];
  new MutationObserver((mutations) => {
    const now = performance.now();
    for (const mutation of mutations) {
      for (const node of mutation.addedNodes) {
        for (const toast of toastsIn(node)) {
          if (seen.has(toast)) continue;
          const life = {
            title: toast.querySelector('.toast__title')?.textContent ?? '',
            status: toast.getAttribute('data-status'),
            duration: Number(toast.getAttribute('data-duration')),
            shownAt: now,
            goneAt: null,
          };
          seen.set(toast, life);
          lives.push(life);
        }
      }
      for (const node of mutation.removedNodes) {
        for (const toast of toastsIn(node)) {
          const life = seen.get(toast);
          if (life && life.goneAt === null) life.goneAt = now;
        }
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
})()`;

/** Starts recording (before the page adds the toasts to time). */
export async function recordToasts(page: Page): Promise<void> {
  await page.evaluate(RECORDER);
}

export function toastLives(page: Page): Promise<ToastLife[]> {
  return page.evaluate<ToastLife[]>('window.__toastLives ?? []');
}
