import { LENDER } from './support/dom.ts';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  ACCESS_TOKEN_STORAGE_KEY,
  SECOND_FACTOR_ERROR_CODES,
  recoveryCodeEndpoints,
  secondFactorEndpoints,
  type SecondFactor,
} from '@customer-core/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RecoveryCodesSection } from '../src/features/account/recovery-codes-section.tsx';
import { SecondFactorsSection } from '../src/features/account/second-factors-section.tsx';
import { setupI18n } from '@lingui/core';
import { listed, secondStepText, waysSummary } from '../src/features/account/factor-words.ts';
import { serveApi, type TestApi } from './support/api.ts';
import { press, type } from './support/forms.ts';
import { expectFocus, expectNone, renderInApp } from './support/render.tsx';

// Two-step verification on the account page: adding an authenticator app with its first code, email
// codes, removing a factor after the password, and recovery codes. The refusals' words are the API's.

const WRONG_CODE = 'That code didn\u2019t work. Check your app and enter the code it shows now.';
const WRONG_PASSWORD = 'That isn\u2019t your current password. Check it and try again.';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

let api: TestApi | undefined;
beforeEach(() => localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, 'product-token'));
afterEach(async () => {
  localStorage.clear();
  await api?.close();
});

/** The borrower's factors as the API keeps them, changed by each call as the API does. */
function factorsApi() {
  let factors: SecondFactor[] = [];
  const app: SecondFactor = {
    id: 'app1',
    type: 'authenticator_app',
    addedAt: '2026-07-01T10:00:00Z',
    lastUsedAt: null,
  };
  return {
    [`GET ${secondFactorEndpoints.list.path}`]: () => ({
      status: 200,
      body: { factors, policy: 'optional' },
    }),
    [`POST ${secondFactorEndpoints.enrolAuthenticatorApp.path}`]: {
      status: 200,
      body: { factorId: 'app1', sharedSecret: SECRET, accountName: 'ari@example.com' },
    },
    [`POST ${secondFactorEndpoints.activate.href({ factorId: 'app1' })}`]: (sent: unknown) =>
      (sent as { code: string }).code === '123456'
        ? ((factors = [app]), { status: 200, body: { added: true } })
        : { status: 400, body: { error: 'wrong_code', message: WRONG_CODE } },
    [`POST ${secondFactorEndpoints.remove.href({ factorId: 'app1' })}`]: (sent: unknown) =>
      (sent as { currentPassword: string }).currentPassword === 'Borrower-Pass-42'
        ? ((factors = []), { status: 200, body: { removed: true } })
        : { status: 400, body: { error: 'wrong_password', message: WRONG_PASSWORD } },
  };
}

