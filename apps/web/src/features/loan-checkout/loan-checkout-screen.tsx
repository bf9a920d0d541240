import { routes } from '@customer-core/contracts';
import { Link, useParams } from 'react-router';
import { Loading } from '../../components/loading';
import { StatusView } from '../../components/status-view';
import { LoanNotFound } from '../../loans/loan-not-found';
import { CheckoutView } from './checkout-view';
import { useLoanCheckout } from './use-loan-checkout';
import './loan-checkout.css';

/** Spec section 2: /ui/dashboard/loan-checkout/{loanId}, the loan's documents to review and sign. */
export function LoanCheckoutScreen() {
  const { loanId = '' } = useParams();
  const { state, retry, review, sign } = useLoanCheckout(loanId);
  switch (state.kind) {
    case 'loading':
      return <Loading />;
    case 'not-found':
      return <LoanNotFound />;
    case 'failed':
      return (
        <StatusView tone="warning" title="We couldn’t load this loan" testId="loan-checkout-error">
          <p>{state.message}</p>
          <div className="status-view__actions checkout__actions">
            <button type="button" className="button button--primary" onClick={retry}>
              Try again
            </button>
            <Link className="button button--secondary" to={routes.dashboard.path}>
              Back to your account
            </Link>
          </div>
        </StatusView>
      );
    case 'ready':
      return <CheckoutView loan={state.loan} refused={state.refused} review={review} sign={sign} />;
  }
}
