import './support/dom.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { SignInForm } from '../src/features/sign-in/sign-in-form.tsx';
import { SignInScreen } from '../src/features/sign-in/sign-in-screen.tsx';
import { expectFocus, expectNone, renderInApp } from './support/render.tsx';

// The sign-in screen's words (the spec's), and the form's rules: each message under its field.

const login = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'LOGIN' })));

describe('sign-in screen', () => {
  it('shows every text of the spec, and where its links lead', async () => {
    renderInApp(<SignInScreen />, { path: routes.signIn.path });
    screen.getByRole('heading', { level: 1, name: 'Welcome Back' });
    screen.getByText('Sign in to access your account.');
    await screen.findByRole('heading', { name: 'Sign in to your account' });
    screen.getByRole('button', { name: 'Email Only Sign In' });
    screen.getByText('Not a customer?', { exact: false });
    assert.equal(
      screen.getByRole('link', { name: 'Apply For a Loan' }).getAttribute('href'),
      routes.startApplication.path,
    );
    assert.equal(
      screen.getByRole('link', { name: 'Forgot Password?' }).getAttribute('href'),
      routes.forgotPassword.path,
    );
  });

  it('confirms a sign-out, a session that ended and a password changed, each in a notice, not an error', () => {
    const notices = [
      [{ auth: { signedOut: true } }, 'You\u2019re signed out.'],
      [{ auth: { sessionEnded: true } }, 'Your session has ended. Please sign in again.'],
      [
        { state: { notice: 'password-changed' } },
        'Your password has been changed. Sign in with your new password.',
      ],
    ] as const;
    for (const [given, words] of notices) {
      const { unmount } = renderInApp(<SignInScreen />, { path: routes.signIn.path, ...given });
      assert.equal(screen.getByText(words).closest('[role]')?.getAttribute('role'), 'status');
      expectNone(screen.queryByRole('alert'), 'an error');
      unmount();
    }
    renderInApp(<SignInScreen />, { path: routes.signIn.path, auth: { signedOut: true } });
    assert.equal(screen.getByTestId('signed-out-notice').getAttribute('role'), 'status');
  });
});

describe('sign-in form', () => {
  it('shows each validation message under its field', async () => {
    renderInApp(<SignInForm />);
    await login();
    await screen.findByText('Email is required.');
    screen.getByText('Password is required.');
    const email = screen.getByLabelText('Email');
    assert.equal(email.getAttribute('aria-invalid'), 'true');
    await expectFocus(email);

    fireEvent.change(email, { target: { value: 'dana@' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'short' } });
    await login();
    await screen.findByText('Invalid email address.');
    await waitFor(() => screen.getByText('Password must be at least 8 characters.'));
  });

  it('toggles password visibility', () => {
    renderInApp(<SignInForm />);
    const password = screen.getByLabelText('Password');
    assert.equal(password.getAttribute('type'), 'password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    assert.equal(password.getAttribute('type'), 'text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    assert.equal(password.getAttribute('type'), 'password');
  });
});