describe('two-step verification on the account page', () => {
  it('adds an authenticator app with its first code, a wrong one said under the field', async () => {
    api = await serveApi(factorsApi());
    renderInApp(<SecondFactorsSection />);
    const section = screen.getByTestId('account-factors');
    within(section).getByRole('heading', { name: 'Two-step verification' });
    await waitFor(() =>
      assert.equal(within(section).getByTestId('account-factors-summary').textContent, 'None yet'),
    );
    const row = within(section).getByRole('button', { name: 'Set up' });
    await act(async () => void fireEvent.click(row));
    // No second step yet: the section does not say signing in takes one.
    assert.match(
      within(section).getByTestId('account-factors-intro').textContent ?? '',
      /^Add a second step/,
    );

    // Cancel hands the focus back to the button that opened the form.
    await press('Add an authenticator app');
    await screen.findByRole('button', { name: 'Cancel' });
    await press('Cancel');
    await expectFocus(screen.getByRole('button', { name: 'Add an authenticator app' }));

    await press('Add an authenticator app');
    await expectFocus(
      await screen.findByRole('heading', { name: 'Scan this code with your authenticator app' }),
    );
    screen.getByRole('img', { name: `QR code to add ${LENDER.name} to your authenticator app` });
    assert.equal(screen.getByTestId('factor-secret').textContent, 'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');

    const code = screen.getByLabelText('6-digit code');
    type(code, '000000');
    await press('Add app');
    await screen.findByText(WRONG_CODE);
    assert.equal(code.getAttribute('aria-invalid'), 'true');

    type(screen.getByLabelText('6-digit code'), '123456');
    await press('Add app');
    await screen.findByText('Your authenticator app is added.');
    // The row closes on its new state, the focus on its button, now "Manage".
    await waitFor(() =>
      assert.equal(screen.getByTestId('account-factors-summary').textContent, 'Authenticator app'),
    );
    const manage = screen.getByRole('button', { name: 'Manage' });
    await expectFocus(manage);
    await act(async () => void fireEvent.click(manage));
    assert.match(
      within(screen.getByTestId('account-factors')).getByTestId('account-factors-intro').textContent ?? '',
      /^Signing in takes your password and a code from your authenticator app\./,
    );
    const factor = await screen.findByTestId('factor-row');
    within(factor).getByText('Authenticator app');
    within(factor).getByText('Not used yet');
  });

  it('removes a factor after the current password, a wrong one said under the field', async () => {
    const answers = factorsApi();
    api = await serveApi(answers);
    // The app is there already.
    await fetch(`${location.origin}${secondFactorEndpoints.activate.href({ factorId: 'app1' })}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: '123456' }),
    });
    renderInApp(<SecondFactorsSection />);
    const manage = await screen.findByRole('button', { name: 'Manage' });
    await act(async () => void fireEvent.click(manage));
    const row = await screen.findByTestId('factor-row');
    const remove = within(row).getByRole('button', { name: 'Remove' });
    fireEvent.click(remove);
    await press('Cancel');
    await expectFocus(within(screen.getByTestId('factor-row')).getByRole('button', { name: 'Remove' }));

    await act(async () =>
      fireEvent.click(within(screen.getByTestId('factor-row')).getByRole('button', { name: 'Remove' })),
    );
    const password = screen.getByLabelText('Current password');
    await expectFocus(password);
    type(password, 'Not-My-Pass-1');
    await press('Remove app');
    await screen.findByText(WRONG_PASSWORD);
    type(screen.getByLabelText('Current password'), 'Borrower-Pass-42');
    await press('Remove app');
    await screen.findByText('Your authenticator app is removed.');
    await waitFor(() => assert.equal(screen.getByTestId('account-factors-summary').textContent, 'None yet'));
    await expectFocus(screen.getByRole('button', { name: 'Set up' }));
  });
});

describe('two-step verification turned off by the lender', () => {
  it('shows no section where the API says second factors are off', async () => {
    api = await serveApi({
      [`GET ${secondFactorEndpoints.list.path}`]: {
        status: 403,
        body: { error: SECOND_FACTOR_ERROR_CODES.off, message: 'Two-step verification is not offered.' },
      },
    });
    renderInApp(<SecondFactorsSection />);
    // There while it loads, gone once the API has answered.
    screen.getByTestId('account-factors');
    await waitFor(() => expectNone(screen.queryByTestId('account-factors'), 'the section'));
    expectNone(screen.queryByRole('heading', { name: 'Two-step verification' }), 'its heading');
    assert.deepEqual(
      api.calls.map(({ method, path }) => `${method} ${path}`),
      [`GET ${secondFactorEndpoints.list.path}`],
    );
  });
});

describe('recovery codes on the account page', () => {
  it('makes a set after the password, shows it once, then counts what is left', async () => {
    let remaining = 0;
    const codes = Array.from({ length: 10 }, (_, i) => `abcd-efgh-ijkl-mn${String(i).padStart(2, '0')}`);
    api = await serveApi({
      [`GET ${recoveryCodeEndpoints.status.path}`]: () => ({
        status: 200,
        body: { offered: true, remaining },
      }),
      [`POST ${recoveryCodeEndpoints.generate.path}`]: (sent: unknown) =>
        (sent as { currentPassword: string }).currentPassword === 'Borrower-Pass-42'
          ? ((remaining = 10), { status: 200, body: { codes } })
          : { status: 400, body: { error: 'wrong_password', message: WRONG_PASSWORD } },
    });
    renderInApp(<RecoveryCodesSection refresh={0} />);
    const section = screen.getByTestId('recovery-codes');
    await waitFor(() =>
      assert.equal(within(section).getByTestId('recovery-codes-left').textContent, 'None yet'),
    );
    await press('Make codes');
    await expectFocus(within(section).getByLabelText('Current password'));
    type(within(section).getByLabelText('Current password'), 'Not-My-Pass-1');
    await press('Make recovery codes');
    await within(section).findByText(WRONG_PASSWORD);
    type(within(section).getByLabelText('Current password'), 'Borrower-Pass-42');
    await press('Make recovery codes');
    await within(section).findByRole('heading', { name: 'Save your recovery codes' });
    assert.deepEqual(
      within(section)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
      codes,
    );
    await press('I\u2019ve saved them');
    await waitFor(() =>
      assert.equal(within(section).getByTestId('recovery-codes-left').textContent, '10 unused codes'),
    );
    await expectFocus(within(section).getByRole('button', { name: 'Make new codes' }));
  });
});

describe('what the account page says of the second steps', () => {
  const factor = (type: SecondFactor['type']): SecondFactor => ({
    id: type,
    type,
    addedAt: '2026-07-01T10:00:00Z',
    lastUsedAt: null,
  });

  it('says signing in takes a code only where the borrower has a way to get one', () => {
    assert.equal(
      secondStepText([]),
      'Add a second step to signing in: a code from an authenticator app or your email, after your password.',
    );
    assert.equal(
      secondStepText([factor('email_code')]),
      'Signing in takes your password and a code from your email.',
    );
    assert.equal(secondStepText([factor('passkey')]), 'Signing in takes your password and your passkey.');
    assert.equal(
      secondStepText([factor('authenticator_app'), factor('email_code'), factor('passkey')]),
      'Signing in takes your password and a code from your authenticator app or your email or your passkey.',
    );
  });

  it('names the row’s state from the app and email codes, passkeys being their own row', () => {
    assert.equal(waysSummary([]), 'None yet');
    assert.equal(waysSummary([factor('passkey')]), 'None yet');
    assert.equal(waysSummary([factor('email_code')]), 'Email codes');
    assert.equal(
      waysSummary([factor('authenticator_app'), factor('email_code')]),
      'Authenticator app and email codes',
    );
  });

  it('lists passkeys’ names as the page’s language lists', () => {
    const inLanguage = (locale: string) => setupI18n({ locale, messages: { [locale]: {} } });
    const names = ['Laptop', 'Phone', 'Key'];
    assert.equal(listed(names, inLanguage('en-US')), 'Laptop, Phone, and Key');
    assert.equal(listed(names, inLanguage('es-US')), 'Laptop, Phone y Key');
    assert.equal(listed(['Laptop', 'Phone'], inLanguage('es-US')), 'Laptop y Phone');
    assert.equal(listed(['Laptop'], inLanguage('en-US')), 'Laptop');
  });
});
