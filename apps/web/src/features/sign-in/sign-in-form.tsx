import type { SignIn, SignInInput } from '@customer-core/contracts';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { Suspense, lazy, useEffect, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Banner } from '../../components/banner';
import { Spinner } from '../../components/spinner';
import { usePasskeySignIn } from './passkey-sign-in';
import { readPlaceholderFocus } from './placeholder-focus';
import { EMAIL_FIELD_ID, SignInFormView } from './sign-in-form-view';

const SIGN_IN_FAILED = 'User could not be authenticated.';

const loadResolver = () => import('./sign-in-resolver').then((module) => module.signInResolver);
const loadSignIn = () => import('../../lib/auth/sign-in');
// The second-factor screens: fetched only when an identity provider asks for a factor.
const FactorStep = lazy(() =>
  import('../../components/factors/factor-step').then((module) => ({ default: module.FactorStep })),
);

// zodResolver(SignInSchema), fetched on first use so that zod stays out of the first paint.
const resolver: Resolver<SignInInput, unknown, SignIn> = async (values, context, options) =>
  (await loadResolver())(values, context, options);

export function SignInForm() {
  const [placeholderFocus] = useState(readPlaceholderFocus);
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm<SignInInput, unknown, SignIn>({
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { email: '', password: '' },
  });
  // Stays true after success: the page is on its way to the identity provider.
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string>();
  // Set while the identity provider asks for a second factor.
  const [factorTransaction, setFactorTransaction] = useState<AuthnTransaction>();
  const passkey = usePasskeySignIn(setFailure);

  const onSubmit = handleSubmit(async (credentials) => {
    setFailure(undefined);
    setPending(true);
    try {
      const { signIn } = await loadSignIn();
      const transaction = await signIn(credentials);
      if (transaction) setFactorTransaction(transaction);
    } catch {
      setPending(false);
      setFailure(SIGN_IN_FAILED);
    }
  });

  useEffect(() => {
    if (placeholderFocus) setFocus(placeholderFocus === EMAIL_FIELD_ID ? 'email' : 'password');
    // Warm up what a submit needs while the borrower types.
    void loadResolver();
    void loadSignIn();
  }, [placeholderFocus, setFocus]);

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

  return (
    <SignInFormView
      onSubmit={onSubmit}
      emailInput={{ ...register('email'), ...passkey.emailInput }}
      passwordInput={register('password')}
      emailError={errors.email?.message}
      passwordError={errors.password?.message}
      pending={pending}
      alternative={passkey.button}
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
