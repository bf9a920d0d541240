import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page, Request } from 'playwright-core';
import {
  decodeAccessToken,
  loanEndpoints,
  passkeySignInPaths,
  routes,
  SIGN_IN_LOCKOUT_FAILURES,
  StoredProfileSchema,
} from '@customer-core/contracts';
import { addBorrower } from '@customer-core/api/testing';
import { assertAccessible } from './support/accessibility.js';
import { focusReturnsTo, screenshot, shownText } from './support/browser.js';
import { captureBothSizes } from './support/second-factor.js';
import {
  DEMO,
  openPortal,
  readPortalStorage,
  signInAsDemo,
  submitSignIn,
  type Portal,
  signOutFromMenu,
} from './support/portal.js';

// One server for the file: each test has a browser context of its own, and a test that signs in
// signs out again or ends with its context.
describe('sign-in screens (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal();
  });
  after(() => portal?.close());

  describe('signing in (browser)', () => {
    it('sends / to the sign-in screen: the skip link first; its form at rest, with errors and refusing a wrong password, each swept once', async () => {
      // (The screen's words and the form's messages: apps/web/test/sign-in-form.test.tsx.)
      const { page } = await portal.newPage();
      const consoleErrors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
      await page.goto('/');
      await page.waitForURL((url) => url.pathname === routes.signIn.path);
      await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
      // The skip link is the first thing a keyboard reaches.
      await page.keyboard.press('Tab');
      assert.match(
        (await page.evaluate(() => document.activeElement?.textContent)) ?? '',
        /skip to main content/i,
      );
      await assertAccessible(page, 'sign-in');
      await screenshot(page, 'sign-in');

      await page.getByRole('button', { name: 'LOGIN' }).click();
      await page.getByText('Email is required.').waitFor();
      await assertAccessible(page, 'sign-in with errors');
      await screenshot(page, 'sign-in-validation');

      // The identity provider refuses a wrong password: the banner, the failure logged, nothing stored.
      await submitSignIn(page, DEMO.email, 'Wrong-Password-1');
      const banner = page.getByRole('alert').filter({ hasText: 'User could not be authenticated.' });
      await banner.waitFor();
      // The focus on the message (the button it left was disabled while the form was sent).
      await focusReturnsTo(banner, 'the focus is on the refusal');
      assert.ok(
        consoleErrors.some((e) => e.includes('Sign-in error:')),
        'the failure is logged to the console',
      );
      assert.deepEqual(await readPortalStorage(page), { token: null, profile: null });
      await assertAccessible(page, 'sign-in with banner');
      await screenshot(page, 'sign-in-banner');
      await banner.getByRole('button', { name: /dismiss/i }).click();
      await banner.waitFor({ state: 'detached' });
    });

    it('moves nothing under the form when the interactive form takes over from the first paint', async () => {
      const { page } = await portal.newPage();
      // The interactive form's chunk is held back until the first paint has been measured.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/assets/sign-in-form-*.js', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(routes.signIn.path);
      const emailOnly = page.getByRole('button', { name: 'Email Only Sign In' });
      await page.locator('form[data-ready="false"]').waitFor();
      const before = await emailOnly.boundingBox();
      const passkey = page.getByTestId('passkey-sign-in');
      assert.equal(await passkey.count(), 1, 'the first paint has the passkey button');
      assert.equal(await passkey.isDisabled(), true, 'the passkey button waits, as LOGIN does');
      release();
      await page.locator('form[data-ready="true"]').waitFor();
      assert.deepEqual(await emailOnly.boundingBox(), before);
      assert.equal(await passkey.isEnabled(), true);
    });

    it('signs the demo borrower in: both storage keys, the signed-in home with its loans asked for once and before the callback had its tokens, still there after a reload, the callback’s greeting, then out', async () => {
      const { page } = await portal.newPage();
      const loansAsked: string[] = [];
      let loansSeen!: () => void;
      const loansRequested = new Promise<void>((resolve) => (loansSeen = resolve));
      const onRequest = (request: Request) => {
        if (new URL(request.url()).pathname !== loanEndpoints.loans.path) return;
        loansAsked.push(new URL(page.url()).pathname);
        loansSeen();
      };
      page.on('request', onRequest);
      // The callback's code exchange waits for the loans to be asked for: asked only after it, they
      // never would be, and the home would never show.
      const tokenCall = '**/oauth2/default/v1/token';
      await page.route(tokenCall, async (route) => {
        if (new URL(page.url()).pathname === routes.loginCallback.path) await loansRequested;
        await route.continue();
      });
      await signInAsDemo(page);
      await page.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();
      await page.getByText(DEMO.email).first().waitFor();
      await page.getByTestId('loan-summary').first().waitFor();
      assert.deepEqual(
        loansAsked,
        [routes.loginCallback.path],
        'asked once, from the callback, taken by the home',
      );
      page.off('request', onRequest);
      await page.unroute(tokenCall);

      const stored = await readPortalStorage(page);
      const token = decodeAccessToken(stored.token);
      assert.ok(token?.isValid, 'mf_access_token holds a valid product token');
      assert.equal(token.email, DEMO.email);
      assert.equal(token.issuer, portal.baseUrl);
      const profile = StoredProfileSchema.parse(JSON.parse(stored.profile ?? 'null'));
      assert.equal(profile.firstName, DEMO.firstName);
      assert.equal(profile.login, DEMO.email);
      // (The home's accessibility: the loans tests check it, with the loans loaded.)
      await screenshot(page, 'dashboard');

      await page.reload();
      await page.getByRole('heading', { name: new RegExp(DEMO.firstName) }).waitFor();
      assert.equal(new URL(page.url()).pathname, routes.dashboard.path);

      // The callback screen greets a signed-in borrower by the identity provider's name.
      await page.goto(routes.loginCallback.path);
      await page.getByText(`Welcome, ${DEMO.firstName} ${DEMO.lastName}!`).waitFor({ timeout: 15_000 });
      await assertAccessible(page, 'callback');

      // Already signed in: the sign-in screen sends the borrower home.
      await page.goto(routes.signIn.path);
      await page.waitForURL((url) => url.pathname === routes.dashboard.path);

      await signOutFromMenu(page);
      await page.waitForURL((url) => url.pathname === routes.signIn.path);
      // Sign-in confirms it, in its notice (its words and role: sign-in-form.test.tsx).
      await page.getByTestId('signed-out-notice').waitFor();
      await assertAccessible(page, 'sign-in after signing out');
      await screenshot(page, 'sign-in-signed-out');
      assert.deepEqual(await readPortalStorage(page), { token: null, profile: null });
      const oktaTokens = await page.evaluate(() => localStorage.getItem('okta-token-storage'));
      assert.ok(!oktaTokens || oktaTokens === '{}', 'the token manager is cleared');
      // Signed out for real: the guarded home sends the visitor to sign-in again.
      await page.goto(routes.dashboard.path);
      await page.waitForURL((url) => url.pathname === routes.signIn.path);
    });

    it('says nothing of passkeys where the browser cannot offer them, also when it says so after a refused password', async () => {
      const { page } = await portal.newPage();
      // The passkey options held until the password was refused: the e-mail field's suggestions, asked
      // for as the field got the focus, settle after the refusal, as on a busy server.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(`**${passkeySignInPaths.options}`, async (route) => {
        await released;
        await route.continue();
      });
      await page.goto(routes.signIn.path);
      await page.locator('form[data-ready="true"]').waitFor();
      await submitSignIn(page, `nobody.${Date.now()}@example.com`, 'Wrong-Password-1');
      const alerts = page.getByRole('alert');
      await alerts.filter({ hasText: 'User could not be authenticated.' }).waitFor();
      release();
      // This Chromium has nowhere to keep passkeys: it refuses to offer them, and the field stops asking.
      await page.locator('#sign-in-email[autocomplete="username"]').waitFor();
      assert.deepEqual(await alerts.allInnerTexts(), ['User could not be authenticated.']);
      await page.unroute(`**${passkeySignInPaths.options}`);
    });

    it('fetches what a sign-in leads to once the password is accepted: the callback, its sign-in check and the home then take it from the browser’s cache; the provider’s discovery document and keys come as the borrower fills in the form, never after LOGIN', async () => {
      const { page } = await portal.newPage();
      // What every sign-in asks the identity provider for, whoever signs in.
      const discovery = ['/oauth2/default/.well-known/openid-configuration', '/oauth2/default/v1/keys'];
      const discoveryAsked: string[] = [];
      page.on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (discovery.includes(pathname)) discoveryAsked.push(pathname);
      });
      const discoveryFetched = Promise.all(
        discovery.map((path) =>
          page.waitForResponse((response) => new URL(response.url()).pathname === path),
        ),
      );
      const chunk = (name: string) => new RegExp(`/assets/${name}-[\\w-]+\\.js$`);
      const ahead = ['login-callback-screen', 'redirect-client', 'signed-in-home', 'resolve-auth-status'];
      // In the order the browser saw them: the password's answer, then each of those scripts asked for.
      const seen: string[] = [];
      page.on('response', (response) => {
        if (new URL(response.url()).pathname === '/api/v1/authn') seen.push('authn answered');
      });
      page.on('request', (request) => {
        const name = ahead.find((n) => chunk(n).test(request.url()));
        if (name) seen.push(name);
      });
      const fetchedAhead = Promise.all(
        ahead.map((name) =>
          page
            .waitForResponse((response) => chunk(name).test(response.url()))
            .then((response) => response.finished()),
        ),
      );
      // Each of those scripts asked for, before and after the redirect, and whether the cache answered.
      const cdp = await page.context().newCDPSession(page);
      const fromCache = new Set<string>();
      const fetchedBefore = new Set<string>();
      const askedAfter: { name: string; requestId: string; url: string }[] = [];
      let redirected = false;
      cdp.on('Network.requestWillBeSent', ({ type, request }) => {
        if (type === 'Document' && new URL(request.url).pathname === routes.loginCallback.path)
          redirected = true;
      });
      cdp.on('Network.requestServedFromCache', ({ requestId }) => fromCache.add(requestId));
      cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
        const name = ahead.find((n) => chunk(n).test(response.url));
        if (type !== 'Script' || !name) return;
        if (response.fromDiskCache) fromCache.add(requestId);
        if (redirected) askedAfter.push({ name, requestId, url: response.url });
        else fetchedBefore.add(name);
      });
      await cdp.send('Network.enable');
      // The identity provider's pages (the hidden frame's, then the redirect of step 5) wait until they
      // are in: on a busy machine the redirect could otherwise leave before they arrive, and this test
      // is about where they come from after it. (Through CDP: Playwright's routing turns the cache off.)
      cdp.on('Fetch.requestPaused', ({ requestId }) => {
        // (Nothing to continue once the test has ended and closed the page.)
        void fetchedAhead.then(() => cdp.send('Fetch.continueRequest', { requestId })).catch(() => undefined);
      });
      await cdp.send('Fetch.enable', {
        patterns: [{ urlPattern: '*/oauth2/default/v1/authorize?*', resourceType: 'Document' }],
      });

      await page.goto(routes.signIn.path);
      await page.locator('form[data-ready="true"]').waitFor();
      await page.getByLabel('Email').fill(DEMO.email);
      await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
      assert.deepEqual(seen, [], 'nothing of it while the borrower fills in the form');
      await discoveryFetched;
      await page.getByRole('button', { name: 'LOGIN' }).click();
      await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 45_000 });
      await page.getByTestId('loan-summary').first().waitFor();
      await cdp.send('Fetch.disable');

      assert.equal(
        seen[0],
        'authn answered',
        `asked for after the password was accepted: ${seen.join(', ')}`,
      );
      for (const name of ahead) {
        assert.ok(fetchedBefore.has(name), `${name} fetched in the sign-in page`);
        const after = askedAfter.filter((asked) => asked.name === name);
        assert.ok(after.length > 0, `${name} used after the redirect`);
        for (const { requestId, url } of after)
          assert.ok(fromCache.has(requestId), `${url} came from the cache`);
      }
      assert.deepEqual(
        discoveryAsked,
        discovery,
        'each once, before LOGIN: the sign-in took them from the cache',
      );
    });

    // Password sign-in pauses after SIGN_IN_LOCKOUT_FAILURES wrong passwords from one network, and the
    // identity provider answers a paused account as it answers an unknown address. The page says it is
    // paused and what to do instead; an address with no account, tried as often, must read the same,
    // or the page would tell an attacker which addresses have accounts.
    it('says password sign-in is paused after the lockout, under the same banner, and the same for an address with no account', async () => {
      const stamp = Date.now();
      const known = { email: `paused.${stamp}@example.com`, password: 'Borrower-Pass-42' };
      await addBorrower(portal.server, {
        login: known.email,
        password: known.password,
        firstName: 'Pat',
        lastName: 'Paused',
      });

      /** Tries `email` with wrong passwords up to the lockout, then with `last`: what the form says. */
      async function pauseAndTry(page: Page, email: string, last: string) {
        await page.goto(routes.signIn.path);
        const paused = page.getByTestId('sign-in-paused');
        for (let attempt = 1; attempt <= SIGN_IN_LOCKOUT_FAILURES + 1; attempt += 1) {
          const refused = page.waitForEvent(
            'console',
            (m) => m.type() === 'error' && m.text().includes('Sign-in error:'),
          );
          await submitSignIn(
            page,
            email,
            attempt > SIGN_IN_LOCKOUT_FAILURES ? last : `Wrong-Pass-${attempt}`,
          );
          const error = await refused;
          // Should the banner not come, the failure says what the page said instead.
          await page
            .getByRole('alert')
            .filter({ hasText: 'User could not be authenticated.' })
            .waitFor()
            .catch(async (timeout: Error) => {
              const said = await shownText(page);
              throw new Error(`attempt ${attempt}: ${error.text()}\npage: ${said}`, { cause: timeout });
            });
          if (attempt < SIGN_IN_LOCKOUT_FAILURES)
            assert.equal(await paused.count(), 0, `not paused at ${attempt}`);
        }
        await paused.waitFor();
        return page.locator('form.sign-in-form').innerText();
      }

      const { page } = await portal.newPage();
      const knownSays = await pauseAndTry(page, known.email, known.password);
      const paused = page.getByTestId('sign-in-paused');
      // The spec's banner, exactly, and under it the pause and the ways in that still work.
      const banner = page.getByRole('alert');
      assert.equal((await banner.innerText()).trim(), 'User could not be authenticated.');
      assert.ok(
        await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'sign-in-paused'),
        'the message takes the focus',
      );
      assert.equal(await page.getByRole('status').filter({ has: paused }).count(), 1, 'in a live region');
      assert.equal(
        await paused.getByRole('link', { name: 'Email Only Sign In' }).getAttribute('href'),
        routes.magicLink.path,
      );
      assert.equal(
        await paused.getByRole('link', { name: 'Forgot Password?' }).getAttribute('href'),
        routes.forgotPassword.path,
      );
      assert.ok(
        knownSays.indexOf('User could not be authenticated.') <
          knownSays.indexOf('Password sign-in is paused for a while.'),
      );
      await captureBothSizes(page, 'sign-in-paused');

      // The probe: an address with no account, tried as often, reads exactly the same.
      const stranger = await portal.newPage();
      const unknownSays = await pauseAndTry(stranger.page, `nobody.${stamp}@example.com`, known.password);
      assert.equal(unknownSays, knownSays);

      // The way in by link is one step away.
      await paused.getByRole('link', { name: 'Email Only Sign In' }).click();
      await page.waitForURL((url) => url.pathname === routes.magicLink.path);
    });
  });

  describe('guard and return address (browser)', () => {
    it('sends an anonymous visitor to sign-in and back to the address they asked for', async () => {
      const { page } = await portal.newPage();
      await page.goto(`${routes.dashboard.path}?view=summary#account`);
      await page.waitForURL((url) => url.pathname === routes.signIn.path);
      await submitSignIn(page, DEMO.email, DEMO.password);
      await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });
      const landed = new URL(page.url());
      assert.equal(landed.search, '?view=summary');
      assert.equal(landed.hash, '#account');
    });

    // A tampered return address (okta-auth-js#913) must never take the borrower off the portal. Each
    // payload is refused by toSafeReturnPath (packages/contracts' open-redirect payloads, in
    // apps/web/test/safe-return-path.test.ts and return-path-storage.test.ts, stored value tampered
    // with included); here, that a sign-in in the browser goes through it: one address the browser
    // reads as another host, one it reads so only once it turns the backslash into a slash.
    const hostile = ['//evil.example/phish', '/\\evil.example'];
    it('lands a borrower with a tampered return address on the signed-in home', async () => {
      const { page } = await portal.newPage();
      await page.goto(routes.signIn.path);
      for (const returnPath of hostile) {
        // On the sign-in screen: first opened, then where signing out leads.
        await page.evaluate(
          (value) => sessionStorage.setItem('customer-core.return-path', value),
          returnPath,
        );
        await submitSignIn(page, DEMO.email, DEMO.password);
        await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });
        assert.equal(new URL(page.url()).origin, portal.baseUrl, returnPath);
        await signOutFromMenu(page);
        await page.waitForURL((url) => url.pathname === routes.signIn.path);
      }
    });
  });
});
