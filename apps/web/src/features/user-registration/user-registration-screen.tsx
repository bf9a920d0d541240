import { DEFAULT_LANDING_PATH, routes, type Invitation } from '@customer-core/contracts';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Banner } from '../../components/banner';
import { FormScreen } from '../../components/form-screen';
import { IdentityProviderUnavailable } from '../../components/identity-provider-unavailable';
import { Loading } from '../../components/loading';
import { ReadOnlyField } from '../../components/read-only-field';
import { Spinner } from '../../components/spinner';
import { getLenderBranding } from '../../config/portal-config-meta';
import { completeLinkSignIn } from '../../lib/complete-link-sign-in';
import { loadIdentityProvider, type IdentityProviderClient } from '../../lib/identity-provider';
import { useIdentityProviderUnavailableReason } from '../../lib/identity-provider-availability';
import { clearPendingToast, savePendingToast } from '../../lib/pending-toast';
import { PasswordSetForm, type PasswordSetOutcome } from '../../components/password-set/password-set-form';
import { AlreadyRegistered, InvalidInvitation, InvitationLookupFailed } from './invitation-problems';
import { REGISTRATION_FAILED, register, type InvitationRefused } from './registration-api';
import { useInvitation } from './use-invitation';

type Step = 'form' | 'signing-in' | 'sign-in-failed';

const fullName = ({ firstName, lastName }: Invitation) => `${firstName} ${lastName}`.trim();

/** The account exists, but the sign-in that follows did not complete: the borrower signs in by hand. */
function SignInByHand({ email }: { email: string }) {
  return (
    <FormScreen
      title="Your account is ready"
      tone="success"
      focusTitle
      testId="user-registration-sign-in-failed"
      intro={
        <>
          <p>Your account for {email} has been created.</p>
          <p>We couldn&rsquo;t sign you in automatically. Sign in with your email and your new password.</p>
        </>
      }
    >
      <div className="form-screen__actions">
        <Link className="button button--primary button--block" to={routes.signIn.path}>
          Go to sign in
        </Link>
      </div>
    </FormScreen>
  );
}

/**
 * Spec section 2, user registration: the invitation's page, where the invited borrower chooses a
 * password (the same form as a reset), and is then signed in as a sign-in link does.
 */
export function UserRegistrationScreen() {
  const { token = '' } = useParams();
  const unavailable = useIdentityProviderUnavailableReason();
  const { state, retry } = useInvitation(token);
  const [step, setStep] = useState<Step>('form');
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
  if (step === 'sign-in-failed') return <SignInByHand email={invitation.email} />;

  const onSubmit = async ({ password }: { password: string }): Promise<PasswordSetOutcome> => {
    setFailure(null);
    // The client first: if it cannot load, the invitation is still unspent.
    let client: IdentityProviderClient;
    try {
      client = await loadIdentityProvider();
    } catch {
      setFailure(REGISTRATION_FAILED);
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
    }
    setStep('signing-in');
    // Said on the home, after the redirect through the identity provider.
    savePendingToast({
      title: invitation.firstName ? `Welcome, ${invitation.firstName}!` : 'Welcome!',
      message: 'Your account is ready.',
      status: 'success',
    });
    try {
      // On success the page leaves for the identity provider, and comes back to the signed-in home.
      await completeLinkSignIn(client, { ...outcome.session, returnTo: DEFAULT_LANDING_PATH });
    } catch (error) {
      console.error(new Error('Sign-in error: could not sign in after registration', { cause: error }));
      clearPendingToast();
      setStep('sign-in-failed');
    }
  };

  if (step === 'signing-in') {
    return (
      <FormScreen
        title="Your account is ready"
        tone="success"
        focusTitle
        testId="user-registration-signing-in"
      >
        <p className="loading" role="status">
          <Spinner />
          Signing you in&hellip;
        </p>
      </FormScreen>
    );
  }
  return (
    <FormScreen
      title="Create your account"
      intro={
        <>
          <p data-testid="user-registration-greeting">
            Welcome, {fullName(invitation)}. {getLenderBranding().name} has invited you to manage your loans
            online.
          </p>
          <p>Choose a password to finish. You&rsquo;ll sign in with your email and this password.</p>
        </>
      }
      testId="user-registration"
    >
      <PasswordSetForm
        idPrefix="user-registration"
        submitLabel="Create account"
        pendingText="Creating your account"
        passwordLabel="Password"
        confirmLabel="Confirm password"
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
          label="Email"
          value={invitation.email}
          autoComplete="username"
          hint="Your invitation was sent to this address. It can’t be changed here."
        />
      </PasswordSetForm>
      <p className="form-screen__footer">
        Already have an account? <Link to={routes.signIn.path}>Sign in</Link>
      </p>
    </FormScreen>
  );
}
