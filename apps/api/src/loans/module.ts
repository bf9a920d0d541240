import { routeModule } from '../http/route-module.js';
import { borrowerLoanRoutes } from './routes/borrower-loans.js';
import { operatorLoanRoutes } from './routes/operator-loans.js';

/** Loans: the borrower's loans and their checkout; operators add loans and record instalments. */
export const loansModule = routeModule([borrowerLoanRoutes, operatorLoanRoutes]);
