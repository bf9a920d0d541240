import { auditedModule } from '../audit/recorded-calls.js';
import { routeModule } from '../http/route-module.js';
import { operatorAuditRoutes } from './routes/audit.js';
import { operatorDataRightsRoutes } from './routes/data-rights.js';
import { operatorWebhookRoutes } from './routes/webhooks.js';
import { operatorActivityRoute } from './routes/activity.js';
import { operatorBorrowerRoutes } from './routes/borrowers.js';
import { operatorInvitationRoutes } from './routes/invitations.js';
import { operatorLoanRoutes } from './routes/loans.js';
import { operatorMailRoutes } from './routes/mail.js';
import { operatorSecretsKeyRoutes } from './routes/secrets-key.js';
import { operatorSessionRoutes } from './routes/sessions.js';
import { operatorSupportRoutes } from './routes/support.js';
import { operatorSigningKeyRoutes } from './routes/signing-keys.js';
import { operatorBorrowerFileRoute } from './routes/borrower-file.js';
import { operatorStaffRoutes } from './routes/staff.js';
import { operatorPaymentRoutes } from './routes/payments.js';
import { operatorCaller } from '../console/operator-access.js';

/**
 * Operators' calls (the `operator` service credential, driven by `npm run cli`, or a staff member
 * signed in to the console, as far as their role allows: see requireOperator): invitations, the loan
 * book, the borrowers, their sessions and activity, the signing key, the key that seals the
 * database's secrets, e-mail that gave up, the audit trail, the lender's webhooks and borrowers' data rights. The work is the other modules' services;
 * these routes only answer. Every call, a read too, is in the audit trail, under its credential's name or the staff member's.
 */
export const operatorsModule = auditedModule(
  routeModule([
    operatorInvitationRoutes,
    operatorLoanRoutes,
    operatorBorrowerRoutes,
    operatorBorrowerFileRoute,
    operatorSessionRoutes,
    operatorSupportRoutes,
    operatorActivityRoute,
    operatorSigningKeyRoutes,
    operatorSecretsKeyRoutes,
    operatorMailRoutes,
    operatorAuditRoutes,
    operatorWebhookRoutes,
    operatorDataRightsRoutes,
    operatorStaffRoutes,
    operatorPaymentRoutes,
  ]),
  {
    callerOf: operatorCaller,
    reads: true,
    requestFields: true,
    reasons: true,
  },
);
