import { i18n } from '@lingui/core';
import { DEFAULT_LANDING_PATH, routes, type Invitation } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Banner } from '../../components/banner';
import { FormScreen } from '../../components/form-screen';
import { IdentityProviderUnavailable } from '../../components/identity-provider-unavailable';
import { Loading } from '../../components/loading';
import { ReadOnlyField } from '../../components/read-only-field';
import { Spinner } from '../../components/spinner';
import { getLenderBranding } from '../../config/portal-config-meta';
import { finishSignIn } from '../../lib/auth/sign-in';
import { completeLinkSignIn } from '../../lib/complete-link-sign-in';
import { loadIdentityProvider, type IdentityProviderClient } from '../../lib/identity-provider';
import { useIdentityProviderUnavailableReason } from '../../lib/identity-provider-availability';
import { clearPendingToast, savePendingToast } from '../../lib/pending-toast';
import { clearProductSession, hasStoredAccessToken } from '../../lib/product-session';
import { PasswordSetForm, type PasswordSetOutcome } from '../../components/password-set/password-set-form';
import { AlreadyRegistered, InvalidInvitation, InvitationLookupFailed } from './invitation-problems';
import { RegistrationFactorStep } from './registration-factor-step';
import { REGISTRATION_FAILED, register, type InvitationRefused } from './registration-api';
import { useInvitation } from './use-invitation';

type Step =
  | { kind: 'form' }
  | { kind: 'signing-in' }
  /** The second factor to enrol before the sign-in ends (MFA_POLICY=required). */
  | { kind: 'factor'; transaction: AuthnTransaction }
  /** The sign-in did not complete: why, in the borrower's words. */
  | { kind: 'sign-in-by-hand'; reason: ReactNode };

const fullName = ({ firstName, lastName }: Invitation) => `${firstName} ${lastName}`.trim();

// Rendered (in the borrower's language) where it is shown.
const SIGN_IN_FAILED = (
  <p>
    <Trans>We couldn’t sign you in automatically. Sign in with your email and your new password.</Trans>
  </p>
);

/** The account exists, but the sign-in that follows did not complete: the borrower signs in by hand. */
function SignInByHand({ email, reason }: { email: string; reason: ReactNode }) {
  const { t } = useLingui();
  return (
    <FormScreen
      title={t`Your account is ready`}
      tone="success"
      focusTitle
      testId="user-registration-sign-in-failed"
      intro={
        <>
          <p>
            <Trans>Your account for {email} has been created.</Trans>
          </p>
          {reason}
        </>
      }
    >
      <div className="form-screen__actions">
        <Link className="button button--primary button--block" to={routes.signIn.path}>
          <Trans>Go to sign in</Trans>
        </Link>
      </div>
    </FormScreen>
  );
}

/**
 * Spec section 2, user registration: the invitation's page, where the invited borrower chooses a
 * password (the same form as a reset), and is then signed in as a sign-in link does, after enrolling
 * a second factor where the lender asks every borrower for one.
 */
