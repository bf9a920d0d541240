import { routes } from '@customer-core/contracts';
import { Link } from 'react-router';
import { StatusView } from '../components/status-view';

/** Someone else's loan, a made-up id or a malformed one: the same page, nothing about the loan. */
export function LoanNotFound() {
  return (
    <StatusView tone="info" title="Loan not found" testId="loan-not-found">
      <p>
        We couldn&rsquo;t find this loan in your account. Check the link you followed, or go back to your
        account to see your loans.
      </p>
      <div className="status-view__actions">
        <Link className="button button--primary" to={routes.dashboard.path}>
          Back to your account
        </Link>
      </div>
    </StatusView>
  );
}
