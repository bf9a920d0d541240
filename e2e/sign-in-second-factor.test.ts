import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import { focusReturnsTo } from './support/browser.js';
import { assertAccessible } from './support/accessibility.js';
import { authenticatorCode, captureBothSizes } from './support/second-factor.js';
import { openPortal, signOutFromMenu, submitSignIn, type Portal } from './support/portal.js';

const BORROWER = { email: 'two.step@example.com', password: 'Borrower-Pass-42' };
const WRONG_CODE = 'That code didn\u2019t work. Check your app and enter the code it shows now.';

const notThe = (code: string) => (code === '000000' ? '111111' : '000000');

describe('signing in with a second factor (browser, MFA_POLICY=required)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal({ MFA_POLICY: 'required' });
    const idp = portal.server.server.identityProvider;
    assert.ok(idp, 'the bundled identity provider runs');
    await idp.users.create({
      login: BORROWER.email,
      password: BORROWER.password,
      firstName: 'Tess',
      lastName: 'Two-Step',
    });
  });
  after(() => portal?.close());

  it('enrols an authenticator app at sign-in (a wrong code refused), then signs in with a code', async () => {
    const { page } = await portal.newPage();
    await page.goto(routes.signIn.path);
    await submitSignIn(page, BORROWER.email, BORROWER.password);

    await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    // Whose account it is, under the step's heading.
    assert.equal(
      await page.getByTestId('factor-step-account').innerText(),
      `Signing in as ${BORROWER.email}`,
    );
    await captureBothSizes(page, 'sign-in-factor-enrol');
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();

    // (The step's words, the QR code, the key in groups, a wrong code's message, the code field's
    // keyboard and a pasted code, and the way back to the password: apps/web/test/factor-step.test.tsx.)
    await page.getByRole('heading', { name: 'Scan this code with your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('factor-secret').innerText()).replace(/\s/g, '');
    assert.match(secret, /^[A-Z2-7]{32}$/);
    // The key in two even rows of four groups, at a phone's width too; and a copy of it in one press.
    for (const width of [1280, 320]) {
      await page.setViewportSize({ width, height: 800 });
      const rows = await page
        .getByTestId('factor-secret')
        .locator('span')
        .evaluateAll((groups) => new Set(groups.map((group) => group.getBoundingClientRect().top)).size);
      assert.equal(rows, 2, `rows of the key at ${width} px`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: 'Key copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await captureBothSizes(page, 'sign-in-factor-scan');

    const code = page.getByLabel('6-digit code');
    await code.fill(notThe(authenticatorCode(secret)));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(WRONG_CODE).waitFor();
    // The focus back on the field, which reads the message out (not on the page, as it fell there).
    await focusReturnsTo(code, 'the refused code’s field has the focus');
    await captureBothSizes(page, 'sign-in-factor-wrong-code');

    await code.fill(authenticatorCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });
    // Recovery codes offered next, on the home page, until made or dismissed.
    const offer = page.getByTestId('landing-notice');
    await offer.getByText('Two-step verification is on. Make recovery codes too', { exact: false }).waitFor();
    await captureBothSizes(page, 'home-recovery-codes-offered');
    await offer.getByRole('link', { name: 'Make recovery codes' }).click();
    await page.getByTestId('recovery-codes-left').filter({ hasText: 'None yet' }).waitFor();
    // The recovery codes row open on arrival, the focus in its form, as its button would put it.
    const row = page.getByTestId('recovery-codes');
    await focusReturnsTo(row.getByLabel('Current password'), 'the row’s password field has the focus');
    assert.equal(await row.getByRole('button', { name: 'Make codes' }).getAttribute('aria-expanded'), 'true');
    await captureBothSizes(page, 'account-recovery-codes-from-home');
    await assertAccessible(page, 'account, recovery codes row open from the home');

    await signOutFromMenu(page);
    await page.waitForURL((url) => url.pathname === routes.signIn.path);
    await submitSignIn(page, BORROWER.email, BORROWER.password);
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await captureBothSizes(page, 'sign-in-factor-code');
    // The next step's code: the one used to enrol is spent.
    await page.getByLabel('6-digit code').fill(authenticatorCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });
  });
});
