import { auditedModule, borrowerCaller } from '../audit/recorded-calls.js';
import { routeModule } from '../http/route-module.js';
import { accountActivityRoute } from './routes/activity.js';
import { accountEmailRoutes } from './routes/email.js';
import { accountLanguageRoute } from './routes/language.js';
import { accountPasswordRoute } from './routes/password.js';
import { accountRecoveryCodeRoutes } from './routes/recovery-codes.js';
import { accountSecondFactorRoutes } from './routes/second-factors.js';
import { accountSessionRoutes } from './routes/sessions.js';
import { accountStepUpRoutes } from './routes/step-up.js';
import { unrecognizedSignInRoute } from './routes/unrecognized-sign-in.js';

/**
 * The borrower's own account: their sessions, password, sign-in e-mail address, language, second
 * factors and recovery codes, the ways to confirm it's them (step-up), security activity, and the "This wasn't
 * me" link of a new-sign-in e-mail. Every change a borrower makes here is in the audit trail (what
 * was asked, never its fields: they hold passwords and codes); a "This wasn't me" link's, once the
 * link names its borrower.
 */
export const accountModule = auditedModule(
  routeModule([
    accountSessionRoutes,
    accountPasswordRoute,
    accountSecondFactorRoutes,
    accountRecoveryCodeRoutes,
    accountEmailRoutes,
    accountLanguageRoute,
    accountStepUpRoutes,
    accountActivityRoute,
    unrecognizedSignInRoute,
  ]),
  {
    callerOf: ({ borrowerClaims }) => (borrowerClaims ? borrowerCaller(borrowerClaims.sub) : null),
    reads: false,
    requestFields: false,
    reasons: false,
  },
);
