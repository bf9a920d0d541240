import './support/dom.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { Banner } from '../src/components/banner.tsx';
import {
  PasswordSetForm,
  type PasswordSetOutcome,
} from '../src/components/password-set/password-set-form.tsx';
import { expectFocus, renderInApp } from './support/render.tsx';

// Where the focus goes when a form is refused (docs/decisions/0010): to the first field in error, whose
// message it is described by; a refusal of the whole form to its message, which is announced. The
// password-set form is the reset's and the registration's.

/** A promise and its resolve (Node 20 has no Promise.withResolvers). */
function deferred() {
  let resolve!: (value: 'failed') => void;
  const promise = new Promise<'failed'>((done) => (resolve = done));
  return { promise, resolve };
}

const NEW_PASSWORD = 'Tidy-Ledger-2041';

/** The form as a screen holds it: a refusal of the whole form is said in a banner above the fields. */
function PasswordSetScreen({ answer }: { answer: () => Promise<PasswordSetOutcome | 'failed'> }) {
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <PasswordSetForm
      idPrefix="reset"
      submitLabel="Save new password"
      pendingText="Saving your new password"
      onSubmit={async () => {
        setFailure(null);
        const outcome = await answer();
        if (outcome === 'failed') return setFailure('We couldn’t save your password. Please try again.');
        return outcome;
      }}
      banner={
        failure && (
          <Banner type="error" onDismiss={() => setFailure(null)} testId="failure">
            {failure}
          </Banner>
        )
      }
    />
  );
}

const save = () =>
  act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Save new password' })));

function fillBoth(password: string) {
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: password } });
}

describe('focus on a refused form', () => {
  it('goes to the first field in error, which its message describes', async () => {
    renderInApp(<PasswordSetScreen answer={async () => undefined} />);
    await save();
    const password = screen.getByLabelText('New password');
    await expectFocus(password);
    assert.equal(password.getAttribute('aria-invalid'), 'true');
    const described = password.getAttribute('aria-describedby')?.split(' ') ?? [];
    assert.ok(described.includes('reset-password-error'), 'the field is described by its message');
  });

  it('goes to the password field when the server refuses the password', async () => {
    renderInApp(
      <PasswordSetScreen answer={async () => ({ passwordError: 'This password is too common.' })} />,
    );
    fillBoth(NEW_PASSWORD);
    await save();
    await screen.findByText('This password is too common.');
    await expectFocus(screen.getByLabelText('New password'));
  });

  it('goes to the message of a refusal of the whole form, an alert, each time it is said', async () => {
    // The server's answer, when the test gives it.
    let answer = deferred();
    renderInApp(<PasswordSetScreen answer={() => answer.promise} />);
    fillBoth(NEW_PASSWORD);
    await save();
    await act(async () => answer.resolve('failed'));
    const banner = await screen.findByTestId('failure');
    assert.equal(banner.getAttribute('role'), 'alert');
    await expectFocus(banner);
    // Away and back: the same refusal again takes the focus again.
    screen.getByLabelText('New password').focus();
    answer = deferred();
    await save();
    assert.equal(screen.queryByTestId('failure'), null, 'the message goes while the form is sent');
    await act(async () => answer.resolve('failed'));
    await expectFocus(await screen.findByTestId('failure'));
  });

  it('leaves it where it is for a notice, and for an error that comes of itself', () => {
    renderInApp(
      <>
        <input aria-label="Typing here" autoFocus />
        <Banner type="success" onDismiss={() => {}}>
          Saved.
        </Banner>
        <Banner type="error" takeFocus={false} onDismiss={() => {}}>
          We couldn’t mark it as read.
        </Banner>
      </>,
    );
    assert.equal(document.activeElement, screen.getByLabelText('Typing here'));
  });
});
