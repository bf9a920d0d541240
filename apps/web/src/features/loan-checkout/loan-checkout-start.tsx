import { routes } from '@customer-core/contracts';
import { Navigate, useParams } from 'react-router';

/**
 * Spec section 2: /doc-checkout/loan/{loanId}/start, the address e-mails and the lender's other
 * systems link to. The router's guard has signed the borrower in; this forwards, in place of the
 * forwarder's own history entry, to the checkout page, which checks the loan is theirs.
 */
export function LoanCheckoutStart() {
  const { loanId = '' } = useParams();
  return <Navigate to={routes.loanCheckout.href({ loanId })} replace />;
}
