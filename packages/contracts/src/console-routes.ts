import { route } from './routes.js';

/**
 * The staff console's pages: a module apart from `routes`, so that the borrower's first load, which
 * carries that one, carries none of these.
 */
export const consoleRoutes = {
  signIn: route('/console/sign-in'),
  borrowers: route('/console/borrowers'),
  borrower: route('/console/borrowers/:borrowerId'),
  loans: route('/console/loans'),
  audit: route('/console/audit'),
  webhooks: route('/console/webhooks'),
  staff: route('/console/staff'),
} as const;
