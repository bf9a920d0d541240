import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addBorrower } from '@customer-core/api/testing';
import { routes } from '@customer-core/contracts';
import type { Locator, Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { DESKTOP, collectPageErrors, screenshot, screenshotsAtBothSizes } from './support/browser.js';
import { onPath, requestLink, withText } from './support/getting-back-in.js';
import { linkPath, waitForMail } from './support/mailbox.js';
import { DEMO, openPortal, signInBySession, type Portal } from './support/portal.js';
import { recordToasts, toastLives } from './support/toasts.js';

// The toasts (spec sections 3, 4 and 9) as a borrower meets them: the confirmation of an application
// sent while signed in, and a password reset's (said once, on the sign-in screen). What the borrower
// must act on or remember stays on the page instead: a signature and a completed checkout are
// confirmed inline (apps/web/test/checkout.test.tsx, e2e/loans.test.ts). This file's own server: it
// sends applications and changes the demo borrower's password.

const BASE_MS = 3000;
// How far the page's clock moves at a time while a test watches toasts come and go.
const CLOCK_STEP_MS = 100;
const APPLICANT = 'toasts.applicant@example.com';

const toasts = (page: Page) => page.getByTestId('toast');

/**
 * From the home of a borrower with no loan, by the keyboard only (the mouse stays away from the
 * toasts): the application form, reached in the page (a toast shown stays), sent; back on the home.
 * With the page's clock stopped (`stopped`), each wait moves it on step by step (see runClockUntil).
 */
async function sendApplication(page: Page, businessName: string, stopped = false) {
  const shown = async (locator: Locator, what: string) =>
    stopped ? runClockUntil(page, () => locator.isVisible(), BASE_MS, what) : locator.waitFor();
  const apply = page.getByTestId('loans-empty').getByRole('link', { name: 'Apply for a loan' });
  await shown(apply, 'the home');
  await apply.press('Enter');
  await shown(
    page.getByTestId('start-application').getByRole('heading', { name: 'Apply for a loan' }),
    'the application form',
  );
  await page.getByLabel('Business name').fill(businessName);
  await page.getByLabel('Amount requested').fill('$40,000');
  await page.getByLabel('What is the loan for?').selectOption({ label: 'Inventory' });
  await page.getByRole('button', { name: 'Send application' }).press('Enter');
  await shown(page.getByTestId('application').filter(withText(businessName)), 'the application sent');
}

/**
 * Runs `work` with the page's clock stopped: the toasts' timers then move only with `page.clock.runFor`,
 * so how long a toast stays is checked against the page's own time, whatever the machine is doing.
 */
async function withClockStopped(page: Page, work: () => Promise<void>): Promise<void> {
  // A moment ahead of the page's time: pauseAt only moves the clock forward.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  try {
    await work();
  } finally {
    await page.clock.resume();
  }
}

/**
 * Moves the stopped clock on one step at a time until `done`; fails once `limitMs` of the page's time
 * has passed without it, so a toast that never comes or never goes fails the test instead of hanging it.
 */
async function runClockUntil(page: Page, done: () => Promise<boolean>, limitMs: number, what: string) {
  for (let ran = 0; !(await done()); ran += CLOCK_STEP_MS) {
    if (ran >= limitMs) assert.fail(`${what}: not within ${limitMs} ms of the page's time`);
    await page.clock.runFor(CLOCK_STEP_MS);
  }
}

