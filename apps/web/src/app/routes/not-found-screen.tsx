import { routes } from '@customer-core/contracts';
import { Link } from 'react-router';
import { StatusView } from '../../components/status-view';

export function NotFoundScreen() {
  return (
    <StatusView tone="info" title="Page not found" testId="not-found">
      <p>
        We couldn&rsquo;t find the page you were looking for. Check the address, or start again from sign-in.
      </p>
      <div className="status-view__actions">
        <Link className="button button--primary" to={routes.signIn.path}>
          Go to sign in
        </Link>
      </div>
    </StatusView>
  );
}