export function UserRegistrationScreen() {
  const { t } = useLingui();
  const { token = '' } = useParams();
  const unavailable = useIdentityProviderUnavailableReason();
  const { state, retry } = useInvitation(token);
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ kind: 'form' });
  const [refused, setRefused] = useState<InvitationRefused | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  // Warm up the identity provider client while the borrower chooses a password.
  useEffect(() => {
    loadIdentityProvider().catch(() => {});
  }, []);

  if (unavailable) return <IdentityProviderUnavailable />;
  if (state.kind === 'loading') return <Loading />;
  if (state.kind === 'failed') return <InvitationLookupFailed message={state.message} onRetry={retry} />;
  const problem = refused ?? (state.kind === 'found' ? null : state);
  const invitation = state.kind === 'found' ? state.invitation : null;
  if (problem?.kind === 'already-registered') {
    return <AlreadyRegistered email={invitation?.email ?? null} message={problem.message} />;
  }
  if (problem || !invitation) return <InvalidInvitation message={problem?.message ?? null} />;
  if (step.kind === 'sign-in-by-hand') return <SignInByHand email={invitation.email} reason={step.reason} />;

  // Said on the home, after the redirect through the identity provider.
  const { firstName } = invitation;
  const welcome = () =>
    savePendingToast({
      title: firstName ? t`Welcome, ${firstName}!` : t`Welcome!`,
      message: t`Your account is ready.`,
      status: 'success',
    });

  if (step.kind === 'factor') {
    return (
      <RegistrationFactorStep
        email={invitation.email}
        transaction={step.transaction}
        onSuccess={async (transaction) => {
          welcome();
          try {
            // The page leaves for the identity provider, and comes back to the signed-in home.
            await finishSignIn(transaction, DEFAULT_LANDING_PATH);
          } catch (error) {
            clearPendingToast();
            throw error;
          }
        }}
        onRestart={(message) => {
          // Cancelled: the sign-in page, where the new password leads to the same enrolment.
          if (!message) return void navigate(routes.signIn.path);
          setStep({
            kind: 'sign-in-by-hand',
            reason: (
              <p>
                <Trans>
                  {message} Sign in with your email and your new password to set up two-step verification.
                </Trans>
              </p>
            ),
          });
        }}
      />
    );
  }

  const onSubmit = async ({ password }: { password: string }): Promise<PasswordSetOutcome> => {
    setFailure(null);
    // The client first: if it cannot load, the invitation is still unspent.
    let client: IdentityProviderClient;
    try {
      client = await loadIdentityProvider();
    } catch {
      setFailure(i18n._(REGISTRATION_FAILED));
      return;
    }
    const outcome = await register(token, password);
    switch (outcome.kind) {
      case 'invalid-invitation':
      case 'already-registered':
        setRefused(outcome);
        return;
      case 'password-refused':
        return { passwordError: outcome.message };
      case 'failed':
        setFailure(outcome.message);
        return;
      case 'enrol-factor':
        try {
          // Whoever was signed in in this browser before is not the one signing in now.
          if (hasStoredAccessToken()) clearProductSession('signed-out');
          const transaction = await client.tx.introspect({ stateToken: outcome.step.stateToken });
          setStep({ kind: 'factor', transaction });
        } catch (error) {
          console.error(new Error('Sign-in error: could not pick up the factor enrolment', { cause: error }));
          setStep({ kind: 'sign-in-by-hand', reason: SIGN_IN_FAILED });
        }
        return;
    }
    setStep({ kind: 'signing-in' });
    welcome();
    try {
      // On success the page leaves for the identity provider, and comes back to the signed-in home.
      await completeLinkSignIn(client, { ...outcome.session, returnTo: DEFAULT_LANDING_PATH });
    } catch (error) {
      console.error(new Error('Sign-in error: could not sign in after registration', { cause: error }));
      clearPendingToast();
      setStep({ kind: 'sign-in-by-hand', reason: SIGN_IN_FAILED });
    }
  };

  if (step.kind === 'signing-in') {
    return (
      <FormScreen
        title={t`Your account is ready`}
        tone="success"
        focusTitle
        testId="user-registration-signing-in"
      >
        <p className="loading" role="status">
          <Spinner />
          <Trans>Signing you in…</Trans>
        </p>
      </FormScreen>
    );
  }
  const name = fullName(invitation);
  const lenderName = getLenderBranding().name;
  return (
    <FormScreen
      title={t`Create your account`}
      intro={
        <>
          <p data-testid="user-registration-greeting">
            <Trans>
              Welcome, {name}. {lenderName} has invited you to manage your loans online.
            </Trans>
          </p>
          <p>
            <Trans>Choose a password to finish. You’ll sign in with your email and this password.</Trans>
          </p>
        </>
      }
      testId="user-registration"
    >
      <PasswordSetForm
        idPrefix="user-registration"
        submitLabel={t`Create account`}
        pendingText={t`Creating your account`}
        passwordLabel={t`Password`}
        confirmLabel={t`Confirm password`}
        onSubmit={onSubmit}
        banner={
          failure && (
            <Banner type="error" onDismiss={() => setFailure(null)} testId="user-registration-error-banner">
              {failure}
            </Banner>
          )
        }
      >
        <ReadOnlyField
          id="user-registration-email"
          label={t`Email`}
          value={invitation.email}
          autoComplete="username"
          hint={t`Your invitation was sent to this address. It can’t be changed here.`}
        />
      </PasswordSetForm>
      <p className="form-screen__footer">
        <Trans>
          Already have an account? <Link to={routes.signIn.path}>Sign in</Link>
        </Trans>
      </p>
    </FormScreen>
  );
}