describe('toasts (browser)', () => {
  let portal: Portal;
  let page: Page;
  let errors: string[];
  before(async () => {
    // Four applications from one address and client: within the limit set here.
    portal = await openPortal({ EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT: '10' });
    await addBorrower(portal.server, {
      login: APPLICANT,
      password: 'Toast-Applicant-2026',
      firstName: 'Tomas',
      lastName: 'Tostado',
    });
    const opened = await portal.newPage();
    page = opened.page;
    // The page's timers are Playwright's from the start, running with real time until a test stops them.
    await opened.context.clock.install();
    errors = collectPageErrors(page);
    await signInBySession(portal, page, { email: APPLICANT });
    await page.getByTestId('loans-empty').waitFor();
  });
  after(() => portal?.close());

  it('stacks two toasts in a row, each lasting one base duration more than the one before', async () => {
    await page.mouse.move(5, DESKTOP.height - 5);
    await recordToasts(page);

    await withClockStopped(page, async () => {
      await sendApplication(page, 'Tostado Bakery', true);
      // The first toast also loads the toasts' renderer, which React shows on a timer of the page's.
      await runClockUntil(
        page,
        () => toasts(page).filter(withText('Application sent')).isVisible(),
        BASE_MS,
        'the first toast shows',
      );
      // A second application at once: a second toast (a moment later, so its key, the time, is its own).
      await page.clock.runFor(CLOCK_STEP_MS);
      await sendApplication(page, 'Tostado Catering', true);
      await runClockUntil(page, async () => (await toasts(page).count()) === 2, BASE_MS, 'the second toast');
      // Both at once, one under the other.
      const [top, below] = await toasts(page).evaluateAll((items) =>
        items.map((item) => item.getBoundingClientRect().top),
      );
      assert.ok(top! < below!, 'stacked');
      assert.deepEqual(
        await toasts(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-status'))),
        ['success', 'success'],
      );
      // The viewport is at the top of the window, under the signed-in header, which it never covers.
      const headerBottom = await page
        .getByTestId('app-header')
        .evaluate((h) => h.getBoundingClientRect().bottom);
      assert.ok(
        top! >= headerBottom && top! < headerBottom + 40,
        `the first toast under the header (${top}px)`,
      );
      await screenshotsAtBothSizes(page, 'toasts-stacked');
      await page.mouse.move(5, DESKTOP.height - 5);

      // The page's time moves on in steps; a toast that closes finishes leaving before the next step.
      const allGone = async () => {
        await page.waitForFunction(
          () => !document.querySelector('[data-testid="toast"][data-state="closed"]'),
        );
        return (await toasts(page).count()) === 0;
      };
      await runClockUntil(page, allGone, 3 * BASE_MS, 'both toasts leave');
    });
    const lives = await toastLives(page);
    assert.deepEqual(
      lives.map((life) => [life.title, life.duration]),
      [
        ['Application sent', BASE_MS],
        ['Application sent', 2 * BASE_MS],
      ],
    );
    const [a, b] = lives as [(typeof lives)[0], (typeof lives)[0]];
    assert.ok(a.goneAt !== null && b.goneAt !== null && a.goneAt < b.goneAt, 'the second outlasts the first');
    for (const life of lives) {
      // Timed by the page's own clock (performance.now, moved only by the test): exact to one step.
      const lasted = life.goneAt! - life.shownAt;
      assert.ok(
        lasted >= life.duration && lasted <= life.duration + CLOCK_STEP_MS,
        `"${life.title}" (${life.duration} ms) was shown for ${lasted} ms of the page's time`,
      );
    }
  });

  it('moves the focus to the toasts on F8 (they wait meanwhile), and closes one with its dismiss button', async () => {
    await page.mouse.move(5, DESKTOP.height - 5);
    await sendApplication(page, 'Tostado Deli');
    const toast = toasts(page).filter(withText('Application sent'));
    await toast.waitFor();
    assert.equal(await toast.getAttribute('data-duration'), String(BASE_MS), 'alone: one base duration');

    await page.keyboard.press('F8');
    const focus = await page.evaluate(() => ({
      viewport: document.activeElement?.getAttribute('data-testid'),
      region: document.activeElement?.closest('[role="region"]')?.getAttribute('aria-label'),
    }));
    assert.deepEqual(focus, { viewport: 'toast-viewport', region: 'Notifications (F8)' });
    // With the focus on them, the toasts wait to be read, however long that takes.
    await withClockStopped(page, async () => {
      await page.clock.runFor(3 * BASE_MS);
      assert.equal(await toast.getAttribute('data-state'), 'open', 'still there');
    });
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(() => document.activeElement?.closest('[data-testid="toast"]') !== null),
      true,
    );
    await assertAccessible(page, 'toast with the focus');
    await screenshot(page, 'toast-focused');

    const dismiss = toast.getByRole('button', { name: 'Dismiss notification' });
    await dismiss.click();
    await toast.waitFor({ state: 'detached' });
    assert.equal(await toasts(page).count(), 0);
  });

  it('closes a toast swiped up past 50 px, and keeps one swiped less', async () => {
    await page.mouse.move(5, DESKTOP.height - 5);
    await sendApplication(page, 'Tostado Events');
    const toast = toasts(page).filter(withText('Application sent'));
    await toast.waitFor();

    const swipe = async (distance: number) => {
      // From where the toast rests: measured while it still springs back from a swipe that fell short,
      // the press lands a pixel inside its top edge, and the first move upwards leaves it before the
      // swipe has begun (the toast then never hears of it).
      await toast.evaluate((element) => Promise.all(element.getAnimations().map((a) => a.finished)));
      const box = (await toast.boundingBox())!;
      const x = box.x + box.width / 3;
      const y = box.y + box.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let step = 1; step <= 10; step += 1) await page.mouse.move(x, y - (distance * step) / 10);
      await page.mouse.up();
    };
    // Short of the threshold: it springs back (and, with the pointer on it, waits).
    await swipe(30);
    await toast.and(page.locator('[data-swipe="cancel"]')).waitFor();
    assert.equal(await toast.getAttribute('data-state'), 'open', 'a 30 px swipe keeps it');
    await swipe(80);
    await toast.waitFor({ state: 'detached', timeout: 2000 });
    await page.getByTestId('application').filter(withText('Tostado Events')).waitFor();
    assert.deepEqual(errors, []);
  });

  it('confirms a password reset once: the sign-in notice, no toast saying it again', async () => {
    const { page: other } = await portal.newPage();
    await requestLink(other, routes.forgotPassword.path, DEMO.email, 'Send reset link');
    await other.goto(linkPath(await waitForMail(portal.baseUrl, DEMO.email), '/auth/password-reset/'));
    await other.getByLabel('New password', { exact: true }).fill('Toast-Reset-2026');
    await other.getByLabel('Confirm new password').fill('Toast-Reset-2026');
    await other.getByRole('button', { name: 'Save new password' }).click();
    await other.waitForURL(onPath(routes.signIn.path));
    await other
      .getByRole('status')
      .filter(withText('Your password has been changed. Sign in with your new password.'))
      .waitFor();
    assert.equal(await toasts(other).count(), 0);
    // (The sign-in screen with this notice: swept in getting-back-in.test.ts.)
    await screenshot(other, 'sign-in-password-changed-once');
  });
});
