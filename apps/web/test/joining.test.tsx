import { LENDER } from './support/dom.ts';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  NEXT_STEP_PREFERENCE_STORAGE_KEY,
  PASSWORD_RULES,
  PASSWORDS_DO_NOT_MATCH,
  applicationEndpoints,
  registrationEndpoints,
  routes,
} from '@customer-core/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { EmailVerificationScreen } from '../src/features/email-verification/email-verification-screen.tsx';
import { NextStepPreferenceScreen } from '../src/features/next-step-preference/next-step-preference-screen.tsx';
import { StartApplicationScreen } from '../src/features/start-application/start-application-screen.tsx';
import { UserRegistrationScreen } from '../src/features/user-registration/user-registration-screen.tsx';
import { serveApi, type TestApi } from './support/api.ts';
import { expectEachRuleMessage, press, type } from './support/forms.ts';
import { expectFocus, expectNone, renderInApp } from './support/render.tsx';

// Joining: the invitation's registration form and what it says of an invitation it cannot use,
// starting a loan application, verifying its address, and the next-step preference.

const OFFLINE = 'We couldn\u2019t reach our server. Check your internet connection, then try again.';

let api: TestApi | undefined;
afterEach(() => api?.close());

/** Where a screen sent the visitor: each route of the test says its own path. */
const elsewhere = (...paths: string[]) =>
  paths.map((path) => <Route key={path} path={path} element={<p data-testid="landed">{path}</p>} />);

describe('registration from an invitation', () => {
  const INVITATION = {
    email: 'rosa.martinez@example.com',
    firstName: 'Rosa',
    lastName: 'Martinez',
    expiresAt: '2030-01-01T00:00:00.000Z',
  };
  const lookup = `POST ${registrationEndpoints.invitation.path}`;
  const renderRegistration = () =>
    renderInApp(
      <Routes>
        <Route path={routes.userRegistration.path} element={<UserRegistrationScreen />} />
      </Routes>,
      { path: routes.userRegistration.href({ token: 'invitation-token' }) },
    );

  it('greets the invited borrower, shows the address not editable, and checks the password as a reset does', async () => {
    api = await serveApi({ [lookup]: { status: 200, body: INVITATION } });
    renderRegistration();
    await screen.findByRole('heading', { level: 1, name: 'Create your account' });
    assert.equal(
      screen.getByTestId('user-registration-greeting').textContent,
      `Welcome, Rosa Martinez. ${LENDER.name} has invited you to manage your loans online.`,
    );
    assert.equal(screen.getByRole('group', { name: 'Email' }).textContent?.includes(INVITATION.email), true);
    expectNone(screen.queryByRole('textbox', { name: 'Email' }), 'not editable');
    // Given to password managers, as the username the new password belongs to.
    const username = screen.getByTestId<HTMLInputElement>('user-registration-email-autocomplete');
    assert.equal(username.value, INVITATION.email);
    assert.equal(username.getAttribute('autocomplete'), 'username');
    assert.deepEqual(api.calls, [
      { method: 'POST', path: registrationEndpoints.invitation.path, body: { token: 'invitation-token' } },
    ]);

    await press('Create account');
    await screen.findByText('Password is required.');
    screen.getByText('Please confirm your password.');
    // The focus goes to the first field in error.
    await expectFocus(document.getElementById('user-registration-password')!);

    const password = screen.getByLabelText('Password');
    const passwordError = () => screen.queryByTestId('user-registration-password-error')?.textContent;
    await expectEachRuleMessage(password, passwordError, 'Corner-Shop-2026');
    for (const { code } of PASSWORD_RULES)
      assert.equal(screen.getByTestId(`password-rule-${code}`).getAttribute('data-met'), 'true');
    type(screen.getByLabelText('Confirm password'), 'Corner-Shop-2026x');
    await press('Create account');
    assert.equal(
      (await screen.findByTestId('user-registration-confirm-password-error')).textContent,
      PASSWORDS_DO_NOT_MATCH,
    );
  });

  it('says clearly when an invitation cannot be used, whom to contact, with the focus on it', async () => {
    api = await serveApi({
      [lookup]: {
        status: 400,
        body: { error: 'invalid_link', message: 'This invitation has expired. Call us at (800) 555-0142.' },
      },
    });
    renderRegistration();
    const view = await screen.findByTestId('user-registration-invalid');
    const heading = within(view).getByRole('heading', {
      level: 1,
      name: 'This invitation can\u2019t be used',
    });
    await expectFocus(heading);
    assert.equal(
      within(view).getByTestId('invitation-problem-message').textContent,
      'This invitation has expired. Call us at (800) 555-0142.',
    );
    assert.equal(
      within(view).getByRole('link', { name: 'Go to sign in' }).getAttribute('href'),
      routes.signIn.path,
    );
    expectNone(screen.queryByLabelText('Password'), 'no form');
  });

  it('tells a borrower who has an account already to sign in or reset the password', async () => {
    api = await serveApi({
      [lookup]: {
        status: 409,
        body: {
          error: 'already_registered',
          message: 'This invitation is for an account that exists already.',
        },
      },
    });
    renderRegistration();
    const view = await screen.findByTestId('user-registration-already-registered');
    within(view).getByRole('heading', { level: 1, name: 'You already have an account' });
    assert.equal(
      within(view).getByRole('link', { name: 'Go to sign in' }).getAttribute('href'),
      routes.signIn.path,
    );
    assert.equal(
      within(view).getByRole('link', { name: 'Reset your password' }).getAttribute('href'),
      routes.forgotPassword.path,
    );
    expectNone(screen.queryByLabelText('Password'), 'no form');
  });

  it('offers a retry when the invitation cannot be loaded', async () => {
    api = await serveApi({});
    await api.close();
    renderRegistration();
    await screen.findByRole('heading', { level: 1, name: 'We couldn\u2019t load your invitation' });
    screen.getByText(OFFLINE);
    api = await serveApi({ [lookup]: { status: 200, body: INVITATION } });
    await press('Try again');
    await screen.findByRole('heading', { level: 1, name: 'Create your account' });
  });
});

