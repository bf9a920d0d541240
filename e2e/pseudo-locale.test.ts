import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { PHONE, collectPageErrors, screenshot } from './support/browser.js';
import { OPERATOR_ENV, borrowerLoans } from './support/loans.js';
import { chooseLanguageBeforehand, openPortal, signInBySession, type Portal } from './support/portal.js';

// The pseudo-locale (en-XA: every letter accented, every text a third longer) walked on a phone's
// width: text that stays plain English is not in the catalogue, and a screen that only fits English
// shows text clipped or pushed out of the screen. Longer words than Spanish's, on purpose.

/** What on the page shows text cut off or outside the screen, and what was left plain English. */
function layoutProblems(): string[] {
  const problems: string[] = [];
  const width = window.innerWidth;
  if (document.documentElement.scrollWidth > width + 1)
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px on ${width}px`);
  for (const el of document.querySelectorAll('body *')) {
    const ownText = [...el.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent ?? '')
      .join('')
      .trim();
    if (!ownText) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    // (No helper functions in here: the page runs this function's text alone.)
    const label = `<${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''}> "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    // Not shown, or only to screen readers (a 1px clipped box).
    if (style.display === 'none' || style.visibility === 'hidden' || box.width <= 1 || box.height <= 1)
      continue;
    if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1)
      problems.push(`${label} is cut off: ${el.scrollWidth}px of text in ${el.clientWidth}px`);
    if (box.right > width + 1 || box.left < -1)
      problems.push(
        `${label} runs out of the screen: ${Math.round(box.left)}px to ${Math.round(box.right)}px`,
      );
    // A pseudo-localized text has accents; plain ASCII letters only means it was never in the catalogue.
    // (Not a language's own name, nor a date: Intl writes those, in the pseudo-locale's English.)
    if (/[a-z]{3}/i.test(ownText) && !/[^\p{ASCII}]/u.test(ownText) && !el.closest('[lang]:not(html), time'))
      problems.push(`${label} is not in the catalogue`);
  }
  return problems;
}

describe('the pseudo-locale on a phone (browser)', () => {
  let portal: Portal;
  let page: Page;
  let errors: string[];
  before(async () => {
    portal = await openPortal(OPERATOR_ENV);
    ({ page } = await portal.newPage());
    errors = collectPageErrors(page);
    await page.setViewportSize(PHONE);
  });
  after(() => portal?.close());

  // The lender's name, a loan's product and reference, a document's title, the borrower's name and
  // address are data, not the portal's words.
  const DATA =
    /"(Main Street Funding|Equipment financing|Working capital|Term loan|Business line of credit|Loan agreement|Dana Demo|DD|LN-DEMO-\d|\S+@example\.com)/;

  async function walk(path: string, ready: string, shot: string, allowed: RegExp[] = []) {
    await page.goto(path);
    await page.getByTestId(ready).first().waitFor();
    await page.evaluate(() => document.fonts.ready);
    await screenshot(page, `pseudo-${shot}`);
    const found = (await page.evaluate(layoutProblems)).filter(
      (problem) =>
        !/ is not in the catalogue$/.test(problem) ||
        ![DATA, ...allowed].some((allow) => allow.test(problem)),
    );
    assert.deepEqual(found, [], `${path} in the pseudo-locale at ${PHONE.width}px`);
  }

  it('fits every public screen at 390px, every word from the catalogue', async () => {
    await chooseLanguageBeforehand(page, 'en-XA');
    await walk(routes.signIn.path, 'sign-in', 'sign-in');
    await walk(routes.forgotPassword.path, 'forgot-password', 'forgot-password');
    await walk(routes.magicLink.path, 'magic-link', 'magic-link');
    await walk(routes.startApplication.path, 'start-application', 'start-application');
    await walk(routes.about.path, 'about', 'about', [/ is not in the catalogue$/]);
    assert.deepEqual(errors, []);
  });

  it('fits every signed-in screen at 390px, every word from the catalogue', async () => {
    await signInBySession(portal, page);
    await page.getByTestId('loan-summary').first().waitFor();
    const loans = await borrowerLoans(page);
    const pastDue = loans.find((loan) => loan.reference === 'LN-DEMO-2');
    const active = loans.find((loan) => loan.reference === 'LN-DEMO-1');
    assert.ok(pastDue && active, 'the demo borrower’s loans');
    await walk(routes.dashboard.path, 'loan-summary', 'home');
    await walk(routes.loans.path, 'loan-card', 'loans');
    await walk(routes.loanDetails.href({ loanId: pastDue.id }), 'overdue-notice', 'loan-past-due');
    await walk(routes.documents.path, 'documents-loan', 'documents');
    await walk(routes.loanCheckout.href({ loanId: active.id }), 'checkout-document', 'checkout');
    await walk(routes.account.path, 'account-language', 'account');
    assert.deepEqual(errors, []);
  });
});
