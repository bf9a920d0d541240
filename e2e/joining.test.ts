import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  NEXT_STEP_PREFERENCE_STORAGE_KEY,
  PASSWORD_RULES,
  PASSWORDS_DO_NOT_MATCH,
  registrationEndpoints,
  applicationEndpoints,
  routes,
} from '@customer-core/contracts';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshotsAtBothSizes } from './support/browser.js';
import { lenderName, onPath, withText } from './support/getting-back-in.js';
import { OPERATOR_ENV, historyLength, runCli, runCliInProcess } from './support/joining.js';
import { linkPath, waitForMail } from './support/mailbox.js';
import { openPortal, readPortalStorage, type Portal } from './support/portal.js';

// Joining: an operator's invitation to registration and the signed-in home, starting a loan
// application and verifying its e-mail address, and the next-step preference. Against the real
// server (on PGlite, as every browser test: the API tests cover PostgreSQL's storage), its dev
// mailbox and the operators' command line.

const rule = (code: string) => PASSWORD_RULES.find((r) => r.code === code)!;
const STRONG_PASSWORD = 'Corner-Shop-2026';
const INVITED = { email: 'rosa.martinez@example.com', firstName: 'Rosa', lastName: 'Martinez' };
const LOANS = [
  {
    reference: 'LN-E2E-1',
    product: 'Term loan',
    amount: '50000',
    status: 'ACTIVE',
    more: ['--next-payment-date', '2026-09-01', '--next-payment-amount', '1250'],
  },
  { reference: 'LN-E2E-2', product: 'Equipment loan', amount: '12000', status: 'PAST DUE' },
  { reference: 'LN-E2E-3', product: 'Line of credit', amount: '8000', status: 'PAID' },
  { reference: 'LN-E2E-4', product: 'Bridge loan', amount: '30000', status: 'CLOSED LOST' },
  { reference: 'LN-E2E-5', product: 'Secret loan', amount: '99000', status: 'HIDDEN' },
];
const APPLICANT = {
  businessName: 'Harbor Bakery LLC',
  contactName: 'Sam Lee',
  email: 'sam.lee@harbor-bakery.example',
};

