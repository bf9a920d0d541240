import { routes } from '@customer-core/contracts';
import { Link } from 'react-router';
import { StatusView } from '../../components/status-view';
import { useAuth } from '../../lib/auth/use-auth';

/**
 * An address the portal does not have. Shown in the layout of whoever asks (VisitorLayout): a
 * signed-in borrower keeps the signed-in shell and is led to their home, anyone else to sign-in.
 */
export function NotFoundScreen() {
  const signedIn = useAuth().status === 'authenticated';
  return (
    <StatusView tone="info" title="Page not found" testId="not-found">
      <p>
        We couldn&rsquo;t find the page you were looking for. Check the address, or start again from{' '}
        {signedIn ? 'your account' : 'sign-in'}.
      </p>
      <div className="status-view__actions">
        {signedIn ? (
          <Link className="button button--primary" to={routes.dashboard.path}>
            Go to your account
          </Link>
        ) : (
          <Link className="button button--primary" to={routes.signIn.path}>
            Go to sign in
          </Link>
        )}
      </div>
    </StatusView>
  );
}
