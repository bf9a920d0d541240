import type { FormEvent } from 'react';
import { passkeysWorkHere } from '../../lib/auth/passkey-availability';
import { PasskeyButton } from './passkey-button';
import { SignInFormView } from './sign-in-form-view';

const ignoreSubmit = (event: FormEvent<HTMLFormElement>) => event.preventDefault();

/**
 * What the first paint shows while the interactive form loads: the same form,
 * read-only for that moment, so that nothing typed or clicked can be lost in the hand-over.
 */
export function SignInFormPlaceholder() {
  return (
    <SignInFormView
      ready={false}
      onSubmit={ignoreSubmit}
      emailInput={{ name: 'email' }}
      passwordInput={{ name: 'password' }}
      alternative={passkeysWorkHere() ? <PasskeyButton disabled /> : undefined}
    />
  );
}
