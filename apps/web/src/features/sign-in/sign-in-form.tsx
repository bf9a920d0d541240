import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import type { SignInInput } from '@customer-core/contracts';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { Suspense, lazy, useEffect, useRef, useState, type FormEvent } from 'react';
import { Banner } from '../../components/banner';
import { checkPortalConfig } from '../../lib/identity-provider-availability';
import { Spinner } from '../../components/spinner';
import { countSignInFailure, isRefusedCredentials } from '../../lib/auth/sign-in-failures';
import { usePasskeySignIn } from './passkey-sign-in';
import { SignInPaused } from './sign-in-paused';
import { readPlaceholderFocus } from './placeholder-focus';
import { EMAIL_FIELD_ID, SignInFormView } from './sign-in-form-view';
import type { SignInErrors, SignInField } from './sign-in-rules';

const SIGN_IN_FAILED = msg`User could not be authenticated.`;

// The rules (zod), the sign-in flow and the identity provider's client: fetched once the borrower
// starts using the form (and on submit at the latest), so that a visit that never signs in does not
// pay for them, and one that does finds them at hand when LOGIN is pressed.
// The rules' messages are in the sign-in catalogue (i18n/sign-in-rules-messages.ts).
const loadRules = () => import('./sign-in-rules');
const loadSignIn = () => import('../../lib/auth/sign-in');
let warmedUp = false;
function warmUp() {
  if (warmedUp) return;
  warmedUp = true;
  void checkPortalConfig();
  void loadRules();
  void loadSignIn().then((module) => module.preloadIdentityProvider());
}
// The second-factor screens: fetched only when an identity provider asks for a factor.
const FactorStep = lazy(() =>
  import('../../components/factors/factor-step').then((module) => ({ default: module.FactorStep })),
);

/**
 * The two fields, checked on submit and, once a submit has been tried, again as each is edited
 * (the field edited gets its message updated). The first field in error takes the focus on submit.
 */
function useSignInFields() {
  const email = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<SignInErrors>({});
  const submitted = useRef(false);

  const values = (): SignInInput => ({
    email: email.current?.value ?? '',
    password: password.current?.value ?? '',
  });
  const check = async () => (await loadRules()).checkSignIn(values());

  async function recheck(name: SignInField) {
    warmUp();
    if (!submitted.current) return;
    const checked = await check();
    const message = 'errors' in checked ? checked.errors[name] : undefined;
    setErrors((current) => (current[name] === message ? current : { ...current, [name]: message }));
  }

  const field = (name: SignInField) => ({
    name,
    ref: name === 'email' ? email : password,
    onFocus: warmUp,
    onChange: () => void recheck(name),
  });

  /** The credentials to send, or undefined when the rules refused them (their messages then show). */
  async function submit() {
    submitted.current = true;
    const checked = await check();
    if ('credentials' in checked) {
      setErrors({});
      return checked.credentials;
    }
    setErrors(checked.errors);
    (checked.errors.email !== undefined ? email : password).current?.focus();
    return undefined;
  }

  return { email, password, errors, field, submit };
}

/** `afterSignIn` fetches the code of what a sign-in leads to, once the password was accepted. */
export function SignInForm({ afterSignIn }: { afterSignIn?: () => void }) {
  const [placeholderFocus] = useState(readPlaceholderFocus);
  const fields = useSignInFields();
  // Stays true after success: the page is on its way to the identity provider.
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string>();
  // Password sign-in is paused for the address tried (the form's own count: lib/auth/sign-in-failures.ts).
  const [paused, setPaused] = useState(false);
  // Set while the identity provider asks for a second factor.
  const [factorTransaction, setFactorTransaction] = useState<AuthnTransaction>();
  const passkey = usePasskeySignIn(setFailure);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    warmUp();
    const credentials = await fields.submit();
    if (!credentials) return;
    setFailure(undefined);
    setPaused(false);
    setPending(true);
    try {
      const { signIn } = await loadSignIn();
      const transaction = await signIn(credentials, afterSignIn);
      if (transaction) setFactorTransaction(transaction);
    } catch (error) {
      setPending(false);
      setFailure(i18n._(SIGN_IN_FAILED));
      if (isRefusedCredentials(error)) setPaused(countSignInFailure(credentials.email));
    }
  }

  const { email, password } = fields;
  useEffect(() => {
    // The borrower was already in a field of the placeholder: the focus stays there.
    if (!placeholderFocus) return;
    warmUp();
    (placeholderFocus === EMAIL_FIELD_ID ? email : password).current?.focus();
  }, [placeholderFocus, email, password]);

  if (factorTransaction) {
    return (
      <Suspense fallback={<Spinner />}>
        <FactorStep
          transaction={factorTransaction}
          onRestart={(message) => {
            setFactorTransaction(undefined);
            setPending(false);
            setFailure(message);
          }}
        />
      </Suspense>
    );
  }

  const emailField = fields.field('email');
  return (
    <SignInFormView
      onSubmit={(event) => void onSubmit(event)}
      emailInput={{
        ...emailField,
        ...passkey.emailInput,
        onFocus: () => {
          emailField.onFocus();
          passkey.emailInput.onFocus?.();
        },
      }}
      passwordInput={fields.field('password')}
      emailError={fields.errors.email}
      passwordError={fields.errors.password}
      pending={pending}
      alternative={passkey.button}
      notice={paused && <SignInPaused />}
      banner={
        failure && (
          <Banner type="error" onDismiss={() => setFailure(undefined)} testId="sign-in-error-banner">
            {failure}
          </Banner>
        )
      }
    />
  );
}
