import { routeModule } from '../http/route-module.js';
import { applicationRoutes } from './routes/applications.js';
import { borrowerApplicationRoutes } from './routes/borrower-applications.js';

/** Loan applications: starting one (signed out, or in), verifying its address, a borrower's list. */
export const applicationsModule = routeModule([applicationRoutes, borrowerApplicationRoutes]);
