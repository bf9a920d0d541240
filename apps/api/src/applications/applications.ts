import {
  EMAIL_VERIFICATION_LIFETIME_HOURS,
  LoanPurposeSchema,
  routes,
  type BorrowerApplication,
  type BorrowerApplicationRequest,
  type EmailVerificationResponse,
  type StartApplication,
} from '@customer-core/contracts';
import type { LinkRequestLimits } from '../config/config.js';
import type { RequestCountRepository } from '../email-links/request-count-repository.js';
import { linkRequestCounter } from '../email-links/request-limits.js';
import type { MailService } from '../mail/index.js';
import type { WebhookEvents } from '../webhooks/webhooks.js';
import { newOneTimeToken, oneTimeTokenHash } from '@customer-core/database';
import type { ApplicationRepository, ApplicationRow, VerifiedApplication } from './application-repository.js';

export interface ApplicationDependencies {
  repository: ApplicationRepository;
  mail: MailService;
  requestCounts: RequestCountRepository;
  /**
   * EMAIL_LINK_*: applications per e-mail address and per client address. An application e-mails a
   * link, so it has the same limits as e-mailed links, counted apart from them.
   */
  limits: LinkRequestLimits;
  /** The lender's systems hear of each application, and of its address verified. */
  events: WebhookEvents;
  publicUrl: string;
}

export type StartOutcome = { kind: 'started'; applicationId: string; email: string } | { kind: 'limited' };

const answerOf = (row: VerifiedApplication) => ({
  applicationId: row.id,
  email: row.email,
  businessName: row.business_name,
});

/**
 * Loan applications started on the portal, and the verification of their e-mail address: the
 * application, its verification token (only the sha-256 is kept) and the e-mail carrying the link are
 * written in one transaction.
 */
export function loanApplications({
  repository,
  mail,
  requestCounts,
  limits,
  events,
  publicUrl,
}: ApplicationDependencies) {
  const counter = linkRequestCounter(requestCounts, limits, 'application');
  return {
    /** How long the limits' window lasts: what a refused applicant is told to wait at most. */
    limitWindowSeconds: limits.windowSeconds,

    /** Counts the request against both limits and, within them, stores it. Call `mail.nudge()` after. */
    async start(application: StartApplication, client: string): Promise<StartOutcome> {
      const token = newOneTimeToken();
      const outcome = await repository.transaction(async (applications, trx): Promise<StartOutcome> => {
        if (!(await counter.allow({ email: application.email, client }, trx))) return { kind: 'limited' };
        const id = await applications.insert(application, {
          tokenHash: oneTimeTokenHash(token),
          lifetimeHours: EMAIL_VERIFICATION_LIFETIME_HOURS,
        });
        const message = mail.templates.emailVerificationEmail({
          // Nobody's profile yet: the language the applicant used the portal in.
          locale: application.locale,
          verificationUrl: `${publicUrl}${routes.emailVerification.href({ token })}`,
          expiresInMinutes: EMAIL_VERIFICATION_LIFETIME_HOURS * 60,
        });
        await mail.enqueue(
          {
            ...message,
            to: application.email,
            idempotencyKey: `${message.kind}:${id}`,
          },
          trx,
        );
        await events.publish(
          'application.submitted',
          {
            applicationId: id,
            borrowerId: null,
            businessName: application.businessName,
            contactName: application.contactName,
            email: application.email,
            amountRequested: application.amountRequested,
            purpose: application.purpose,
            emailVerified: false,
          },
          trx,
        );
        return { kind: 'started', applicationId: id, email: application.email };
      });
      if (outcome.kind === 'started') events.nudge();
      return outcome;
    },

    /**
     * Verifies the address of the application whose link this is. Opening the link again while it
     * works is still a success (alreadyVerified); an unknown or expired link gives undefined.
     */
    async verify(
      token: string,
    ): Promise<(EmailVerificationResponse & { applicationId: string }) | undefined> {
      const tokenHash = oneTimeTokenHash(token);
      const verified = await repository.verify(tokenHash);
      if (verified) {
        await events.publish('application.email_verified', {
          applicationId: verified.id,
          email: verified.email,
        });
        events.nudge();
        return { ...answerOf(verified), alreadyVerified: false };
      }
      // Verified before (or by a concurrent request just now).
      const earlier = await repository.verifiedBefore(tokenHash);
      return earlier && { ...answerOf(earlier), alreadyVerified: true };
    },

    /**
     * An application from a signed-in borrower: their account's name and address, verified by their
     * sign-in, so no link is sent. Limited as the signed-out start is (per address and client).
     */
    async submitAsBorrower(
      borrower: { id: string; email: string; contactName: string },
      application: BorrowerApplicationRequest,
      client: string,
    ): Promise<{ kind: 'submitted'; application: BorrowerApplication } | { kind: 'limited' }> {
      const outcome = await repository.transaction(async (applications, trx) => {
        if (!(await counter.allow({ email: borrower.email, client }, trx)))
          return { kind: 'limited' } as const;
        const row = await applications.insertForBorrower(borrower, application);
        await events.publish(
          'application.submitted',
          {
            applicationId: row.id,
            borrowerId: borrower.id,
            businessName: application.businessName,
            contactName: borrower.contactName,
            email: borrower.email,
            amountRequested: application.amountRequested,
            purpose: application.purpose,
            emailVerified: true,
          },
          trx,
        );
        return { kind: 'submitted', application: borrowerApplicationOf(row) } as const;
      });
      if (outcome.kind === 'submitted') events.nudge();
      return outcome;
    },

    /** The borrower's applications, newest first (see ApplicationQueries.ofBorrower). */
    async ofBorrower(borrower: { id: string; email: string }): Promise<BorrowerApplication[]> {
      return (await repository.ofBorrower(borrower)).map(borrowerApplicationOf);
    },
  };
}

function borrowerApplicationOf(row: ApplicationRow): BorrowerApplication {
  return {
    id: row.id,
    businessName: row.business_name,
    amountRequested: row.amount_requested,
    purpose: LoanPurposeSchema.parse(row.purpose),
    submittedAt: new Date(row.created_at).toISOString(),
    state: 'received',
  };
}

export type LoanApplications = ReturnType<typeof loanApplications>;
