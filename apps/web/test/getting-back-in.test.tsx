import { LENDER } from './support/dom.ts';
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  LINK_SENT_MESSAGE,
  PASSWORD_RULES,
  PASSWORDS_DO_NOT_MATCH,
  authEndpoints,
  routes,
} from '@customer-core/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { ForgotPasswordScreen } from '../src/features/forgot-password/forgot-password-screen.tsx';
import { MagicLinkLandingScreen } from '../src/features/magic-link-landing/magic-link-landing-screen.tsx';
import { MagicLinkScreen } from '../src/features/magic-link/magic-link-screen.tsx';
import { PasswordResetScreen } from '../src/features/password-reset/password-reset-screen.tsx';
import { UnrecognizedSignInScreen } from '../src/features/unrecognized-sign-in/unrecognized-sign-in-screen.tsx';
import { serveApi, type TestApi } from './support/api.ts';
import { expectEachRuleMessage, press, rule, type } from './support/forms.ts';
import { expectFocus, expectNone, renderInApp } from './support/render.tsx';

// Forgot password, the sign-in link request and the reset link's page: their copy, the rules and
// messages of their forms, and what they say when the API refuses or fails.

const linkSent = { status: 200, body: { message: LINK_SENT_MESSAGE } };
const OFFLINE = 'We couldn\u2019t reach our server. Check your internet connection, then try again.';

let api: TestApi | undefined;
afterEach(() => api?.close());

describe('forgot password', () => {
  it('asks for the address with the sign-in rules, under the field', async () => {
    api = await serveApi({});
    renderInApp(<ForgotPasswordScreen />);
    screen.getByRole('heading', { level: 1, name: 'Reset your password' });
    screen.getByText(
      'Enter the email address you sign in with. We\u2019ll send you a link to choose a new password.',
    );
    await press('Send reset link');
    await screen.findByText('Email is required.');
    const email = screen.getByLabelText('Email');
    assert.equal(email.getAttribute('aria-invalid'), 'true');
    assert.equal(email.getAttribute('aria-describedby'), 'forgot-password-email-error');
    type(email, 'dana@');
    await screen.findByText('Invalid email address.');
    assert.deepEqual(api.calls, [], 'nothing is sent before the address is one');
  });

  it('confirms the same way for any address, with the focus on it, and goes back to the form with the address kept', async () => {
    api = await serveApi({ [`POST ${authEndpoints.passwordReset.path}`]: linkSent });
    renderInApp(<ForgotPasswordScreen />);
    type(screen.getByLabelText('Email'), 'nobody-here@example.com');
    await press('Send reset link');
    const sent = await screen.findByTestId('forgot-password-sent');
    const heading = within(sent).getByRole('heading', { name: 'Check your email' });
    await expectFocus(heading);
    within(sent).getByText(LINK_SENT_MESSAGE);
    within(sent).getByText(
      'Open the email and follow the link. It works once, for 30 minutes. If it hasn\u2019t arrived in a few minutes, check your spam or junk folder.',
    );
    assert.equal(
      within(sent).getByRole('link', { name: 'Back to sign in' }).getAttribute('href'),
      routes.signIn.path,
    );
    assert.deepEqual(api.calls, [
      { method: 'POST', path: authEndpoints.passwordReset.path, body: { email: 'nobody-here@example.com' } },
    ]);

    await press('Send another link');
    assert.equal(screen.getByLabelText<HTMLInputElement>('Email').value, 'nobody-here@example.com');
  });

  it('shows a dismissible banner in its own words, not the status, when the call fails', async () => {
    api = await serveApi({
      [`POST ${authEndpoints.passwordReset.path}`]: { status: 503, body: '<h1>503 Service Unavailable</h1>' },
    });
    renderInApp(<ForgotPasswordScreen />);
    type(screen.getByLabelText('Email'), 'dana@example.com');
    await press('Send reset link');
    const banner = await screen.findByRole('alert');
    assert.equal(
      banner.textContent,
      'We couldn\u2019t send the reset link just now. Please try again in a few minutes.',
    );
    await press('Dismiss');
    expectNone(screen.queryByRole('alert'), 'the banner, dismissed');
  });
});

