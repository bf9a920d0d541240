import { routes } from '@customer-core/contracts';
import { useLingui } from '@lingui/react/macro';
import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAuth } from '../lib/auth/use-auth';
import { IdentityProviderUnavailableError } from '../lib/identity-provider-availability';
import { clearReturnPath, saveReturnPath } from '../lib/return-path';
import { IdentityProviderUnavailable } from './identity-provider-unavailable';
import { Loading } from './loading';
import { StatusView } from './status-view';

function RedirectToSignIn({ rememberPage }: { rememberPage: boolean }) {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  useEffect(() => {
    if (rememberPage) saveReturnPath(`${pathname}${search}${hash}`);
    void navigate(routes.signIn.path, { replace: true });
  }, [rememberPage, navigate, pathname, search, hash]);
  return <Loading />;
}

function ForgetReturnPath({ children }: { children: ReactNode }) {
  // The borrower reached a guarded page signed in: the saved address has served its purpose.
  useEffect(clearReturnPath, []);
  return children;
}

/** Spec section 2, guard: unauthenticated visitors go to sign-in and come back here afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const { status, error, signedOut } = useAuth();
  if (error instanceof IdentityProviderUnavailableError) return <IdentityProviderUnavailable />;
  if (error) {
    // Spec: if the auth check throws, the error is shown as raw text.
    return (
      <StatusView tone="warning" title={t`We couldn’t check your sign-in`} testId="auth-check-error">
        <p className="status-view__detail">{error.message}</p>
      </StatusView>
    );
  }
  if (status === 'unknown') return <Loading />;
  if (status === 'unauthenticated') return <RedirectToSignIn rememberPage={!signedOut} />;
  return <ForgetReturnPath>{children}</ForgetReturnPath>;
}
