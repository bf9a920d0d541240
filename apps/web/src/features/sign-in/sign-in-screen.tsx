import { routes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Suspense, lazy, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { Banner } from '../../components/banner';
import { IdentityProviderUnavailable } from '../../components/identity-provider-unavailable';
import { Loading } from '../../components/loading';
import { PageTitle } from '../../components/page-title';
import { useAuth } from '../../lib/auth/use-auth';
import { useIdentityProviderUnavailableReason } from '../../lib/identity-provider-availability';
import { peekReturnPath } from '../../lib/return-path';
import type { SignInLocationState } from '../../lib/sign-in-notice';
import { SignInFormPlaceholder } from './sign-in-form-placeholder';
import './sign-in.css';

// The interactive form arrives right after the first paint; the placeholder is the same form meanwhile.
const loadSignInForm = () => import('./sign-in-form');
// Opening the portal on the sign-in screen (or on /, which leads there): fetch it before React renders.
if ([routes.signIn.path, routes.root.path].some((path) => path === window.location.pathname))
  void loadSignInForm();
const SignInForm = lazy(() => loadSignInForm().then((module) => ({ default: module.SignInForm })));

/**
 * Spec section 2, sign-in screen. `afterSignIn` fetches the code of what a sign-in leads to (the app's
 * router knows it), once the password was accepted.
 */
export function SignInScreen({ afterSignIn }: { afterSignIn?: () => void }) {
  const { t } = useLingui();
  const { status, sessionEnded, signedOut } = useAuth();
  // The configuration's full check waits for the form's first use (sign-in-form.tsx's warm-up).
  const unavailable = useIdentityProviderUnavailableReason({ untilUsed: true });
  const navigate = useNavigate();
  const passwordChanged = (useLocation().state as SignInLocationState | null)?.notice === 'password-changed';
  const [noticeDismissed, setNoticeDismissed] = useState(false);
  if (status === 'unknown') return <Loading />;
  if (status === 'authenticated') return <Navigate to={peekReturnPath()} replace />;
  if (unavailable) return <IdentityProviderUnavailable />;
  return (
    <section className="sign-in" aria-labelledby="sign-in-title" data-testid="sign-in">
      <PageTitle title={t`Sign in`} />
      <header className="sign-in__header">
        <h1 id="sign-in-title">
          <Trans>Welcome Back</Trans>
        </h1>
        <p className="sign-in__intro">
          <Trans>Sign in to access your account.</Trans>
        </p>
      </header>
      {passwordChanged && !noticeDismissed && (
        <Banner type="success" onDismiss={() => setNoticeDismissed(true)}>
          <Trans>Your password has been changed. Sign in with your new password.</Trans>
        </Banner>
      )}
      {signedOut && !passwordChanged && !noticeDismissed && (
        <Banner type="success" onDismiss={() => setNoticeDismissed(true)} testId="signed-out-notice">
          <Trans>You’re signed out.</Trans>
        </Banner>
      )}
      {sessionEnded && !signedOut && !passwordChanged && !noticeDismissed && (
        <Banner type="info" onDismiss={() => setNoticeDismissed(true)}>
          <Trans>Your session has ended. Please sign in again.</Trans>
        </Banner>
      )}
      <Suspense fallback={<SignInFormPlaceholder />}>
        <SignInForm afterSignIn={afterSignIn} />
      </Suspense>
      <div className="sign-in__divider" aria-hidden="true">
        <span>
          <Trans>or</Trans>
        </span>
      </div>
      <button
        type="button"
        className="button button--secondary button--block"
        onClick={() => void navigate(routes.magicLink.path)}
      >
        <Trans>Email Only Sign In</Trans>
      </button>
      <p className="sign-in__apply">
        <Trans>
          Not a customer? <Link to={routes.startApplication.path}>Apply For a Loan</Link>
        </Trans>
      </p>
    </section>
  );
}
