import { GenericError } from '../../components/generic-error';

// PLACEHOLDER: to be written (issue 4).
export function LoanCheckoutScreen() {
  return <GenericError />;
}