describe('sign-in link request', () => {
  it('asks for the address, then confirms whatever the address: the link works for 10 minutes', async () => {
    api = await serveApi({ [`POST ${authEndpoints.sendMagicLinkEmail.path}`]: linkSent });
    renderInApp(<MagicLinkScreen />);
    screen.getByRole('heading', { level: 1, name: 'Sign in with an email link' });
    await press('Send sign-in link');
    await screen.findByText('Email is required.');
    type(screen.getByLabelText('Email'), 'someone-unknown@example.com');
    await press('Send sign-in link');
    const sent = await screen.findByTestId('magic-link-sent');
    within(sent).getByText(LINK_SENT_MESSAGE);
    within(sent).getByText(/^Open the email and follow the link\. It works once, for 10 minutes\./);
    within(sent).getByRole('link', { name: 'Back to sign in' });
  });

  it('says so when the server cannot be reached', async () => {
    api = await serveApi({});
    await api.close();
    api = undefined;
    renderInApp(<MagicLinkScreen />);
    type(screen.getByLabelText('Email'), 'dana@example.com');
    await press('Send sign-in link');
    assert.equal((await screen.findByRole('alert')).textContent, OFFLINE);
  });
});

describe('password reset', () => {
  const resetPage = routes.passwordReset.href({ token: 'emailed-token' });
  const renderReset = () =>
    renderInApp(
      <Routes>
        <Route path={routes.passwordReset.path} element={<PasswordResetScreen />} />
      </Routes>,
      { path: resetPage },
    );
  const usable = {
    [`POST ${authEndpoints.passwordResetCheck.path}`]: { status: 200, body: { usable: true } },
  };
  const met = (code: string) => screen.getByTestId(`password-rule-${code}`).getAttribute('data-met');

  it('has the rules as a live checklist, each said in words, and a change announced politely', async () => {
    api = await serveApi(usable);
    renderReset();
    await screen.findByRole('heading', { level: 1, name: 'Set a new password' });
    const password = screen.getByLabelText('New password');
    for (const { code } of PASSWORD_RULES) assert.equal(met(code), 'false');
    assert.equal(password.getAttribute('aria-describedby'), 'password-reset-password-rules');
    const live = screen.getByTestId('password-checklist-live');
    assert.equal(live.getAttribute('aria-live'), 'polite');
    // Not by colour alone: each rule says in words whether it is met.
    assert.match(screen.getByTestId('password-rule-length').textContent ?? '', /^Not met yet: /);

    type(password, 'abcdefgh');
    assert.equal(met('length'), 'true');
    assert.equal(met('case'), 'false');
    assert.equal(live.textContent, `Requirement met: ${rule('length').label}.`);
    assert.match(screen.getByTestId('password-rule-length').textContent ?? '', /^Met: /);
    type(password, 'abcdefg');
    assert.equal(met('length'), 'false');
    assert.equal(live.textContent, `Requirement not met: ${rule('length').label}.`);
    type(password, 'Fresh-Start-2026');
    for (const { code } of PASSWORD_RULES) assert.equal(met(code), 'true');
    assert.equal(live.textContent, 'All password requirements are met.');
  });

  it('says under each field what is missing, each rule in its own words, then that they differ', async () => {
    api = await serveApi(usable);
    renderReset();
    const password = await screen.findByLabelText('New password');
    const confirm = screen.getByLabelText('Confirm new password');
    await press('Save new password');
    await screen.findByText('Password is required.');
    screen.getByText('Please confirm your password.');
    assert.equal(
      password.getAttribute('aria-describedby'),
      'password-reset-password-error password-reset-password-rules',
    );

    const passwordError = () => screen.queryByTestId('password-reset-password-error')?.textContent;
    await expectEachRuleMessage(password, passwordError, 'Fresh-Start-2026');
    type(confirm, 'Fresh-Start-2026x');
    await press('Save new password');
    assert.equal(
      (await screen.findByTestId('password-reset-confirm-password-error')).textContent,
      PASSWORDS_DO_NOT_MATCH,
    );
    assert.equal(confirm.getAttribute('aria-invalid'), 'true');

    // Show / hide, on each field.
    const [showPassword] = screen.getAllByRole('button', { name: 'Show password' });
    fireEvent.click(showPassword!);
    assert.equal(password.getAttribute('type'), 'text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    assert.equal(password.getAttribute('type'), 'password');
  });

  it("puts the API's refusal of the password under the field, the link still unspent", async () => {
    api = await serveApi({
      ...usable,
      [`POST ${authEndpoints.passwordResetFinish.path}`]: {
        status: 400,
        body: { error: 'password_too_common', message: 'This password is too common. Choose another.' },
      },
    });
    renderReset();
    const password = await screen.findByLabelText('New password');
    type(password, 'Password1');
    type(screen.getByLabelText('Confirm new password'), 'Password1');
    await press('Save new password');
    assert.equal(
      (await screen.findByTestId('password-reset-password-error')).textContent,
      'This password is too common. Choose another.',
    );
    assert.equal(password.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(api.calls.at(-1), {
      method: 'POST',
      path: authEndpoints.passwordResetFinish.path,
      body: { token: 'emailed-token', password: 'Password1' },
    });
  });

  it('says on arrival that a used or unknown link can’t be used, and where to ask for another', async () => {
    api = await serveApi({
      [`POST ${authEndpoints.passwordResetCheck.path}`]: {
        status: 400,
        body: { error: 'invalid_link', message: 'This link has expired or has already been used.' },
      },
    });
    renderReset();
    await screen.findByRole('heading', { level: 1, name: 'This link can\u2019t be used' });
    screen.getByText('This link has expired or has already been used.');
    expectNone(screen.queryByLabelText('New password'), 'no form');
    assert.equal(
      screen.getByRole('link', { name: 'Request a new reset link' }).getAttribute('href'),
      routes.forgotPassword.path,
    );
  });
});

describe('the sign-in link’s page', () => {
  const renderLanding = () =>
    renderInApp(
      <Routes>
        <Route path={routes.magicLinkLanding.path} element={<MagicLinkLandingScreen />} />
      </Routes>,
      { path: routes.magicLinkLanding.href({ token: 'emailed-token' }) },
    );

  it('spends nothing on opening; a link it never sent is said, with the way to a new one', async () => {
    api = await serveApi({
      [`POST ${authEndpoints.magicLinkLogin.path}`]: {
        status: 400,
        body: { error: 'invalid_link', message: 'This link has expired or has already been used.' },
      },
    });
    renderLanding();
    screen.getByRole('heading', { level: 1, name: `Sign in to ${LENDER.name}` });
    screen.getByText(
      'You opened a sign-in link from your email. Select Continue to sign in to your account.',
    );
    assert.deepEqual(api.calls, [], 'opening the page calls nothing');
    await press('Continue');
    await screen.findByText('This link has expired or has already been used.');
    assert.equal(
      screen.getByRole('link', { name: 'Send me a new sign-in link' }).getAttribute('href'),
      routes.magicLink.path,
    );
    assert.deepEqual(
      api.calls.map(({ path, body }) => [path, body]),
      [[authEndpoints.magicLinkLogin.path, { token: 'emailed-token' }]],
    );
  });

  it('shows a dismissible banner when the server cannot be reached, the link unspent', async () => {
    api = await serveApi({});
    await api.close();
    renderLanding();
    await press('Continue');
    assert.equal((await screen.findByRole('alert')).textContent, OFFLINE);
    assert.equal(screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' }).disabled, false);
    await press('Dismiss');
    expectNone(screen.queryByRole('alert'), 'the banner, dismissed');
  });
});

describe('“This wasn’t me”', () => {
  const renderReport = () =>
    renderInApp(
      <Routes>
        <Route path={routes.unrecognizedSignIn.path} element={<UnrecognizedSignInScreen />} />
      </Routes>,
      { path: routes.unrecognizedSignIn.href({ token: 'emailed-token' }) },
    );
  const report = `POST ${authEndpoints.unrecognizedSignIn.path}`;

  it('signs every device out on Continue only, then leads to a new password', async () => {
    api = await serveApi({ [report]: { status: 200, body: { resetToken: 'reset-token' } } });
    renderReport();
    screen.getByRole('heading', { level: 1, name: 'Secure your account' });
    assert.deepEqual(api.calls, [], 'opening the page calls nothing');
    await press('Continue');
    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'You\u2019re signed out everywhere',
    });
    await expectFocus(heading);
    screen.getByText('No device is signed in to your account now, including this one.');
    assert.equal(
      screen.getByRole('link', { name: 'Choose a new password' }).getAttribute('href'),
      routes.passwordReset.href({ token: 'reset-token' }),
    );
  });

  it('says a used link can’t be used, and leads to a password reset', async () => {
    api = await serveApi({
      [report]: {
        status: 400,
        body: { error: 'invalid_link', message: 'This link has expired or has already been used.' },
      },
    });
    renderReport();
    await press('Continue');
    await screen.findByRole('heading', { level: 1, name: 'This link can\u2019t be used' });
    assert.equal(
      screen.getByRole('link', { name: 'Reset your password' }).getAttribute('href'),
      routes.forgotPassword.path,
    );
  });
});