describe('starting a loan application', () => {
  const amountError = () => screen.queryByTestId('start-application-amount-error')?.textContent;

  it('says every message of the form, the focus on the first, each field pointing at its own', async () => {
    renderInApp(<StartApplicationScreen />);
    screen.getByRole('heading', { level: 1, name: 'Apply for a loan' });
    await press('Send application');
    for (const message of [
      'Business name is required.',
      'Your name is required.',
      'Email is required.',
      'Enter the amount you need.',
      'Choose what the loan is for.',
    ])
      await screen.findByText(message);
    const businessName = screen.getByLabelText('Business name');
    await expectFocus(businessName);
    assert.equal(businessName.getAttribute('aria-invalid'), 'true');
    assert.equal(
      screen.getByLabelText('Amount requested').getAttribute('aria-describedby'),
      'start-application-amount-error start-application-amount-hint',
    );
  });

  it('says each rule of the amount and the address as the API’s schema words them', async () => {
    renderInApp(<StartApplicationScreen />);
    await press('Send application');
    await screen.findByText('Email is required.');
    type(screen.getByLabelText('Email'), 'sam@');
    await screen.findByText('Invalid email address.');
    const amount = screen.getByLabelText('Amount requested');
    for (const [typed, message] of [
      ['12500.50', 'Enter a whole dollar amount.'],
      ['1,000', 'The smallest loan is $5,000.'],
      ['6000000', 'The largest loan is $5,000,000.'],
      ['lots', 'Enter the amount you need.'],
    ]) {
      type(amount, typed!);
      await waitFor(() => assert.equal(amountError(), message));
    }
  });

  it('sends it, says where the link went and what happens next; start again keeps the values', async () => {
    api = await serveApi({
      [`POST ${applicationEndpoints.start.path}`]: (sent) => ({
        status: 201,
        body: { applicationId: 'app-1', email: (sent as { email: string }).email },
      }),
    });
    renderInApp(<StartApplicationScreen />);
    type(screen.getByLabelText('Business name'), 'Harbor Bakery LLC');
    type(screen.getByLabelText('Your name'), 'Sam Lee');
    type(screen.getByLabelText('Email'), 'SAM.LEE@HARBOR-BAKERY.EXAMPLE');
    type(screen.getByLabelText('Amount requested'), '$75,000');
    fireEvent.change(screen.getByLabelText('What is the loan for?'), { target: { value: 'equipment' } });
    await press('Send application');
    const sent = await screen.findByTestId('start-application-sent');
    const heading = within(sent).getByRole('heading', { name: 'Check your email' });
    await expectFocus(heading);
    assert.equal(
      within(sent).getByTestId('start-application-sent-message').textContent,
      'Thank you. We sent a link to sam.lee@harbor-bakery.example to verify your email address.',
    );
    within(sent).getByRole('heading', { name: 'What happens next' });
    assert.deepEqual(api.calls.at(-1)?.body, {
      businessName: 'Harbor Bakery LLC',
      contactName: 'Sam Lee',
      email: 'sam.lee@harbor-bakery.example',
      amountRequested: 75000,
      purpose: 'equipment',
    });
    await press('Start again');
    assert.equal(screen.getByLabelText<HTMLInputElement>('Business name').value, 'Harbor Bakery LLC');
  });

  it("says in the API's words why too many applications went nowhere, and when the server can't be reached", async () => {
    const tooMany =
      'We’ve received several applications from this address. Please wait an hour, or call us at (800) 555-0142.';
    api = await serveApi({
      [`POST ${applicationEndpoints.start.path}`]: {
        status: 429,
        body: { error: 'too_many_requests', message: tooMany },
      },
    });
    renderInApp(<StartApplicationScreen />);
    type(screen.getByLabelText('Business name'), 'Busy Owner Ltd');
    type(screen.getByLabelText('Your name'), 'Bea Busy');
    type(screen.getByLabelText('Email'), 'busy.owner@example.com');
    type(screen.getByLabelText('Amount requested'), '20000');
    fireEvent.change(screen.getByLabelText('What is the loan for?'), { target: { value: 'inventory' } });
    await press('Send application');
    const banner = await screen.findByTestId('start-application-error-banner');
    assert.equal(banner.getAttribute('role'), 'alert');
    assert.equal(banner.textContent, tooMany);
    assert.equal(screen.getByLabelText<HTMLInputElement>('Business name').value, 'Busy Owner Ltd');
    await press('Dismiss');
    expectNone(screen.queryByTestId('start-application-error-banner'), 'the banner, dismissed');

    await api.close();
    await press('Send application');
    assert.equal((await screen.findByTestId('start-application-error-banner')).textContent, OFFLINE);
  });
});

