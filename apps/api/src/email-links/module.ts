import { auditedModule } from '../audit/recorded-calls.js';
import { routeModule } from '../http/route-module.js';
import { magicLinkLoginRoute } from './routes/magic-link-login.js';
import { passwordResetFinishRoute } from './routes/password-reset-finish.js';
import { sendLinkRoutes } from './routes/send-link.js';

/**
 * E-mailed links: asking for a password-reset or sign-in link, and using one. A password reset is a
 * change the borrower makes to their account: in the audit trail, as the link's borrower.
 */
export const emailLinksModule = auditedModule(
  routeModule([sendLinkRoutes, passwordResetFinishRoute, magicLinkLoginRoute]),
  { callerOf: () => null, reads: false, requestFields: false, reasons: false },
);
