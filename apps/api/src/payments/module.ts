import { auditedModule, borrowerCaller } from '../audit/recorded-calls.js';
import { routeModule } from '../http/route-module.js';
import { borrowerPaymentRoutes } from './routes/borrower-payments.js';

/**
 * Payments: the borrower's bank accounts, their loans' payments and autopay (the lender's side:
 * operators/routes/payments.ts). Every change is in the audit trail, never its fields: they hold
 * account numbers; each payment's change of state is recorded by the payments service itself.
 */
export const paymentsModule = auditedModule(routeModule([borrowerPaymentRoutes]), {
  callerOf: ({ borrowerClaims }) => (borrowerClaims ? borrowerCaller(borrowerClaims.sub) : null),
  reads: false,
  requestFields: false,
  reasons: false,
});
