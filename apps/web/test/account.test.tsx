import './support/dom.ts';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ACCESS_TOKEN_STORAGE_KEY, accountEndpoints } from '@customer-core/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AccountRows } from '../src/features/account/account-row.tsx';
import { ChangeEmailSection } from '../src/features/account/change-email-section.tsx';
import { ChangePasswordSection } from '../src/features/account/change-password-section.tsx';
import { SessionsSection } from '../src/features/account/sessions-section.tsx';
import { serveApi, type TestApi } from './support/api.ts';
import { press, type } from './support/forms.ts';
import { expectFocus, expectNone, renderInApp } from './support/render.tsx';

// The account page's rows: each opens its form in place and closes it (Cancel, a change made,
// Escape) with the focus back on its button, one open at a time; the changes of the password and of
// the sign-in email address: what each says when it is done, and when the API refuses it.

const WRONG_PASSWORD = 'That isn\u2019t your current password. Check it and try again.';

/** Opens a row with its button (by its words) and answers the button. */
async function openRow(section: HTMLElement, name: string): Promise<HTMLElement> {
  const button = within(section).getByRole('button', { name });
  await act(async () => void fireEvent.click(button));
  assert.equal(button.getAttribute('aria-expanded'), 'true');
  return button;
}

const escape = () => act(async () => void fireEvent.keyDown(document.activeElement!, { key: 'Escape' }));

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
    await openRow(section, 'Change');
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

  it('says it is done and how many devices were signed out, the form closed, the focus on the row’s button', async () => {
    let changed = 0;
    api = await serveApi({ [change]: { status: 200, body: { passwordChanged: true, endedSessions: 1 } } });
    renderInApp(<ChangePasswordSection onChanged={() => (changed += 1)} />);
    const button = await openRow(screen.getByTestId('account-password'), 'Change');
    type(screen.getByLabelText('Current password'), 'Before-Change-31');
    type(screen.getByLabelText('New password'), 'After-Change-47');
    type(screen.getByLabelText('Confirm new password'), 'After-Change-47');
    await press('Change password');
    const notice = screen.getByTestId('account-password-notice');
    await waitFor(() =>
      assert.equal(notice.textContent, 'Your password is changed, and your other device is signed out.'),
    );
    await expectFocus(button);
    assert.equal(button.getAttribute('aria-expanded'), 'false');
    expectNone(screen.queryByLabelText('New password'), 'the form');
    assert.equal(changed, 1);
  });
});

describe('changing the sign-in email address', () => {
  const current = { status: 200, body: { email: 'ada@example.com', changeable: true } };

  it('names the current address, and says where the link went, the focus back on the row’s button', async () => {
    api = await serveApi({
      [`GET ${accountEndpoints.email.path}`]: current,
      [`POST ${accountEndpoints.changeEmail.path}`]: { status: 202, body: { linkSent: true } },
    });
    renderInApp(<ChangeEmailSection />);
    const section = screen.getByTestId('account-email');
    within(section).getByRole('heading', { name: 'Email address' });
    await waitFor(() =>
      assert.equal(within(section).getByTestId('change-email-current').textContent, 'ada@example.com'),
    );
    const button = await openRow(section, 'Change');
    await expectFocus(screen.getByLabelText('New email address'));

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
    await expectFocus(button);
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
    await within(screen.getByTestId('account-email')).findByRole('button', { name: 'Change' });
    await openRow(screen.getByTestId('account-email'), 'Change');
    const field = await screen.findByLabelText('New email address');
    type(field, 'ada.new@example.org');
    await press('Send confirmation link');
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it\u2019s you' });
    within(dialog).getByText(reason);
    await expectFocus(document.getElementById('step-up-password')!);
    within(dialog).getByRole('button', { name: 'Confirm and send link' });

    // Escape closes the dialog alone (not the form under it); the focus goes back to the button, and
    // the address typed stays.
    await escape();
    await waitFor(() => expectNone(screen.queryByRole('dialog'), 'the dialog'));
    await expectFocus(screen.getByRole('button', { name: 'Send confirmation link' }));
    assert.ok(field.isConnected, 'the form is still open');
    assert.equal((field as HTMLInputElement).value, 'ada.new@example.org');
  });
});

