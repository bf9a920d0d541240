import { routeModule } from '../http/route-module.js';
import { borrowerLoanRoutes } from './routes/borrower-loans.js';

/** Loans: the borrower's loans and their checkout (operators' loan book: operators/routes/loans.ts). */
export const loansModule = routeModule([borrowerLoanRoutes]);
