import { toSafeReturnPath } from '@customer-core/contracts';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { GenericError } from '../../components/generic-error';
import { Loading } from '../../components/loading';
import { useAuth } from '../../lib/auth/use-auth';
import { reportError } from '../../lib/error-reporting';
import { clearReturnPath, peekReturnPath } from '../../lib/return-path';
import { hasStoredAccessToken } from '../../lib/product-session';
import { loadIdentityProvider } from '../../lib/identity-provider';
import { processLoginRedirectOnce } from './process-login-redirect';

/**
 * What the page a sign-in lands on can start before it is shown (the app gives it: the home's code
 * and loans), rather than one after the other once the page has moved there.
 */
export interface LandingPreload {
  /** The code of the page at `path`, if it knows it; resolves once loaded (or failed: its route fails alike). */
  code(path: string): Promise<void>;
  /** Asks for the data of the page at `path`, if it knows it; called once the product session is stored. */
  data(path: string): void;
}

/**
 * Spec section 2: finishes the login redirect, then lands on the saved address or the default one.
 * A failure (or an error sent back by the identity provider) shows the generic error screen.
 * The landing's code is fetched while the redirect finishes, and its data as soon as the product
 * session is stored (at once after a password sign-in); the page is shown once its code is there.
 */
export function LoginRedirectProcessor({ landing }: { landing?: LandingPreload | undefined }) {
  const { refresh } = useAuth();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let active = true;
    // A password sign-in stored the product session before it left for the identity provider: the
    // landing's data is asked for now, while the redirect finishes, rather than after it.
    if (hasStoredAccessToken()) landing?.data(toSafeReturnPath(peekReturnPath()));
    processLoginRedirectOnce().then(
      async (target) => {
        if (!active) return;
        landing?.data(target);
        await Promise.all([refresh(), landing?.code(target)]);
        clearReturnPath();
        await navigate(target, { replace: true });
      },
      (failure: unknown) => {
        if (!active) return;
        reportError(failure, { source: 'login-redirect' });
        setFailed(true);
      },
    );
    // Once the client has sent its call to the identity provider (which would otherwise wait behind
    // these files for one of the browser's connections to the server): the address okta-auth-js was
    // given as the sign-in's original one, read again above.
    if (landing)
      void loadIdentityProvider()
        .then(() => landing.code(peekReturnPath()))
        .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [navigate, refresh, landing]);

  return failed ? <GenericError /> : <Loading />;
}
