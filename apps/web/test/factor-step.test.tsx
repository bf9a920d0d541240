import { LENDER } from './support/dom.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { FactorStep } from '../src/components/factors/factor-step.tsx';
import { WebauthnStep } from '../src/components/factors/webauthn-step.tsx';
import { RegistrationFactorStep } from '../src/features/user-registration/registration-factor-step.tsx';
import { press } from './support/forms.ts';
import { expectFocus, InPortalLanguage } from './support/render.tsx';

// The second-factor screens of sign-in, one per state of the identity provider's transaction (as
// okta-auth-js hands it over: plain objects whose functions move it on). What each screen says, and
// what the borrower reads when a step is refused.

const WRONG_CODE = 'That code didn\u2019t work. Check your app and enter the code it shows now.';
const WRONG_EMAIL_CODE =
  'That code didn\u2019t work. Check your email and enter the newest code. Codes work for 5 minutes.';
const WRONG_RECOVERY_CODE =
  'That recovery code didn\u2019t work. Check it, or try another one. Each code works once.';
const TOO_MANY_CODES =
  'We\u2019ve sent several codes just now. Use the newest one, or try again in 15 minutes.';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

type Step = (options?: object) => Promise<AuthnTransaction>;
const transaction = (fields: Record<string, unknown>) => fields as unknown as AuthnTransaction;
/** A refusal as okta-auth-js throws it: an AuthApiError with Okta's error code. */
const refusal = (errorCode: string) => Object.assign(new Error(errorCode), { errorCode });
/** Each call answers the next of `answers`; the options it was called with are kept. */
function steps(...answers: Array<AuthnTransaction | Error>) {
  const calls: Array<object | undefined> = [];
  const step: Step = async (options) => {
    calls.push(options);
    const answer = answers[calls.length - 1];
    if (!answer) throw new Error('no answer left');
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { step, calls };
}
const success = transaction({ status: 'SUCCESS' });

interface Shown {
  restarts: Array<string | undefined>;
  successes: AuthnTransaction[];
}
function renderStep(first: AuthnTransaction, backLabel?: string): Shown {
  const shown: Shown = { restarts: [], successes: [] };
  render(
    <FactorStep
      transaction={first}
      onRestart={(message) => shown.restarts.push(message)}
      onSuccess={async (done) => void shown.successes.push(done)}
      {...(backLabel ? { backLabel } : {})}
    />,
    { wrapper: InPortalLanguage },
  );
  return shown;
}

const heading = (name: string) => screen.getByRole('heading', { level: 2, name });
async function enterCode(code: string, button: string) {
  fireEvent.change(screen.getByLabelText('6-digit code'), { target: { value: code } });
  await press(button);
}

describe('factor step: setting up a second factor', () => {
  const activation = (activate: Step) =>
    transaction({
      status: 'MFA_ENROLL_ACTIVATE',
      factor: { factorType: 'token:software:totp', activation: { sharedSecret: SECRET } },
      user: { profile: { login: 'tess@example.com' } },
      activate,
    });

  it('offers an authenticator app, or codes by email instead, with the focus on its heading', async () => {
    const app = steps(activation(steps().step));
    renderStep(
      transaction({
        status: 'MFA_ENROLL',
        factors: [
          { factorType: 'token:software:totp', enroll: app.step },
          { factorType: 'email', enroll: steps().step },
        ],
      }),
    );
    const title = heading('Set up two-step verification');
    await expectFocus(title);
    assert.equal(title.id, 'factor-step-title');
    screen.getByText(
      'For your security, add an authenticator app to your account. You\u2019ll enter a code from it each time you sign in.',
    );
    screen.getByRole('button', { name: 'Get codes by email instead' });
    await press('Set up an authenticator app');
    heading('Scan this code with your authenticator app');
    assert.equal(app.calls.length, 1);
  });

  it('shows the app’s QR code and its key in groups of four; a wrong or short code is said under the field', async () => {
    const activate = steps(refusal('E0000068'), success);
    const shown = renderStep(activation(activate.step));
    await expectFocus(heading('Scan this code with your authenticator app'));
    screen.getByRole('img', { name: `QR code to add ${LENDER.name} to your authenticator app` });
    screen.getByText('Can\u2019t scan it? Enter this key in your app instead:');
    assert.equal(screen.getByTestId('factor-secret').textContent, 'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    screen.getByText('Then enter the 6\u2011digit code your app shows.');

    await enterCode('12345', 'Confirm');
    screen.getByText('Enter the 6-digit code from your app.');
    assert.equal(activate.calls.length, 0, 'a short code is not sent');

    await enterCode('000000', 'Confirm');
    screen.getByText(WRONG_CODE);
    const field = screen.getByLabelText('6-digit code');
    assert.equal(field.getAttribute('aria-invalid'), 'true');
    assert.equal(field.getAttribute('aria-describedby'), 'sign-in-factor-code-error');
    // Back on the field, which reads out the message (it was disabled while the code was checked).
    await expectFocus(field);

    await enterCode('123456', 'Confirm');
    assert.deepEqual(activate.calls, [{ passCode: '000000' }, { passCode: '123456' }]);
    assert.deepEqual(shown.successes, [success]);
  });

  it('sends a code by email instead: the address as the provider masks it, with a real ellipsis', async () => {
    renderStep(
      transaction({
        status: 'MFA_ENROLL_ACTIVATE',
        factor: { factorType: 'email', profile: { email: 'e...l@example.com' } },
        activate: steps().step,
      }),
    );
    heading('Check your email');
    assert.equal(
      screen.getByText(/^We sent a 6‑digit code to/).textContent,
      'We sent a 6\u2011digit code to e\u2026l@example.com. It works for 5 minutes.',
    );
  });

  it('goes back to the password form on its way back, ending the transaction', async () => {
    let cancelled = 0;
    const shown = renderStep(
      transaction({
        status: 'MFA_ENROLL',
        factors: [{ factorType: 'token:software:totp', enroll: steps().step }],
        cancel: async () => void (cancelled += 1),
      }),
    );
    await press('Back to sign in');
    assert.deepEqual(shown.restarts, [undefined]);
    assert.equal(cancelled, 1);
  });
});

describe('factor step: signing in with a second factor', () => {
  const appOnly = (verify: Step) =>
    transaction({ status: 'MFA_REQUIRED', factors: [{ factorType: 'token:software:totp', verify }] });

  it('asks for the app’s code on a numeric field the phone fills in, a pasted code kept to its digits', async () => {
    const verify = steps(refusal('E0000068'), success);
    const shown = renderStep(appOnly(verify.step));
    await expectFocus(heading('Enter your code'));
    screen.getByText('Open your authenticator app and enter the 6\u2011digit code it shows.');
    const field = screen.getByLabelText<HTMLInputElement>('6-digit code');
    assert.equal(field.getAttribute('inputmode'), 'numeric');
    assert.equal(field.getAttribute('autocomplete'), 'one-time-code');

    await enterCode('000000', 'Verify');
    screen.getByText(WRONG_CODE);
    assert.equal(field.getAttribute('aria-invalid'), 'true');
    await expectFocus(field);

    fireEvent.change(field, { target: { value: '123 456' } });
    assert.equal(field.value, '123456');
    fireEvent.change(field, { target: { value: '654-321' } });
    assert.equal(field.value, '654321');
    await press('Verify');
    assert.deepEqual(verify.calls, [
      { passCode: '000000', stateToken: undefined },
      { passCode: '654321', stateToken: undefined },
    ]);
    assert.deepEqual(shown.successes, [success]);
  });

  it('says when too many codes were asked for, and sends an expired or locked sign-in back to the password', async () => {
    const verify = steps(refusal('E0000047'), refusal('E0000011'), refusal('E0000069'));
    const shown = renderStep(appOnly(verify.step));
    await enterCode('111111', 'Verify');
    screen.getByText(TOO_MANY_CODES);
    await enterCode('222222', 'Verify');
    await enterCode('333333', 'Verify');
    assert.deepEqual(shown.restarts, [
      'Your sign-in took too long. Please sign in again.',
      'User could not be authenticated.',
    ]);
  });

  it('lets the borrower choose among several ways, and come back to the choice', async () => {
    const recovery = steps(refusal('E0000068'), success);
    const shown = renderStep(
      transaction({
        status: 'MFA_REQUIRED',
        factors: [
          { factorType: 'recovery_code', verify: recovery.step },
          { factorType: 'token:software:totp', verify: steps().step },
          { factorType: 'question', verify: steps().step },
        ],
      }),
    );
    await expectFocus(heading('Confirm it\u2019s you'));
    screen.getByText('Choose how to confirm it\u2019s you.');
    // The ways these screens handle, in their order, each with what it takes; no other.
    const choice = within(screen.getByTestId('factor-choice'));
    assert.deepEqual(choice.getAllByRole('button'), [
      choice.getByRole('button', {
        name: 'Use your authenticator app',
        description: 'The 6-digit code your app shows',
      }),
      choice.getByRole('button', { name: 'Use a recovery code', description: 'One of the codes you saved' }),
    ]);

    await press('Use a recovery code');
    await expectFocus(heading('Use a recovery code'));
    screen.getByText('Enter one of the recovery codes you saved. Each code works once.');
    await press('Verify');
    screen.getByText('Enter a recovery code.');
    fireEvent.change(screen.getByRole('textbox', { name: 'Recovery code' }), {
      target: { value: ' aaaa-aaaa-aaaa-aaaa ' },
    });
    await press('Verify');
    screen.getByText(WRONG_RECOVERY_CODE);
    assert.equal(screen.getByRole('textbox', { name: 'Recovery code' }).getAttribute('aria-invalid'), 'true');
    await expectFocus(screen.getByRole('textbox', { name: 'Recovery code' }));

    await press('Choose another way');
    heading('Confirm it\u2019s you');
    await press('Use your authenticator app');
    heading('Enter your code');
    await press('Choose another way');
    await press('Use a recovery code');
    fireEvent.change(screen.getByRole('textbox', { name: 'Recovery code' }), {
      target: { value: 'bbbb-bbbb-bbbb-bbbb' },
    });
    await press('Verify');
    assert.deepEqual(recovery.calls, [
      { passCode: 'aaaa-aaaa-aaaa-aaaa', stateToken: undefined },
      { passCode: 'bbbb-bbbb-bbbb-bbbb', stateToken: undefined },
    ]);
    assert.deepEqual(shown.successes, [success]);
  });

  it('emails a code when asked, takes it, and sends a new one on request', async () => {
    const check = steps(refusal('E0000068'), success);
    const resendCalls: unknown[] = [];
    const challenge = transaction({
      status: 'MFA_CHALLENGE',
      factor: { factorType: 'email', profile: { email: 'd...s@example.com' } },
      verify: check.step,
      // The same challenge again, with a new code on its way.
      resend: async (name: string) => (resendCalls.push(name), challenge),
    });
    const emailed = steps(challenge);
    const shown = renderStep(
      transaction({
        status: 'MFA_REQUIRED',
        factors: [{ factorType: 'email', profile: { email: 'd...s@example.com' }, verify: emailed.step }],
      }),
    );
    await expectFocus(heading('Get a code by email'));
    assert.equal(
      screen.getByText(/^We’ll email a 6‑digit code to/).textContent,
      'We\u2019ll email a 6\u2011digit code to d\u2026s@example.com.',
    );
    await press('Email me a code');
    await expectFocus(heading('Check your email'));
    screen.getByText('d\u2026s@example.com');

    await enterCode('123', 'Verify');
    screen.getByText('Enter the 6-digit code from your email.');
    await enterCode('000000', 'Verify');
    screen.getByText(WRONG_EMAIL_CODE);

    assert.equal(screen.getByTestId('email-code-resent').textContent, '');
    await press('Send a new code');
    assert.equal(
      screen.getByTestId('email-code-resent').textContent,
      'We sent a new code. Use the newest one.',
    );
    assert.deepEqual(resendCalls, ['email']);

    await enterCode('123456', 'Verify');
    assert.deepEqual(check.calls, [{ passCode: '000000' }, { passCode: '123456' }]);
    assert.deepEqual(shown.successes, [success]);
  });

  it('names a kind of verification it cannot do, and whom to call', () => {
    renderStep(transaction({ status: 'MFA_REQUIRED', factors: [{ factorType: 'push' }] }));
    heading('We can\u2019t finish signing you in here');
    assert.equal(
      screen.getByTestId('factor-unsupported').textContent,
      `Your sign-in asks for a kind of verification this portal doesn\u2019t support (push). Call us at ${LENDER.supportPhone} and we\u2019ll help you sign in.`,
    );
    assert.equal(
      screen.getByRole('link', { name: LENDER.supportPhone }).getAttribute('href'),
      'tel:8005550142',
    );
  });

  it('asks for the passkey with one press; a refused or unused passkey is said, the rest goes back', async () => {
    const restarts: Array<string | undefined> = [];
    const verify = steps(refusal('E0000068'), new Error('not a passkey answer'), refusal('E0000011'));
    render(
      <WebauthnStep
        verify={verify.step}
        stateToken="state-1"
        onStateToken={() => {}}
        onSuccess={async () => {}}
        onRestart={(message) => restarts.push(message)}
      />,
      { wrapper: InPortalLanguage },
    );
    screen.getByText('Use the passkey on this device, or your security key, to finish signing in.');
    await press('Use my passkey');
    assert.equal(
      screen.getByTestId('passkey-error').textContent,
      'That passkey didn\u2019t work. Try again, or use another way to verify.',
    );
    await press('Use my passkey');
    assert.equal(
      screen.getByRole('alert').textContent,
      'We didn\u2019t get your passkey. Try again when you\u2019re ready.',
    );
    await press('Use my passkey');
    assert.deepEqual(restarts, ['Your sign-in took too long. Please sign in again.']);
    assert.deepEqual(verify.calls, [
      { stateToken: 'state-1' },
      { stateToken: 'state-1' },
      { stateToken: 'state-1' },
    ]);
  });
});

describe('factor step of registration', () => {
  it('says the account is ready, then sets up the factor, the focus on the step’s heading', async () => {
    render(
      <RegistrationFactorStep
        email="rosa@example.com"
        transaction={transaction({
          status: 'MFA_ENROLL',
          factors: [{ factorType: 'token:software:totp', enroll: steps().step }],
        })}
        onSuccess={async () => {}}
        onRestart={() => {}}
      />,
      { wrapper: InPortalLanguage },
    );
    screen.getByRole('heading', { level: 1, name: 'Your account is ready' });
    screen.getByText('Your account for rosa@example.com has been created. One more step before you sign in.');
    const step = await screen.findByRole('heading', { level: 2, name: 'Set up two-step verification' });
    await expectFocus(document.getElementById('factor-step-title')!);
    await expectFocus(step);
    screen.getByRole('button', { name: 'Back to sign in' });
  });
});
