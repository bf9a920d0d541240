import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ACCESS_TOKEN_STORAGE_KEY,
  StoredProfileSchema,
  authEndpoints,
  decodeAccessToken,
  routes,
} from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshot } from './support/browser.js';
import {
  INVALID_LINK,
  LINK_LIMITS_ENV,
  lenderName,
  onPath,
  requestLink,
  withText,
} from './support/getting-back-in.js';
import { inbox, linkPath, waitForMail } from './support/mailbox.js';
import { DEMO, openPortal, readPortalStorage, submitSignIn, type Portal } from './support/portal.js';

// Sign-in by e-mailed link ("Email Only Sign In"), against the real server and its dev mailbox.

describe('sign-in by emailed link (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal(LINK_LIMITS_ENV);
  });
  after(() => portal?.close());

  /** Asks for a sign-in link for the demo borrower and answers the path of the new link. */
  async function newSignInLink(page: Page): Promise<string> {
    const count = (await inbox(portal.baseUrl, DEMO.email)).length;
    await requestLink(page, routes.magicLink.path, DEMO.email, 'Send sign-in link');
    return linkPath(await waitForMail(portal.baseUrl, DEMO.email, count + 1), '/auth/magic-link-landing/');
  }

  it('asks for the address from "Email Only Sign In" and confirms whatever the address', async () => {
    const { page } = await portal.newPage();
    await page.goto(routes.signIn.path);
    await page.getByRole('button', { name: 'Email Only Sign In' }).click();
    await page.waitForURL(onPath(routes.magicLink.path));
    await page.getByRole('heading', { name: 'Sign in with an email link' }).waitFor();
    await assertAccessible(page, 'magic link');
    await screenshot(page, 'magic-link');

    await page.getByRole('button', { name: 'Send sign-in link' }).click();
    await page.getByText('Email is required.').waitFor();
    await assertAccessible(page, 'magic link with an error');

    // (The confirmation's words: apps/web/test/getting-back-in.test.tsx.)
    await page.getByLabel('Email', { exact: true }).fill('someone-unknown@example.com');
    await page.getByRole('button', { name: 'Send sign-in link' }).click();
    const sent = page.getByTestId('magic-link-sent');
    await sent.getByRole('heading', { name: 'Check your email' }).waitFor();
    await assertAccessible(page, 'magic link confirmation');
    await screenshot(page, 'magic-link-sent');
    const unknownConfirmation = await sent.innerText();

    await sent.getByRole('link', { name: 'Back to sign in' }).click();
    await page.waitForURL(onPath(routes.signIn.path));
    // The demo borrower gets the very same confirmation (no enumeration).
    await requestLink(page, routes.magicLink.path, DEMO.email, 'Send sign-in link');
    assert.equal(await sent.innerText(), unknownConfirmation);
  });

  it('signs in from the link: opening spends nothing, Continue does, both storage keys as password sign-in', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    const landingPath = await newSignInLink(page);

    // Opened twice (a mail scanner, then the borrower): no call is made until Continue.
    const spent: string[] = [];
    const scanner = (await portal.newPage()).page;
    for (const tab of [scanner, page]) {
      tab.on('request', (r) => r.url().endsWith(authEndpoints.magicLinkLogin.path) && spent.push(r.url()));
    }
    await scanner.goto(landingPath);
    await scanner.getByRole('heading', { name: /^Sign in to / }).waitFor();
    await scanner.reload();
    await scanner.getByRole('button', { name: 'Continue' }).waitFor();
    await page.goto(landingPath);
    const heading = page.getByRole('heading', { name: /^Sign in to / });
    await heading.waitFor();
    assert.equal(await heading.textContent(), `Sign in to ${await lenderName(page)}`);
    assert.deepEqual(spent, [], 'opening the page calls nothing');
    await assertAccessible(page, 'magic link landing');
    await screenshot(page, 'magic-link-landing');

    // The first Continue finds no server: a banner (its words and dismissal: getting-back-in.test.tsx),
    // the link unspent; the next one signs in.
    await page.route(`**${authEndpoints.magicLinkLogin.path}`, (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter(withText('We couldn’t reach our server.')).waitFor();
    await assertAccessible(page, 'magic link landing with a banner');
    await screenshot(page, 'magic-link-landing-error');
    await page.unroute(`**${authEndpoints.magicLinkLogin.path}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });
    await page.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();
    assert.equal(spent.length, 2, 'the failed call, then the one that signed in');

    const stored = await readPortalStorage(page);
    const token = decodeAccessToken(stored.token);
    assert.ok(token?.isValid, 'mf_access_token holds a valid product token');
    assert.equal(token.email, DEMO.email);
    const profile = StoredProfileSchema.parse(JSON.parse(stored.profile ?? 'null'));
    assert.equal(profile.login, DEMO.email);
    assert.equal(profile.firstName, DEMO.firstName);

    // The very profile a password sign-in stores.
    const viaPassword = (await portal.newPage()).page;
    await viaPassword.goto(routes.signIn.path);
    await submitSignIn(viaPassword, DEMO.email, DEMO.password);
    await viaPassword.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });
    assert.deepEqual(
      JSON.parse(stored.profile ?? 'null'),
      JSON.parse((await readPortalStorage(viaPassword)).profile!),
    );
    // Still signed in after a reload: the identity provider's session is there too.
    await page.reload();
    await page.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();
    assert.deepEqual(errors, []);

    // The scanner's copy of the page cannot use the link any more: nothing stored, and the way to a new
    // one (the view's words: getting-back-in.test.tsx).
    await scanner.getByRole('button', { name: 'Continue' }).click();
    await scanner.getByText(INVALID_LINK).waitFor();
    assert.deepEqual(await readPortalStorage(scanner), { token: null, profile: null });
    await assertAccessible(scanner, 'magic link landing, used link');
    await screenshot(scanner, 'magic-link-landing-invalid-link');
    await scanner.getByRole('link', { name: 'Send me a new sign-in link' }).click();
    await scanner.getByRole('heading', { name: 'Sign in with an email link' }).waitFor();
  });

  it('takes the borrower where they were going, even in another tab, and keeps a tab open elsewhere', async () => {
    const { context, page } = await portal.newPage();
    // Sent to sign-in from a guarded address, the borrower asks for a link there.
    await page.goto(`${routes.dashboard.path}?view=summary`);
    await page.waitForURL(onPath(routes.signIn.path));
    await page.getByRole('button', { name: 'Email Only Sign In' }).click();
    await page.waitForURL(onPath(routes.magicLink.path));
    const landingPath = await newSignInLink(page);

    // The first tab hears of the session the other tab stores (a storage event); its own listeners,
    // added before this one, have handled the event by the time this one resolves.
    const heard = page.evaluate(
      (key) =>
        new Promise<void>((resolve) =>
          window.addEventListener('storage', (event) => event.key === key && resolve()),
        ),
      ACCESS_TOKEN_STORAGE_KEY,
    );
    // The link opens in a new tab of the same browser; the first tab stays on the confirmation.
    const tab = await context.newPage();
    await tab.goto(landingPath);
    await tab.getByRole('button', { name: 'Continue' }).click();
    await tab.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });
    assert.equal(new URL(tab.url()).search, '?view=summary');
    await tab.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();

    // The other tab saw the new session arrive and did not end it.
    await heard;
    assert.ok((await readPortalStorage(tab)).token, 'the session is still stored');
    await page.goto(routes.dashboard.path);
    await page.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();
  });
});
