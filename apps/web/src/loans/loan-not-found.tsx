import { routes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { StatusView } from '../components/status-view';

/** Someone else's loan, a made-up id or a malformed one: the same page, nothing about the loan. */
export function LoanNotFound() {
  const { t } = useLingui();
  return (
    <StatusView tone="info" title={t`Loan not found`} testId="loan-not-found">
      <p>
        <Trans>
          We couldn’t find this loan in your account. Check the link you followed, or go back to your account
          to see your loans.
        </Trans>
      </p>
      <div className="status-view__actions">
        <Link className="button button--primary" to={routes.dashboard.path}>
          <Trans>Back to your account</Trans>
        </Link>
      </div>
    </StatusView>
  );
}
