import { SignInSchema, routes, type SignInInput, consoleRoutes } from '@customer-core/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation } from 'react-router';
import { Banner } from '../../components/banner';
import { BusyButton } from '../../components/busy-button';
import { EmailField } from '../../components/email-field';
import { FactorStep } from '../../components/factors/factor-step';
import { FormField, fieldErrorId } from '../../components/form-field';
import { PageTitle } from '../../components/page-title';
import { PasswordInput } from '../../components/password-input';
import { getIdentityProviderUnavailableReason } from '../../lib/identity-provider-availability';
import { useConsoleSession, type SessionEnd } from '../session/console-session-context';
import { SIGN_IN_PROBLEMS } from '../session/sign-in-problems';
import { finishSignIn, signInWithPassword, type SignInStep } from '../session/staff-sign-in';
import type { ConsoleReturn } from '../shell/require-staff';
import { ConsoleFrame } from './console-frame';

const EMAIL_ID = 'console-sign-in-email';
const PASSWORD_ID = 'console-sign-in-password';

/** What the screen says of the session that ended here last. */
const ENDED: Record<SessionEnd, { type: 'success' | 'info'; text: MessageDescriptor }> = {
  'signed-out': { type: 'success', text: msg`You’re signed out of the staff console.` },
  expired: {
    type: 'info',
    text: msg`Your console session has timed out (console sign-ins are kept short). Sign in again to go on.`,
  },
  refused: {
    type: 'info',
    text: msg`Your console session has ended: you were signed out elsewhere, or your role changed. Sign in again to go on.`,
  },
};

/** Where to go once signed in: the page the staff member was on the way to, else the borrowers' search. */
function destinationOf(state: unknown): string {
  const from = (state as ConsoleReturn | null)?.from;
  return from?.startsWith(`${routes.console.path}/`) && !from.startsWith(consoleRoutes.signIn.path)
    ? from
    : consoleRoutes.borrowers.path;
}

/**
 * The console's sign-in: email address and password, then the second factor (set up first where the
 * staff member has none), each problem said in its own words. A staff member signed in already goes on.
 */
export function ConsoleSignInScreen() {
  const { t, i18n } = useLingui();
  const { session, ended, begin } = useConsoleSession();
  const location = useLocation();
  const [failure, setFailure] = useState<string>();
  const [factor, setFactor] = useState<AuthnTransaction>();
  const [unavailable, setUnavailable] = useState(() => getIdentityProviderUnavailableReason() !== null);
  const [endedSeen, setEndedSeen] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInInput>({
    resolver: zodResolver(SignInSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { email: '', password: '' },
  });

  if (session && !factor) return <Navigate to={destinationOf(location.state)} replace />;

  const settle = (step: SignInStep) => {
    if (step.kind === 'factor') return setFactor(step.transaction);
    setFactor(undefined);
    if (step.kind === 'refused') return setFailure(i18n._(SIGN_IN_PROBLEMS[step.problem]));
    // The session is there: the next render goes on to where the staff member was going.
    begin(step.session);
  };

  const onSubmit = async ({ email, password }: SignInInput) => {
    setFailure(undefined);
    settle(await signInWithPassword(email.trim(), password));
  };

  const endedNotice = ended && !failure && !endedSeen ? ENDED[ended] : null;
  const emailError = errors.email?.message;
  const passwordError = errors.password?.message;
  return (
    <ConsoleFrame>
      <section
        className="console-card console-sign-in"
        aria-labelledby="console-sign-in-title"
        data-testid="console-sign-in"
      >
        <PageTitle title={t`Staff console`} />
        <header className="console-sign-in__header">
          <h1 id="console-sign-in-title">
            <Trans>Staff console</Trans>
          </h1>
          <p className="console-sign-in__intro">
            <Trans>For the lender’s support agents and loan officers. Sign in with your staff account.</Trans>
          </p>
        </header>
        {factor ? (
          <FactorStep
            transaction={factor}
            onSuccess={async (done) => settle(await finishSignIn(done))}
            onRestart={(why) => {
              setFactor(undefined);
              setFailure(why);
            }}
          />
        ) : (
          <form className="console-form" onSubmit={handleSubmit(onSubmit)} noValidate>
            {unavailable && (
              <Banner type="warning" onDismiss={() => setUnavailable(false)} takeFocus={false}>
                {i18n._(SIGN_IN_PROBLEMS.unavailable)}
              </Banner>
            )}
            {failure && (
              <Banner type="error" onDismiss={() => setFailure(undefined)} testId="console-sign-in-error">
                {failure}
              </Banner>
            )}
            {endedNotice && (
              <Banner
                type={endedNotice.type}
                onDismiss={() => setEndedSeen(true)}
                takeFocus={false}
                testId="console-ended"
              >
                {i18n._(endedNotice.text)}
              </Banner>
            )}
            <EmailField id={EMAIL_ID} input={register('email')} error={emailError} />
            <FormField id={PASSWORD_ID} label={t`Password`} error={passwordError}>
              <PasswordInput
                {...register('password')}
                id={PASSWORD_ID}
                autoComplete="current-password"
                aria-invalid={passwordError ? true : undefined}
                aria-describedby={passwordError ? fieldErrorId(PASSWORD_ID) : undefined}
              />
            </FormField>
            <BusyButton busy={isSubmitting} busyText={t`Signing in`}>
              <Trans>Sign in</Trans>
            </BusyButton>
            <p className="console-sign-in__note">
              <Trans>
                You’ll confirm it’s you with a second factor. If you have none yet, you’ll set one up now.
              </Trans>
            </p>
          </form>
        )}
      </section>
    </ConsoleFrame>
  );
}