describe('joining (browser)', () => {
  let portal: Portal;
  before(async () => {
    // The default limits: 3 applications per address in a window.
    portal = await openPortal(OPERATOR_ENV);
  });
  after(() => portal?.close());

  it('registers an invited borrower: invitation from the CLI, email, password rules, signed in, loans', async () => {
    // The invitation from the built command line, as operators run it (its own process); the loans
    // from the same commands run in this process.
    await runCli(portal.baseUrl, [
      'invite',
      '--email',
      INVITED.email,
      '--first-name',
      INVITED.firstName,
      '--last-name',
      INVITED.lastName,
    ]);
    for (const loan of LOANS) {
      await runCliInProcess(portal.baseUrl, [
        'add-loan',
        '--email',
        INVITED.email,
        '--reference',
        loan.reference,
        '--product',
        loan.product,
        '--amount',
        loan.amount,
        '--status',
        loan.status,
        ...(loan.more ?? []),
      ]);
    }
    const invitation = await waitForMail(portal.baseUrl, INVITED.email);
    const registrationPath = linkPath(invitation, '/user-registration/');

    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await page.goto(registrationPath);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    assert.equal(await page.title(), `Create your account | ${await lenderName(page)}`);
    // The invited address, shown and not editable; the names from the invitation.
    const email = page.getByRole('group', { name: 'Email' });
    assert.equal(await email.innerText(), INVITED.email);
    assert.equal(await page.getByRole('textbox', { name: 'Email' }).count(), 0, 'not editable');
    // Given to password managers, as the username the new password belongs to.
    const username = page.getByTestId('user-registration-email-autocomplete');
    assert.equal(await username.inputValue(), INVITED.email);
    assert.equal(await username.getAttribute('autocomplete'), 'username');
    await page
      .getByTestId('user-registration-greeting')
      .filter(withText(`${INVITED.firstName} ${INVITED.lastName}`))
      .waitFor();
    await assertAccessible(page, 'registration');
    await screenshotsAtBothSizes(page, 'user-registration');

    // The password-set form of the reset screen: each rule's message under the field.
    const password = page.getByLabel('Password', { exact: true });
    const confirm = page.getByLabel('Confirm password');
    const create = page.getByRole('button', { name: 'Create account' });
    const passwordError = page.getByTestId('user-registration-password-error');
    await create.click();
    await page.getByText('Password is required.').waitFor();
    await page.getByText('Please confirm your password.').waitFor();
    // The focus goes to the first field in error.
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'user-registration-password');
    await assertAccessible(page, 'registration with errors');
    await password.fill('Short1');
    assert.equal(await passwordError.innerText(), rule('length').message);
    await password.fill('alllowercase1');
    assert.equal(await passwordError.innerText(), rule('case').message);
    await password.fill('NoNumbersHere');
    assert.equal(await passwordError.innerText(), rule('number').message);
    await password.fill(STRONG_PASSWORD);
    await passwordError.waitFor({ state: 'detached' });
    for (const { code } of PASSWORD_RULES) {
      assert.equal(await page.getByTestId(`password-rule-${code}`).getAttribute('data-met'), 'true');
    }
    await confirm.fill(`${STRONG_PASSWORD}x`);
    await create.click();
    await page
      .getByTestId('user-registration-confirm-password-error')
      .filter(withText(PASSWORDS_DO_NOT_MATCH))
      .waitFor();
    await screenshotsAtBothSizes(page, 'user-registration-errors');

    // A common password: the API's message under the field, the invitation still unspent.
    await password.fill('Password1');
    await confirm.fill('Password1');
    await create.click();
    await passwordError.filter({ hasText: /common/i }).waitFor();
    assert.equal(await password.getAttribute('aria-invalid'), 'true');
    await assertAccessible(page, 'registration with the server message');
    await screenshotsAtBothSizes(page, 'user-registration-too-common');

    // A strong one: signed in, on the home, welcomed, with the loans the operator added.
    await password.fill(STRONG_PASSWORD);
    await confirm.fill(STRONG_PASSWORD);
    await create.click();
    await page.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });
    await page.getByRole('heading', { name: `Hello, ${INVITED.firstName}` }).waitFor();
    // The toast said before the redirect through the identity provider, shown on arrival.
    const toast = page.getByTestId('toast').filter(withText('Your account is ready.'));
    await toast.waitFor();
    assert.match(await toast.innerText(), new RegExp(`Welcome, ${INVITED.firstName}!`));
    assert.equal(await toast.getAttribute('data-status'), 'success');
    assert.ok((await readPortalStorage(page)).token, 'the product token is stored');
    const loans = page.getByTestId('loans');
    await page.getByTestId('loan-card').first().waitFor();
    const home = await page.locator('main').innerText();
    for (const loan of LOANS.filter((l) => l.status !== 'HIDDEN')) {
      assert.ok(home.includes(loan.reference), `${loan.reference} (${loan.status}) is listed`);
      assert.ok(home.includes(loan.product), `${loan.product} is listed`);
    }
    assert.ok(!home.includes('LN-E2E-5') && !home.includes('Secret loan'), 'no HIDDEN loan is shown');
    assert.equal(await page.getByTestId('loan-card').count(), LOANS.length - 1);
    assert.ok(await loans.isVisible());
    await assertAccessible(page, 'home after registration');
    await screenshotsAtBothSizes(page, 'user-registration-home');
    assert.deepEqual(errors, []);

    // The invitation worked once: opened again, it says so and whom to contact.
    const again = (await portal.newPage()).page;
    await again.goto(registrationPath);
    await again.getByRole('heading', { name: 'This invitation can’t be used' }).waitFor();
    assert.ok(((await again.getByTestId('invitation-problem-message').innerText()) ?? '').length > 0);
    assert.equal(
      await again.getByRole('link', { name: 'Go to sign in' }).getAttribute('href'),
      routes.signIn.path,
    );
    // (The view is the one of an invitation it never sent, checked for accessibility below.)
    await screenshotsAtBothSizes(again, 'user-registration-used');
  });

  it('says clearly when an invitation cannot be used, and whom to contact', async () => {
    const { page } = await portal.newPage();
    await page.goto(routes.userRegistration.href({ token: 'made-up-invitation-token' }));
    const view = page.getByTestId('user-registration-invalid');
    await view.getByRole('heading', { name: 'This invitation can’t be used' }).waitFor();
    assert.ok((await view.getByTestId('invitation-problem-message').innerText()).length > 0);
    // The new view is announced: the focus is on its heading.
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1');
    assert.equal(await page.getByLabel('Password', { exact: true }).count(), 0, 'no form');
    await assertAccessible(page, 'registration, invalid invitation');
    await screenshotsAtBothSizes(page, 'user-registration-invalid');
    await view.getByRole('link', { name: 'Go to sign in' }).click();
    await page.waitForURL(onPath(routes.signIn.path));
  });

  it('offers a retry when the invitation cannot be loaded', async () => {
    const { page } = await portal.newPage();
    let calls = 0;
    await page.route(`**${registrationEndpoints.invitation.path}`, (route) => {
      calls += 1;
      return calls === 1 ? route.abort('connectionrefused') : route.continue();
    });
    await page.goto(routes.userRegistration.href({ token: 'made-up-invitation-token' }));
    await page.getByRole('heading', { name: 'We couldn’t load your invitation' }).waitFor();
    await page.getByText('We couldn’t reach our server.').waitFor();
    await assertAccessible(page, 'registration, lookup failed');
    await screenshotsAtBothSizes(page, 'user-registration-lookup-failed');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'This invitation can’t be used' }).waitFor();
    assert.equal(calls, 2);
  });

  it('starts an application: every message, then the email, then verification on the button only', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await page.goto(routes.signIn.path);
    await page.getByRole('link', { name: 'Apply For a Loan' }).click();
    await page.waitForURL(onPath(routes.startApplication.path));
    await page.getByRole('heading', { name: 'Apply for a loan' }).waitFor();
    assert.equal(await page.title(), `Apply for a loan | ${await lenderName(page)}`);
    await assertAccessible(page, 'start application');
    await screenshotsAtBothSizes(page, 'start-application');

    const send = page.getByRole('button', { name: 'Send application' });
    const businessName = page.getByLabel('Business name');
    const contactName = page.getByLabel('Your name');
    const email = page.getByLabel('Email');
    const amount = page.getByLabel('Amount requested');
    const purpose = page.getByLabel('What is the loan for?');
    const amountError = page.getByTestId('start-application-amount-error');
    await send.click();
    for (const message of [
      'Business name is required.',
      'Your name is required.',
      'Email is required.',
      'Enter the amount you need.',
      'Choose what the loan is for.',
    ]) {
      await page.getByText(message).waitFor();
    }
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'start-application-business-name');
    assert.equal(await businessName.getAttribute('aria-invalid'), 'true');
    assert.equal(
      await amount.getAttribute('aria-describedby'),
      'start-application-amount-error start-application-amount-hint',
    );
    await assertAccessible(page, 'start application with errors');
    await screenshotsAtBothSizes(page, 'start-application-errors');

    // Each rule of the amount and the address, as the API's schema words them.
    await email.fill('sam@');
    await page.getByText('Invalid email address.').waitFor();
    await amount.fill('12500.50');
    assert.equal(await amountError.innerText(), 'Enter a whole dollar amount.');
    await amount.fill('1,000');
    assert.equal(await amountError.innerText(), 'The smallest loan is $5,000.');
    await amount.fill('6000000');
    assert.equal(await amountError.innerText(), 'The largest loan is $5,000,000.');
    await amount.fill('lots');
    assert.equal(await amountError.innerText(), 'Enter the amount you need.');

    await businessName.fill(APPLICANT.businessName);
    await contactName.fill(APPLICANT.contactName);
    await email.fill(APPLICANT.email.toUpperCase());
    await amount.fill('$75,000');
    await purpose.selectOption({ label: 'Equipment' });
    await send.click();
    const sent = page.getByTestId('start-application-sent');
    await sent.getByRole('heading', { name: 'Check your email' }).waitFor();
    await sent.getByText(APPLICANT.email).waitFor();
    await sent.getByRole('heading', { name: 'What happens next' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Check your email');
    await assertAccessible(page, 'start application sent');
    await screenshotsAtBothSizes(page, 'start-application-sent');

    // The verification e-mail links to the forwarder, which leaves no history entry of its own.
    const verificationPath = linkPath(
      await waitForMail(portal.baseUrl, APPLICANT.email),
      '/app/email-verification/',
    );
    const token = decodeURIComponent(verificationPath.split('/').pop()!);
    const verifyCalls: string[] = [];
    page.on(
      'request',
      (r) => r.url().endsWith(applicationEndpoints.verifyEmail.path) && verifyCalls.push(r.method()),
    );
    const before = await historyLength(page);
    await page.goto(verificationPath);
    await page.waitForURL(onPath(routes.directAppEmailVerification.href({ token })));
    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    assert.equal(await historyLength(page), before + 1, 'the forward replaced the entry');
    await page.reload();
    await page.getByRole('button', { name: 'Verify my email address' }).waitFor();
    assert.deepEqual(verifyCalls, [], 'opening the page verifies nothing');
    await assertAccessible(page, 'email verification');
    await screenshotsAtBothSizes(page, 'email-verification');

    await page.getByRole('button', { name: 'Verify my email address' }).click();
    const verified = page.getByTestId('email-verification-verified');
    await verified.getByRole('heading', { name: 'Your email address is verified' }).waitFor();
    await verified.getByText(APPLICANT.businessName).waitFor();
    await verified.getByText(APPLICANT.email).waitFor();
    assert.deepEqual(verifyCalls, ['POST']);
    await assertAccessible(page, 'email verified');
    await screenshotsAtBothSizes(page, 'email-verification-verified');

    // Back leaves the verification page for the application, not for the forwarder.
    await page.goBack();
    await page.waitForURL(onPath(routes.startApplication.path));

    // Opened again: a success all the same.
    const again = (await portal.newPage()).page;
    await again.goto(verificationPath);
    await again.getByRole('button', { name: 'Verify my email address' }).click();
    await again.getByRole('heading', { name: 'Your email address is already verified' }).waitFor();
    await again.getByText(APPLICANT.businessName).waitFor();
    // (The verified view again, with other words: checked for accessibility above.)
    await screenshotsAtBothSizes(again, 'email-verification-already-verified');
    assert.deepEqual(errors, []);
  });

  it('says when the application did not go through: too many in a short time, or no connection', async () => {
    const { page } = await portal.newPage();
    const busy = 'busy.owner@example.com';
    await page.goto(routes.startApplication.path);
    await page.getByLabel('Business name').fill('Busy Owner Ltd');
    await page.getByLabel('Your name').fill('Bea Busy');
    await page.getByLabel('Email').fill(busy);
    await page.getByLabel('Amount requested').fill('20000');
    await page.getByLabel('What is the loan for?').selectOption({ label: 'Inventory' });
    const send = page.getByRole('button', { name: 'Send application' });

    // The address's limit (3 in a window), then the API's 429 in the dismissible banner, values kept.
    for (let sent = 0; sent < 3; sent += 1) {
      await send.click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();
      await page.getByRole('button', { name: 'Start again' }).click();
      assert.equal(await page.getByLabel('Email').inputValue(), busy, 'start again keeps the values');
    }
    await send.click();
    const banner = page.getByTestId('start-application-error-banner');
    await banner.filter(withText('several applications')).waitFor();
    assert.equal(await banner.getAttribute('role'), 'alert');
    assert.equal(await page.getByLabel('Business name').inputValue(), 'Busy Owner Ltd');
    await assertAccessible(page, 'start application, too many');
    await screenshotsAtBothSizes(page, 'start-application-too-many');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });

    // No connection: said so, in the same place.
    await page.route(`**${applicationEndpoints.start.path}`, (route) => route.abort('connectionrefused'));
    await page.getByLabel('Email').fill('another.owner@example.com');
    await send.click();
    await banner.filter(withText('We couldn’t reach our server.')).waitFor();
  });

  it('verification: a link it never sent, and a retry after a network failure', async () => {
    const { page } = await portal.newPage();
    await page.route(`**${applicationEndpoints.verifyEmail.path}`, (route) =>
      route.abort('connectionrefused'),
    );
    await page.goto(routes.emailVerification.href({ token: 'made-up-verification-token' }));
    const verify = page.getByRole('button', { name: 'Verify my email address' });
    await verify.click();
    const banner = page.getByRole('alert').filter(withText('We couldn’t reach our server.'));
    await banner.waitFor();
    await assertAccessible(page, 'email verification with a banner');
    await screenshotsAtBothSizes(page, 'email-verification-network-error');

    await page.unroute(`**${applicationEndpoints.verifyEmail.path}`);
    await verify.click();
    const invalid = page.getByTestId('email-verification-invalid-link');
    await invalid.getByRole('heading', { name: 'This link can’t be used' }).waitFor();
    assert.ok((await invalid.getByTestId('email-verification-outcome').innerText()).length > 0);
    await assertAccessible(page, 'email verification, invalid link');
    await screenshotsAtBothSizes(page, 'email-verification-invalid');
    await invalid.getByRole('link', { name: 'Start a new application' }).click();
    await page.waitForURL(onPath(routes.startApplication.path));
  });

  it('remembers how a visitor chose to continue, on this device, until told to forget', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    const storedChoice = () =>
      page.evaluate((key) => localStorage.getItem(key), NEXT_STEP_PREFERENCE_STORAGE_KEY);
    await page.goto(routes.nextStepPreference.path);
    await page.getByRole('heading', { name: 'How would you like to continue?' }).waitFor();
    const existing = page.getByRole('radio', { name: /Manage an existing loan/ });
    const apply = page.getByRole('radio', { name: /Apply for a new loan/ });
    assert.equal(await existing.isChecked(), false);
    assert.equal(await apply.isChecked(), false);
    await assertAccessible(page, 'next-step preference');
    await screenshotsAtBothSizes(page, 'next-step-preference');

    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter(withText('Choose how you would like to continue.')).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'next-step-existing-loan');
    await assertAccessible(page, 'next-step preference with an error');

    // Apply, remembered (the default): off to the application.
    await apply.check();
    assert.equal(
      await page.getByRole('checkbox', { name: 'Remember my choice on this device' }).isChecked(),
      true,
    );
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(onPath(routes.startApplication.path));
    assert.equal(await storedChoice(), 'new-loan');

    // Back on the page later, after a reload: chosen already, and said so.
    await page.goto(routes.nextStepPreference.path);
    await page.reload();
    await page.getByTestId('next-step-remembered').filter(withText('Apply for a new loan')).waitFor();
    assert.equal(await apply.isChecked(), true);
    assert.equal(await existing.isChecked(), false);
    await assertAccessible(page, 'next-step preference remembered');
    await screenshotsAtBothSizes(page, 'next-step-preference-remembered');

    // Forgotten: nothing chosen, nothing stored, still after a reload.
    await page.getByRole('button', { name: 'Forget my choice' }).click();
    await page.getByTestId('next-step-remembered').waitFor({ state: 'detached' });
    await page
      .getByRole('status')
      .filter(withText('Your choice is forgotten on this device.'))
      .waitFor({ state: 'attached' });
    assert.equal(await apply.isChecked(), false);
    assert.equal(await storedChoice(), null);
    await page.reload();
    await page.getByRole('heading', { name: 'How would you like to continue?' }).waitFor();
    assert.equal(await apply.isChecked(), false);
    assert.equal(await page.getByTestId('next-step-remembered').count(), 0);

    // Manage an existing loan, not remembered: to sign-in, and nothing stored.
    await existing.check();
    await page.getByRole('checkbox', { name: 'Remember my choice on this device' }).uncheck();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(onPath(routes.signIn.path));
    assert.equal(await storedChoice(), null);
    assert.deepEqual(errors, []);
  });

  it('tells an invited borrower who has an account already to sign in or reset the password', async () => {
    const early = { email: 'kim.early@example.com', firstName: 'Kim', lastName: 'Early' };
    await runCliInProcess(portal.baseUrl, [
      'invite',
      '--email',
      early.email,
      '--first-name',
      early.firstName,
      '--last-name',
      early.lastName,
    ]);
    const registrationPath = linkPath(await waitForMail(portal.baseUrl, early.email), '/user-registration/');
    const { page } = await portal.newPage();
    await page.goto(registrationPath);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();

    // Meanwhile the address gets an account some other way (here: straight in the identity provider).
    await portal.server.server.identityProvider!.users.create({
      login: early.email,
      password: 'Elsewhere-Made-2026',
      firstName: early.firstName,
      lastName: early.lastName,
    });
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByLabel('Confirm password').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    const view = page.getByTestId('user-registration-already-registered');
    await view.getByRole('heading', { name: 'You already have an account' }).waitFor();
    assert.equal(
      await view.getByRole('link', { name: 'Go to sign in' }).getAttribute('href'),
      routes.signIn.path,
    );
    assert.equal(
      await view.getByRole('link', { name: 'Reset your password' }).getAttribute('href'),
      routes.forgotPassword.path,
    );
    await assertAccessible(page, 'registration, already registered');
    await screenshotsAtBothSizes(page, 'user-registration-already-registered');

    // Opened again, the page says so at once.
    await page.reload();
    await view.getByRole('heading', { name: 'You already have an account' }).waitFor();
    assert.equal(await page.getByLabel('Password', { exact: true }).count(), 0, 'no form');
  });
});
