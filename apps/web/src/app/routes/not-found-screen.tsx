import { routes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { StatusView } from '../../components/status-view';
import { useAuth } from '../../lib/auth/use-auth';

/**
 * An address the portal does not have. Shown in the layout of whoever asks (VisitorLayout): a
 * signed-in borrower keeps the signed-in shell and is led to their home, anyone else to sign-in.
 */
export function NotFoundScreen() {
  const { t } = useLingui();
  const signedIn = useAuth().status === 'authenticated';
  return (
    <StatusView tone="info" title={t`Page not found`} testId="not-found">
      <p>
        {signedIn ? (
          <Trans>
            We couldn’t find the page you were looking for. Check the address, or start again from your
            account.
          </Trans>
        ) : (
          <Trans>
            We couldn’t find the page you were looking for. Check the address, or start again from sign-in.
          </Trans>
        )}
      </p>
      <div className="status-view__actions">
        {signedIn ? (
          <Link className="button button--primary" to={routes.dashboard.path}>
            <Trans>Go to your account</Trans>
          </Link>
        ) : (
          <Link className="button button--primary" to={routes.signIn.path}>
            <Trans>Go to sign in</Trans>
          </Link>
        )}
      </div>
    </StatusView>
  );
}