describe('verifying the application’s address', () => {
  const verify = `POST ${applicationEndpoints.verifyEmail.path}`;
  const renderVerification = () =>
    renderInApp(
      <Routes>
        <Route path={routes.emailVerification.path} element={<EmailVerificationScreen />} />
        {elsewhere(routes.startApplication.path)}
      </Routes>,
      { path: routes.emailVerification.href({ token: 'verification-token' }) },
    );

  it('verifies on the button only, and says so', async () => {
    api = await serveApi({
      [verify]: {
        status: 200,
        body: {
          email: 'sam.lee@harbor-bakery.example',
          businessName: 'Harbor Bakery LLC',
          alreadyVerified: false,
        },
      },
    });
    renderVerification();
    screen.getByRole('heading', { level: 1, name: 'Verify your email' });
    assert.deepEqual(api.calls, [], 'opening the page verifies nothing');
    await press('Verify my email address');
    const verified = await screen.findByTestId('email-verification-verified');
    within(verified).getByRole('heading', { name: 'Your email address is verified' });
    within(verified).getByText('Harbor Bakery LLC', { exact: false });
    within(verified).getByText('sam.lee@harbor-bakery.example', { exact: false });
  });

  it('says a link opened again is a success all the same', async () => {
    api = await serveApi({
      [verify]: {
        status: 200,
        body: {
          email: 'sam.lee@harbor-bakery.example',
          businessName: 'Harbor Bakery LLC',
          alreadyVerified: true,
        },
      },
    });
    renderVerification();
    await press('Verify my email address');
    await screen.findByRole('heading', { name: 'Your email address is already verified' });
    screen.getByText('Harbor Bakery LLC', { exact: false });
  });

  it('shows a banner when the server cannot be reached, then what it says of a link it never sent', async () => {
    api = await serveApi({});
    await api.close();
    renderVerification();
    await press('Verify my email address');
    assert.equal((await screen.findByRole('alert')).textContent, OFFLINE);

    api = await serveApi({
      [verify]: {
        status: 400,
        body: { error: 'invalid_link', message: 'This link has expired or has already been used.' },
      },
    });
    await press('Verify my email address');
    const invalid = await screen.findByTestId('email-verification-invalid-link');
    within(invalid).getByRole('heading', { name: 'This link can\u2019t be used' });
    assert.match(
      within(invalid).getByTestId('email-verification-outcome').textContent ?? '',
      /^This link has expired or has already been used\./,
    );
    await act(
      async () =>
        void fireEvent.click(within(invalid).getByRole('link', { name: 'Start a new application' })),
    );
    assert.equal(screen.getByTestId('landed').textContent, routes.startApplication.path);
  });
});

