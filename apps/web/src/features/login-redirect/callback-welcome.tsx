import { routes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import type { UserClaims } from '@okta/okta-auth-js/authn';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../components/spinner';
import { StatusView } from '../../components/status-view';
import { loadIdentityProvider } from '../../lib/identity-provider';
import { toError } from '../../lib/to-error';

function displayName(user: UserClaims): string {
  const fullName = [user.given_name, user.family_name].filter(Boolean).join(' ');
  return user.name || fullName || user.email || user.sub;
}

/** Spec section 2, callback: 'Welcome, {name}!' once the identity provider's user is loaded. */
export function CallbackWelcome() {
  const { t } = useLingui();
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);

  useEffect(() => {
    let active = true;
    loadIdentityProvider()
      .then((client) => client.getUser())
      .then(
        (user) => active && setName(displayName(user)),
        (failure: unknown) => active && setError(toError(failure)),
      );
    return () => {
      active = false;
    };
  }, []);

  if (error) {
    return (
      <StatusView tone="warning" title={t`We couldn’t load your details`} testId="login-callback-error">
        <p className="status-view__detail">{error.message}</p>
      </StatusView>
    );
  }
  if (name === null) {
    return (
      <p className="loading" role="status" data-testid="fetching-user-info">
        <Spinner />
        <Trans>Fetching user info ...</Trans>
      </p>
    );
  }
  return (
    <StatusView tone="success" title={t`Welcome, ${name}!`} testId="login-callback-welcome">
      <p>
        <Trans>Authentication succeeded: you are signed in.</Trans>
      </p>
      <div className="status-view__actions">
        <Link className="button button--primary" to={routes.dashboard.path}>
          <Trans>Go to your account</Trans>
        </Link>
      </div>
    </StatusView>
  );
}
