import type { SignIn, SignInInput } from '@customer-core/contracts';
import { useEffect, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Banner } from '../../components/banner';
import { readPlaceholderFocus } from './placeholder-focus';
import { EMAIL_FIELD_ID, SignInFormView } from './sign-in-form-view';

const SIGN_IN_FAILED = 'User could not be authenticated.';

const loadResolver = () => import('./sign-in-resolver').then((module) => module.signInResolver);
const loadSignIn = () => import('./sign-in');

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
  const [failed, setFailed] = useState(false);

  const onSubmit = handleSubmit(async (credentials) => {
    setFailed(false);
    setPending(true);
    try {
      const { signIn } = await loadSignIn();
      await signIn(credentials);
    } catch {
      setPending(false);
      setFailed(true);
    }
  });

  useEffect(() => {
    if (placeholderFocus) setFocus(placeholderFocus === EMAIL_FIELD_ID ? 'email' : 'password');
    // Warm up what a submit needs while the borrower types.
    void loadResolver();
    void loadSignIn();
  }, [placeholderFocus, setFocus]);

  return (
    <SignInFormView
      onSubmit={onSubmit}
      emailInput={register('email')}
      passwordInput={register('password')}
      emailError={errors.email?.message}
      passwordError={errors.password?.message}
      pending={pending}
      banner={
        failed && (
          <Banner type="error" onDismiss={() => setFailed(false)} testId="sign-in-error-banner">
            {SIGN_IN_FAILED}
          </Banner>
        )
      }
    />
  );
}
