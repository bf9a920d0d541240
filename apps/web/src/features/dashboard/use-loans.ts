import { getLoans } from '../../loans/loans-api';
import { useLoad } from '../../lib/use-load';

/** The signed-in borrower's loans for the home page, with a way to try again after a failure. */
export const useLoans = () => useLoad(getLoans, []);
