import { routes } from '@customer-core/contracts';
import { useLingui } from '@lingui/react/macro';
import { useParams } from 'react-router';
import { Loading } from '../../components/loading';
import { LoanLoadFailed } from '../../loans/loan-load-failed';
import { LoanNotFound } from '../../loans/loan-not-found';
import { CheckoutView } from './checkout-view';
import { useLoanCheckout } from './use-loan-checkout';
import './loan-checkout.css';

/** Spec section 2: /ui/dashboard/loan-checkout/{loanId}, the loan's documents to review and sign. */
export function LoanCheckoutScreen() {
  const { t } = useLingui();
  const { loanId = '' } = useParams();
  const { state, retry, review, signAll, giveConsent } = useLoanCheckout(loanId);
  switch (state.kind) {
    case 'loading':
      return <Loading />;
    case 'not-found':
      return <LoanNotFound />;
    case 'failed':
      return (
        <LoanLoadFailed
          message={state.message}
          retry={retry}
          back={{ to: routes.dashboard.path, label: t`Back to your account` }}
          testId="loan-checkout-error"
        />
      );
    case 'ready':
      return (
        <CheckoutView
          loan={state.loan}
          refused={state.refused}
          consent={state.consent}
          review={review}
          signAll={signAll}
          giveConsent={giveConsent}
        />
      );
  }
}
