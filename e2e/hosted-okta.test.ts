import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import { borrowerOfIdentity, type TestOrg } from '@customer-core/api/testing';
import { collectPageErrors, screenshot } from './support/browser.js';
import { LINK_LIMITS_ENV, onPath, requestLink, withText } from './support/getting-back-in.js';
import { OPERATOR_ENV, runCliInProcess } from './support/joining.js';
import { inbox, linkPath, waitForMail } from './support/mailbox.js';
import {
  openPortalWithOrg,
  signInBySession,
  signOutFromMenu,
  submitSignIn,
  type Portal,
} from './support/portal.js';
import { captureBothSizes } from './support/second-factor.js';

// The spec's deployment: the portal on one origin and a hosted Okta org on another (the bundled
// identity provider as a process of its own). Every capability works as it does with the bundled one.

const PASSWORD = 'Original-Pass-1';
const NEW_PASSWORD = 'Renewed-Pass-2!';
let people = 0;

describe('with a hosted Okta org on another origin (browser)', () => {
  let portal: Portal & { org: TestOrg };
  before(async () => {
    portal = await openPortalWithOrg({ ...LINK_LIMITS_ENV, ...OPERATOR_ENV });
  });
  after(() => portal?.close());

  /** A user the org's administrator made (Okta's Users API); the portal has never seen them. */
  async function orgUser(firstName = 'Ada') {
    people += 1;
    const login = `org.user.${people}.${Date.now()}@example.com`;
    const response = await fetch(`${portal.org.url}/api/v1/users?activate=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `SSWS ${portal.org.apiToken}` },
      body: JSON.stringify({
        profile: { firstName, lastName: 'Lovelace', email: login, login },
        credentials: { password: { value: PASSWORD } },
      }),
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    return { id: String((JSON.parse(text) as { id: unknown }).id), login, firstName };
  }

  const onDashboard = onPath(routes.dashboard.path);

  it('signs in with the password at the org, shows the signed-in home, and signs out', async () => {
    const user = await orgUser('Olivia');
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    const orgCalls: string[] = [];
    page.on('request', (request) => request.url().startsWith(portal.org.url) && orgCalls.push(request.url()));
    await page.goto(routes.signIn.path);
    await submitSignIn(page, user.login, PASSWORD);
    await page.waitForURL(onDashboard, { timeout: 20_000 });
    await page.getByRole('heading', { name: new RegExp(user.firstName) }).waitFor();
    assert.ok(
      orgCalls.some((url) => url.endsWith('/api/v1/authn')),
      'the browser signed in at the org itself',
    );
    // (The home of a borrower without loans, the same with either identity provider, is swept in
    // loans.test.ts.)
    await screenshot(page, 'hosted-org-dashboard');

    await signOutFromMenu(page);
    await page.waitForURL(onPath(routes.signIn.path));
    await page.goto(routes.dashboard.path);
    await page.waitForURL(onPath(routes.signIn.path));
    assert.deepEqual(errors, []);
  });

  it('says on the account page that the lender changes the sign-in email', async () => {
    const user = await orgUser('Edith');
    // Known to the portal as after a first sign-in at the org (signing in is the first test's).
    await borrowerOfIdentity(portal.server, {
      issuer: portal.org.issuer,
      subject: user.id,
      email: user.login,
      firstName: user.firstName,
      lastName: 'Lovelace',
    });
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await signInBySession(portal, page, { email: user.login, path: routes.account.path });
    const section = page.getByTestId('account-email');
    const withLender = section.getByTestId('account-email-with-lender');
    await withLender.waitFor();
    // The address once, in the row's summary; the sentence says only how to change it.
    assert.equal(await section.getByTestId('change-email-current').innerText(), user.login);
    assert.match(await withLender.innerText(), /^To change it, call .+ at .+\.$/);
    assert.ok(!(await withLender.innerText()).includes(user.login), 'the address said once');
    assert.ok(
      await withLender
        .getByRole('link')
        .getAttribute('href')
        .then((href) => href?.startsWith('tel:')),
    );
    assert.equal(await section.getByLabel('New email address').count(), 0, 'no form to fill in');
    assert.equal(await section.getByRole('button').count(), 0, 'no row to open');
    // The org's passkeys belong to its own domain: the lender adds them.
    const passkeys = page.getByTestId('account-passkeys');
    await passkeys.getByTestId('passkeys-with-lender').waitFor();
    assert.equal(await passkeys.getByRole('button', { name: 'Add a passkey' }).count(), 0);
    await captureBothSizes(page, 'hosted-org-account-email');
    assert.deepEqual(errors, []);
  });

  it('forgot password, reset at the org, then signs in with the new password only (the old one refused)', async () => {
    const user = await orgUser();
    const { page } = await portal.newPage();
    await requestLink(page, routes.forgotPassword.path, user.login, 'Send reset link');
    await page.goto(linkPath(await waitForMail(portal.baseUrl, user.login), '/auth/password-reset/'));
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    const password = page.getByLabel('New password', { exact: true });
    const confirm = page.getByLabel('Confirm new password');
    const save = page.getByRole('button', { name: 'Save new password' });

    // The org's policy refuses a part of the username (the address's domain), which the portal's rules allow: its words, on the field.
    await password.fill('Example-Pass-3!');
    await confirm.fill('Example-Pass-3!');
    await save.click();
    await page
      .getByTestId('password-reset-password-error')
      .filter(withText('Your lender’s sign-in service didn’t accept this password.'))
      .waitFor();
    // (A message under the field: the state password-reset's test sweeps.)
    await screenshot(page, 'hosted-org-password-refused');

    await password.fill(NEW_PASSWORD);
    await confirm.fill(NEW_PASSWORD);
    await save.click();
    await page.waitForURL(onPath(routes.signIn.path));
    // The org refuses the old password, with the spec's message.
    await submitSignIn(page, user.login, PASSWORD);
    await page.getByRole('alert').filter(withText('User could not be authenticated.')).waitFor();
    await submitSignIn(page, user.login, NEW_PASSWORD);
    await page.waitForURL(onDashboard, { timeout: 20_000 });
  });

  it('signs in by emailed link, stays signed in on reload, and signs out', async () => {
    const user = await orgUser('Maya');
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await requestLink(page, routes.magicLink.path, user.login, 'Send sign-in link');
    await page.goto(linkPath(await waitForMail(portal.baseUrl, user.login), '/auth/magic-link-landing/'));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(onDashboard, { timeout: 20_000 });
    await page.getByRole('heading', { name: new RegExp(user.firstName) }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: new RegExp(user.firstName) }).waitFor();
    assert.ok(onDashboard(new URL(page.url())));

    await signOutFromMenu(page);
    await page.waitForURL(onPath(routes.signIn.path));
    await page.goto(routes.dashboard.path);
    await page.waitForURL(onPath(routes.signIn.path));
    assert.deepEqual(errors, []);
  });

  it('registers an invited borrower at the org, signed in at once, and signs in again later', async () => {
    people += 1;
    const email = `invited.${people}.${Date.now()}@example.com`;
    await runCliInProcess(portal.baseUrl, [
      'invite',
      '--email',
      email,
      '--first-name',
      'Grace',
      '--last-name',
      'Hopper',
    ]);
    const { page } = await portal.newPage();
    await page.goto(linkPath(await waitForMail(portal.baseUrl, email), '/user-registration/'));
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(onDashboard, { timeout: 20_000 });
    await page.getByRole('heading', { name: /Grace/ }).waitFor();

    await signOutFromMenu(page);
    await page.waitForURL(onPath(routes.signIn.path));
    await submitSignIn(page, email, NEW_PASSWORD);
    await page.waitForURL(onDashboard, { timeout: 20_000 });
    assert.equal((await inbox(portal.baseUrl, email)).length, 1, 'one invitation, nothing else');
  });
});
