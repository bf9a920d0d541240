import './support/dom.ts';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ACCESS_TOKEN_STORAGE_KEY, accountEndpoints } from '@customer-core/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ChangeEmailSection } from '../src/features/account/change-email-section.tsx';
import { ChangePasswordSection } from '../src/features/account/change-password-section.tsx';
import { serveApi, type TestApi } from './support/api.ts';
import { press, type } from './support/forms.ts';
import { expectFocus, expectNone, renderInApp } from './support/render.tsx';

// The account page's changes of the password and of the sign-in email address: what each says when
// it is done, and when the API refuses it.

const WRONG_PASSWORD = 'That isn\u2019t your current password. Check it and try again.';

let api: TestApi | undefined;
beforeEach(() => localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, 'product-token'));
afterEach(async () => {
  localStorage.clear();
  await api?.close();
});

describe('changing the password', () => {
  const change = `POST ${accountEndpoints.password.path}`;

  it('says a wrong current password under that field, with the focus on it, and keeps what was typed', async () => {
    api = await serveApi({
      [change]: { status: 400, body: { error: 'wrong_password', message: WRONG_PASSWORD } },
    });
    renderInApp(<ChangePasswordSection onChanged={() => {}} />);
    const section = screen.getByTestId('account-password');
    const signOutElsewhere = within(section).getByRole<HTMLInputElement>('checkbox', {
      name: 'Sign out everywhere else',
    });
    assert.equal(signOutElsewhere.checked, true, 'ticked by default');
    type(within(section).getByLabelText('Current password'), 'Not-My-Password-1');
    type(within(section).getByLabelText('New password'), 'After-Change-47');
    type(within(section).getByLabelText('Confirm new password'), 'After-Change-47');
    await press('Change password');
    await within(section).findByText(WRONG_PASSWORD);
    await expectFocus(within(section).getByLabelText('Current password'));
    assert.equal(within(section).getByLabelText<HTMLInputElement>('New password').value, 'After-Change-47');
    assert.deepEqual(api.calls.at(-1)?.body, {
      currentPassword: 'Not-My-Password-1',
      newPassword: 'After-Change-47',
      signOutOtherSessions: true,
    });
  });

  it('says it is done and how many devices were signed out, the fields cleared, the focus on the notice', async () => {
    let changed = 0;
    api = await serveApi({ [change]: { status: 200, body: { passwordChanged: true, endedSessions: 1 } } });
    renderInApp(<ChangePasswordSection onChanged={() => (changed += 1)} />);
    type(screen.getByLabelText('Current password'), 'Before-Change-31');
    type(screen.getByLabelText('New password'), 'After-Change-47');
    type(screen.getByLabelText('Confirm new password'), 'After-Change-47');
    await press('Change password');
    const notice = screen.getByTestId('account-password-notice');
    await waitFor(() =>
      assert.equal(notice.textContent, 'Your password is changed, and your other device is signed out.'),
    );
    await expectFocus(notice);
    assert.equal(screen.getByLabelText<HTMLInputElement>('New password').value, '', 'cleared');
    assert.equal(changed, 1);
  });
});

describe('changing the sign-in email address', () => {
  const current = { status: 200, body: { email: 'ada@example.com', changeable: true } };

  it('names the current address, and says where the link went, the focus on the notice', async () => {
    api = await serveApi({
      [`GET ${accountEndpoints.email.path}`]: current,
      [`POST ${accountEndpoints.changeEmail.path}`]: { status: 202, body: { linkSent: true } },
    });
    renderInApp(<ChangeEmailSection />);
    const section = screen.getByTestId('account-email');
    within(section).getByRole('heading', { name: 'Change your email address' });
    const currentAddress = await within(section).findByTestId('change-email-current');
    assert.match(currentAddress.textContent ?? '', /ada@example\.com/);

    type(screen.getByLabelText('New email address'), 'ada@');
    await press('Send confirmation link');
    screen.getByText('Invalid email address.');

    type(screen.getByLabelText('New email address'), 'ada.new@example.org');
    await press('Send confirmation link');
    const notice = screen.getByTestId('account-email-notice');
    await waitFor(() =>
      assert.equal(
        notice.textContent,
        'We\u2019ve sent a link to ada.new@example.org. Open it while you\u2019re signed in to finish the change. Until then, you sign in with ada@example.com.',
      ),
    );
    await expectFocus(notice);
    assert.deepEqual(api.calls.at(-1)?.body, { newEmail: 'ada.new@example.org' });
  });

  it('asks a sign-in too old for it to confirm it’s you, in a dialog that keeps the address typed', async () => {
    const reason = 'To change your email address, confirm it\u2019s you.';
    api = await serveApi({
      [`GET ${accountEndpoints.email.path}`]: current,
      [`POST ${accountEndpoints.changeEmail.path}`]: {
        status: 403,
        body: { error: 'step_up_required', message: reason },
      },
    });
    renderInApp(<ChangeEmailSection />);
    const field = await screen.findByLabelText('New email address');
    type(field, 'ada.new@example.org');
    await press('Send confirmation link');
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it\u2019s you' });
    within(dialog).getByText(reason);
    await expectFocus(document.getElementById('step-up-password')!);
    within(dialog).getByRole('button', { name: 'Confirm and send link' });

    // Escape closes it; the focus goes back to the button, and the address typed stays.
    await act(async () => void fireEvent.keyDown(document.activeElement!, { key: 'Escape' }));
    await waitFor(() => expectNone(screen.queryByRole('dialog'), 'the dialog'));
    await expectFocus(screen.getByRole('button', { name: 'Send confirmation link' }));
    assert.equal((field as HTMLInputElement).value, 'ada.new@example.org');
  });
});
