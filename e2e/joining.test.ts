import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addBorrower } from '@customer-core/api/testing';
import { registrationEndpoints, applicationEndpoints, routes } from '@customer-core/contracts';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshotsAtBothSizes } from './support/browser.js';
import { lenderName, onPath, withText } from './support/getting-back-in.js';
import { OPERATOR_ENV, historyLength, runCli, runCliInProcess } from './support/joining.js';
import { linkPath, waitForMail } from './support/mailbox.js';
import { openPortal, readPortalStorage, signInBySession, type Portal } from './support/portal.js';

// Joining: an operator's invitation to registration and the signed-in home, starting a loan
// application and verifying its e-mail address, and the next-step preference. Against the real
// server (on PGlite, as every browser test: the API tests cover PostgreSQL's storage), its dev
// mailbox and the operators' command line.

const STRONG_PASSWORD = 'Corner-Shop-2026';
const INVITED = { email: 'rosa.martinez@example.com', firstName: 'Rosa', lastName: 'Martinez' };
const LOANS = [
  {
    reference: 'LN-E2E-1',
    product: 'Term loan',
    amount: '50000',
    status: 'ACTIVE',
    more: ['--next-payment-date', '2031-09-01', '--next-payment-amount', '1250'],
  },
  { reference: 'LN-E2E-2', product: 'Equipment loan', amount: '12000', status: 'PAST DUE' },
  {
    reference: 'LN-E2E-3',
    product: 'Line of credit',
    amount: '8000',
    status: 'PAID',
    more: ['--balance', '0'],
  },
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
    // The invitation's lookup fails once: the retry loads it (the view's words and its retry:
    // apps/web/test/joining.test.tsx).
    let lookups = 0;
    await page.route(`**${registrationEndpoints.invitation.path}`, (route) =>
      (lookups += 1) === 1 ? route.abort('connectionrefused') : route.continue(),
    );
    await page.goto(registrationPath);
    await page.getByRole('heading', { name: 'We couldn’t load your invitation' }).waitFor();
    await assertAccessible(page, 'registration, lookup failed');
    await screenshotsAtBothSizes(page, 'user-registration-lookup-failed');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.unroute(`**${registrationEndpoints.invitation.path}`);

    // The invitation's greeting, the address not editable, the password's rules and messages:
    // joining.test.tsx. Here, the invitation as the API has it, and each state swept.
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    assert.equal(await page.title(), `Create your account | ${await lenderName(page)}`);
    assert.equal(await page.getByRole('group', { name: 'Email' }).innerText(), INVITED.email);
    await page
      .getByTestId('user-registration-greeting')
      .filter(withText(`${INVITED.firstName} ${INVITED.lastName}`))
      .waitFor();
    await assertAccessible(page, 'registration');
    await screenshotsAtBothSizes(page, 'user-registration');

    const password = page.getByLabel('Password', { exact: true });
    const confirm = page.getByLabel('Confirm password');
    const create = page.getByRole('button', { name: 'Create account' });
    const passwordError = page.getByTestId('user-registration-password-error');
    await create.click();
    await page.getByText('Password is required.').waitFor();
    await assertAccessible(page, 'registration with errors');
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
    // The home sums the loans up; the Loans page lists each one the operator added, and no HIDDEN one.
    const loans = page.getByTestId('loans');
    await loans.and(page.locator('[data-state="loaded"]')).waitFor();
    await assertAccessible(page, 'home after registration');
    await screenshotsAtBothSizes(page, 'user-registration-home');
    await loans.getByRole('link', { name: 'See all your loans' }).click();
    await page.waitForURL(onPath(routes.loans.path));
    await page.getByTestId('loan-card').first().waitFor();
    const listed = await page.locator('main').innerText();
    for (const loan of LOANS.filter((l) => l.status !== 'HIDDEN')) {
      assert.ok(listed.includes(loan.reference), `${loan.reference} (${loan.status}) is listed`);
      assert.ok(listed.includes(loan.product), `${loan.product} is listed`);
    }
    assert.ok(!listed.includes('LN-E2E-5') && !listed.includes('Secret loan'), 'no HIDDEN loan is shown');
    assert.equal(await page.getByTestId('loan-card').count(), LOANS.length - 1);
    assert.deepEqual(errors, []);

    // The invitation worked once: opened again, it says so (its words, focus and links:
    // joining.test.tsx), and leads to sign-in.
    const again = (await portal.newPage()).page;
    await again.goto(registrationPath);
    const view = again.getByTestId('user-registration-invalid');
    await view.getByRole('heading', { name: 'This invitation can’t be used' }).waitFor();
    await assertAccessible(again, 'registration, invalid invitation');
    await screenshotsAtBothSizes(again, 'user-registration-used');
    await view.getByRole('link', { name: 'Go to sign in' }).click();
    await again.waitForURL(onPath(routes.signIn.path));
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

    // Every message of the form, the amount's and the address's rules, the focus on the first message,
    // what the sent view says and where its focus goes: apps/web/test/joining.test.tsx.
    const send = page.getByRole('button', { name: 'Send application' });
    await send.click();
    await page.getByText('Business name is required.').waitFor();
    await assertAccessible(page, 'start application with errors');
    await screenshotsAtBothSizes(page, 'start-application-errors');

    await page.getByLabel('Business name').fill(APPLICANT.businessName);
    await page.getByLabel('Your name').fill(APPLICANT.contactName);
    await page.getByLabel('Email').fill(APPLICANT.email.toUpperCase());
    await page.getByLabel('Amount requested').fill('$75,000');
    await page.getByLabel('What is the loan for?').selectOption({ label: 'Equipment' });
    await send.click();
    const sent = page.getByTestId('start-application-sent');
    await sent.getByText(APPLICANT.email).waitFor();
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
    // The application's business and address, as the API has them (the view's words: joining.test.tsx).
    const verified = page.getByTestId('email-verification-verified');
    await verified.getByText(APPLICANT.businessName).waitFor();
    await verified.getByText(APPLICANT.email).waitFor();
    assert.deepEqual(verifyCalls, ['POST']);
    await assertAccessible(page, 'email verified');
    await screenshotsAtBothSizes(page, 'email-verification-verified');

    // Back leaves the verification page for the application, not for the forwarder.
    await page.goBack();
    await page.waitForURL(onPath(routes.startApplication.path));
    assert.deepEqual(errors, []);
  });

  it('applies while signed in: in the shell, with the account’s name and address, then on the home', async () => {
    const email = 'ines.ortega@example.com';
    await addBorrower(portal.server, {
      login: email,
      password: STRONG_PASSWORD,
      firstName: 'Ines',
      lastName: 'Ortega',
    });
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await signInBySession(portal, page, { email });
    await page.getByTestId('loans-empty').getByRole('link', { name: 'Apply for a loan' }).click();
    await page.waitForURL(onPath(routes.startApplication.path));
    const form = page.getByTestId('start-application');
    await form.getByRole('heading', { name: 'Apply for a loan' }).waitFor();
    // The signed-in shell, not the public screen: no sign-in offered, nothing to verify.
    await page.getByTestId('app-header').waitFor();
    assert.doesNotMatch(await page.locator('main').innerText(), /Already a customer|verify your address/i);
    assert.equal(await page.locator('#start-application-contact-name').innerText(), 'Ines Ortega');
    assert.equal(await page.locator('#start-application-email').innerText(), email);
    await assertAccessible(page, 'start application signed in');
    await screenshotsAtBothSizes(page, 'start-application-signed-in');

    await page.getByLabel('Business name').fill('Ortega Print Shop');
    await page.getByLabel('Amount requested').fill('$40,000');
    await page.getByLabel('What is the loan for?').selectOption({ label: 'Inventory' });
    await page.getByRole('button', { name: 'Send application' }).click();
    await page.waitForURL(onPath(routes.dashboard.path));
    const application = page.getByTestId('application');
    await application.getByText('Ortega Print Shop').waitFor();
    assert.match(await application.innerText(), /\$40,000\.00 · Inventory · Sent /);
    assert.equal(
      await application.getByTestId('application-state').innerText(),
      'Received. A lending specialist will contact you.',
    );
    await assertAccessible(page, 'home with an application');
    await screenshotsAtBothSizes(page, 'home-application');
    assert.deepEqual(errors, []);
  });

  it('says in a banner when the address has sent too many applications in a short time', async () => {
    // (The limit: apps/api/test/applications.test.ts; the banner's words, the values kept, its dismissal
    // and the banner of no connection: apps/web/test/joining.test.tsx.)
    const { page } = await portal.newPage();
    await page.goto(routes.startApplication.path);
    await page.getByLabel('Business name').fill('Busy Owner Ltd');
    await page.getByLabel('Your name').fill('Bea Busy');
    await page.getByLabel('Email').fill('busy.owner@example.com');
    await page.getByLabel('Amount requested').fill('20000');
    await page.getByLabel('What is the loan for?').selectOption({ label: 'Inventory' });
    const send = page.getByRole('button', { name: 'Send application' });
    // The address's limit (3 in a window), then the API's 429.
    for (let sent = 0; sent < 3; sent += 1) {
      await send.click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();
      await page.getByRole('button', { name: 'Start again' }).click();
    }
    await send.click();
    await page
      .getByTestId('start-application-error-banner')
      .filter(withText('several applications'))
      .waitFor();
    await assertAccessible(page, 'start application, too many');
    await screenshotsAtBothSizes(page, 'start-application-too-many');
  });

  it('verification: a retry after a network failure, then a link it never sent', async () => {
    // (Both views' words, and the way to a new application: apps/web/test/joining.test.tsx.)
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
    await assertAccessible(page, 'email verification, invalid link');
    await screenshotsAtBothSizes(page, 'email-verification-invalid');
  });

  it('remembers how a visitor chose to continue, on this device', async () => {
    // (The choice asked for with the focus on the first, remembered by default, forgotten when told,
    // and not remembered when unticked: apps/web/test/joining.test.tsx.) Here, across page loads.
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await page.goto(routes.nextStepPreference.path);
    await page.getByRole('heading', { name: 'How would you like to continue?' }).waitFor();
    await assertAccessible(page, 'next-step preference');
    await screenshotsAtBothSizes(page, 'next-step-preference');

    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter(withText('Choose how you would like to continue.')).waitFor();
    await assertAccessible(page, 'next-step preference with an error');

    // Apply, remembered (the default): off to the application.
    const apply = page.getByRole('radio', { name: /Apply for a new loan/ });
    await apply.check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(onPath(routes.startApplication.path));

    // Back on the page later, after a reload: chosen already, and said so.
    await page.goto(routes.nextStepPreference.path);
    await page.reload();
    await page.getByTestId('next-step-remembered').filter(withText('Apply for a new loan')).waitFor();
    assert.equal(await apply.isChecked(), true);
    await assertAccessible(page, 'next-step preference remembered');
    await screenshotsAtBothSizes(page, 'next-step-preference-remembered');
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
    // (The view's words and links: apps/web/test/joining.test.tsx.)
    const view = page.getByTestId('user-registration-already-registered');
    await view.getByRole('heading', { name: 'You already have an account' }).waitFor();
    await assertAccessible(page, 'registration, already registered');
    await screenshotsAtBothSizes(page, 'user-registration-already-registered');

    // Opened again, the page says so at once.
    await page.reload();
    await view.getByRole('heading', { name: 'You already have an account' }).waitFor();
    assert.equal(await page.getByLabel('Password', { exact: true }).count(), 0, 'no form');
  });
});