describe('next-step preference', () => {
  const stored = () => localStorage.getItem(NEXT_STEP_PREFERENCE_STORAGE_KEY);
  const renderPreference = () =>
    renderInApp(
      <Routes>
        <Route path={routes.nextStepPreference.path} element={<NextStepPreferenceScreen />} />
        {elsewhere(routes.signIn.path, routes.startApplication.path)}
      </Routes>,
      { path: routes.nextStepPreference.path },
    );
  const radio = (name: RegExp) => screen.getByRole<HTMLInputElement>('radio', { name });
  const rememberBox = () =>
    screen.getByRole<HTMLInputElement>('checkbox', { name: 'Remember my choice on this device' });
  beforeEach(() => localStorage.clear());

  it('asks for a choice, with the focus on the first, then remembers it by default', async () => {
    renderPreference();
    screen.getByRole('heading', { level: 1, name: 'How would you like to continue?' });
    assert.equal(radio(/Manage an existing loan/).checked, false);
    assert.equal(radio(/Apply for a new loan/).checked, false);
    await press('Continue');
    assert.equal(screen.getByRole('alert').textContent, 'Choose how you would like to continue.');
    await expectFocus(document.getElementById('next-step-existing-loan')!);

    fireEvent.click(radio(/Apply for a new loan/));
    assert.equal(rememberBox().checked, true);
    await press('Continue');
    assert.equal(screen.getByTestId('landed').textContent, routes.startApplication.path);
    assert.equal(stored(), 'new-loan');
  });

  it('shows a remembered choice, and forgets it when told, saying so', async () => {
    localStorage.setItem(NEXT_STEP_PREFERENCE_STORAGE_KEY, 'new-loan');
    renderPreference();
    assert.equal(
      screen.getByTestId('next-step-remembered').textContent,
      'Remembered on this device: Apply for a new loan.Forget my choice',
    );
    assert.equal(radio(/Apply for a new loan/).checked, true);
    await press('Forget my choice');
    expectNone(screen.queryByTestId('next-step-remembered'), 'the remembered choice, forgotten');
    screen.getByText('Your choice is forgotten on this device.');
    assert.equal(radio(/Apply for a new loan/).checked, false);
    assert.equal(stored(), null);

    // Not remembered: to sign-in, and nothing stored.
    fireEvent.click(radio(/Manage an existing loan/));
    fireEvent.click(rememberBox());
    await press('Continue');
    assert.equal(screen.getByTestId('landed').textContent, routes.signIn.path);
    assert.equal(stored(), null);
  });
});
