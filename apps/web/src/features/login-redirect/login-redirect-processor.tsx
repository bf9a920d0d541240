import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { GenericError } from '../../components/generic-error';
import { Loading } from '../../components/loading';
import { useAuth } from '../../lib/auth/use-auth';
import { reportError } from '../../lib/error-reporting';
import { clearReturnPath } from '../../lib/return-path';
import { processLoginRedirectOnce } from './process-login-redirect';

/**
 * Spec section 2: finishes the login redirect, then lands on the saved address or the default one.
 * A failure (or an error sent back by the identity provider) shows the generic error screen.
 */
export function LoginRedirectProcessor() {
  const { refresh } = useAuth();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let active = true;
    processLoginRedirectOnce().then(
      async (target) => {
        if (!active) return;
        await refresh();
        clearReturnPath();
        await navigate(target, { replace: true });
      },
      (failure: unknown) => {
        if (!active) return;
        reportError(failure, { source: 'login-redirect' });
        setFailed(true);
      },
    );
    return () => {
      active = false;
    };
  }, [navigate, refresh]);

  return failed ? <GenericError /> : <Loading />;
}