describe('the account page’s rows', () => {
  const answers = {
    [`GET ${accountEndpoints.email.path}`]: {
      status: 200,
      body: { email: 'ada@example.com', changeable: true },
    },
  };

  it('opens a row’s form with the focus in its first field; Escape and Cancel close it, the focus back on its button', async () => {
    api = await serveApi(answers);
    renderInApp(<ChangePasswordSection onChanged={() => {}} />);
    const section = screen.getByTestId('account-password');
    // Closed: its state, and no password field on the page.
    assert.equal(within(section).getByTestId('account-password-summary').textContent, 'Set');
    expectNone(screen.queryByLabelText('Current password'), 'a password field');
    const button = within(section).getByRole('button', { name: 'Change' });
    assert.equal(button.getAttribute('aria-expanded'), 'false');

    await openRow(section, 'Change');
    assert.equal(
      button.getAttribute('aria-controls'),
      within(section).getByTestId('account-password-panel').id,
    );
    await expectFocus(screen.getByLabelText('Current password'));
    await escape();
    expectNone(screen.queryByLabelText('Current password'), 'the form, after Escape');
    assert.equal(button.getAttribute('aria-expanded'), 'false');
    await expectFocus(button);

    await openRow(section, 'Change');
    await press('Cancel');
    expectNone(screen.queryByLabelText('Current password'), 'the form, after Cancel');
    await expectFocus(button);
  });

  it('keeps one row open: opening another closes the first', async () => {
    api = await serveApi(answers);
    renderInApp(
      <AccountRows>
        <ChangeEmailSection />
        <ChangePasswordSection onChanged={() => {}} />
      </AccountRows>,
    );
    const email = screen.getByTestId('account-email');
    await within(email).findByRole('button', { name: 'Change' });
    await openRow(screen.getByTestId('account-password'), 'Change');
    await openRow(email, 'Change');
    await expectFocus(screen.getByLabelText('New email address'));
    expectNone(screen.queryByLabelText('Current password'), 'the password form');
    assert.equal(
      within(screen.getByTestId('account-password'))
        .getByRole('button', { name: 'Change' })
        .getAttribute('aria-expanded'),
      'false',
    );
  });

  it('says the lender changes a hosted org’s address, with no button', async () => {
    api = await serveApi({
      [`GET ${accountEndpoints.email.path}`]: {
        status: 200,
        body: { email: 'ada@example.com', changeable: false },
      },
    });
    renderInApp(<ChangeEmailSection />);
    const section = screen.getByTestId('account-email');
    const withLender = await within(section).findByTestId('account-email-with-lender');
    expectNone(within(section).queryByRole('button'), 'a button');
    // The address once, in the summary; the sentence only says how to change it.
    assert.equal(within(section).getByTestId('change-email-current').textContent, 'ada@example.com');
    assert.match(withLender.textContent ?? '', /^To change it, call .+ at .+\.$/);
  });
});

describe('where the borrower is signed in', () => {
  /** A session on "Browser on System", as the API names the two. */
  const session = (id: string, device: string | null, lastActiveAt: string, current = false) => ({
    id,
    createdAt: '2026-07-01T09:00:00Z',
    lastActiveAt,
    method: 'password',
    device: device && { browser: device.split(' on ')[0]!, system: device.split(' on ')[1]! },
    approximateAddress: '203.0.113.0/24',
    current,
  });

  it('groups the sign-ins by device, this device first and marked, each sign-in signed out on its own', async () => {
    api = await serveApi({
      [`GET ${accountEndpoints.sessions.path}`]: {
        status: 200,
        body: {
          sessions: [
            session('s1', 'Safari on iPhone', '2026-07-03T10:00:00Z'),
            session('s2', 'Chrome on Linux', '2026-07-02T10:00:00Z'),
            session('s3', 'Chrome on Linux', '2026-07-01T10:00:00Z', true),
            session('s4', 'Chrome on Linux', '2026-07-04T10:00:00Z'),
          ],
        },
      },
    });
    renderInApp(<SessionsSection />);
    await waitFor(() => assert.equal(screen.getAllByTestId('session-device').length, 2));
    const [here, phone] = screen.getAllByTestId('session-device') as [HTMLElement, HTMLElement];
    assert.equal(here.getAttribute('data-current'), 'true');
    within(here).getByText('This device');
    assert.match(
      within(here).getByTestId('session-device-count').textContent ?? '',
      /^3 sign-ins · Last active Jul 4, 2026/,
    );
    expectNone(within(here).queryByTestId('session-row'), 'its sign-ins, before they are shown');
    // One sign-in: shown in the device's row, with its own "Sign out".
    within(phone).getByText('Safari on iPhone');
    within(phone).getByText(/^Last active .* · Network 203\.0\.113\.0\/24$/);
    within(phone).getByRole('button', { name: 'Sign out' });
    expectNone(within(phone).queryByText('This device'), 'the other device marked');

    const toggle = within(here).getByRole('button', { name: 'Show sign-ins' });
    await act(async () => void fireEvent.click(toggle));
    assert.equal(toggle.getAttribute('aria-expanded'), 'true');
    const rows = within(here).getAllByTestId('session-row');
    assert.deepEqual(
      rows.map((row) => row.getAttribute('data-current')),
      ['true', 'false', 'false'],
      'this browser first, then the newest',
    );
    within(rows[0]!).getByText('This browser');
    expectNone(within(rows[0]!).queryByRole('button', { name: 'Sign out' }), 'a Sign out of this browser');
    assert.equal(within(here).getAllByRole('button', { name: 'Sign out' }).length, 2);
    assert.match(rows[1]!.textContent ?? '', /Last active Jul 4, 2026/);
  });
});
