import { routes } from '@customer-core/contracts';
import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { ApiTransaction } from '../db/schema.js';
import { borrowerLocale, type Directory } from '../identity/directory.js';
import type { LinkRequestLimits } from '../config/config.js';
import type { RequestCountRepository } from '../email-links/request-count-repository.js';
import { linkRequestCounter } from '../email-links/request-limits.js';
import type { MailService } from '../mail/index.js';
import { LINK_TOKEN_TTL_MINUTES, type LinkTokenRepository } from '../email-links/link-token-repository.js';
import type { Sessions } from '../session/sessions.js';
import type { EmailChangeRepository } from './email-change-repository.js';
import type { ChangeSource, SecurityActivity } from '../activity/security-activity.js';

/** 'sent' and 'in_use' are answered alike: the borrower must not learn whose an address is. */
export type EmailChangeRequestOutcome = 'sent' | 'in_use' | 'unchanged' | 'limited' | 'with_lender';

export type EmailChangeConfirmOutcome =
  { kind: 'changed'; email: string } | { kind: 'dead_link' } | { kind: 'taken' } | { kind: 'with_lender' };

/**
 * The messages that carry a link or code to the address they are sent to (their kinds): once the
 * address is no longer the borrower's, those not yet sent to it are withdrawn.
 */
const ONE_TIME_MAIL_KINDS = [
  'password-reset',
  'magic-link',
  'new-sign-in',
  'invitation',
  'factor-code-sign-in',
  'factor-code-enrol',
] as const;

/** The borrower's invitation not yet used (joining/invitation-repository.ts): voided with the old address. */
export interface PendingInvitations {
  voidOf(borrowerId: string, trx: ApiTransaction): Promise<void>;
}

/**
 * A signed-in borrower changes the e-mail address they sign in with. Asking sends a one-time link to
 * the new address (the token and its message in one transaction); nothing changes until the link is
 * used by the same borrower, signed in. Then the directory's sign-in name and the borrower's address
 * change, and the old address is told; whatever was sent to the old address stops working, so whoever
 * reads it keeps no way into the account (see `confirm`). Only where the directory lets the portal
 * change sign-in names (the bundled provider): with a hosted org the lender does it.
 */
export function emailChange(deps: {
  repository: EmailChangeRepository;
  directory: Directory;
  borrowers: BorrowerRepository;
  tokens: LinkTokenRepository;
  invitations: PendingInvitations;
  sessions: Pick<Sessions, 'endBegunByEmailedLink'>;
  activity: SecurityActivity;
  mail: MailService;
  requestCounts: RequestCountRepository;
  /** EMAIL_LINK_*: the same limits as e-mailed links, counted apart. */
  limits: LinkRequestLimits;
  publicUrl: string;
}) {
  const { repository, directory, borrowers, tokens, invitations, sessions, activity, mail, publicUrl } = deps;
  // Per borrower, and per new address.
  const counter = linkRequestCounter(deps.requestCounts, deps.limits, 'email-change');

  /** The borrower and their directory user, where the portal can change that user's sign-in name. */
  async function changeableBorrower(borrowerId: string) {
    const borrower = await borrowers.findById(borrowerId);
    if (!directory.changeLogin || !borrower?.idpSubject || borrower.idpIssuer !== directory.issuer)
      return undefined;
    return { ...borrower, idpSubject: borrower.idpSubject };
  }

  return {
    /** Whether the portal can change this borrower's sign-in name (false: the lender does). */
    async canChange(borrowerId: string): Promise<boolean> {
      return (await changeableBorrower(borrowerId)) !== undefined;
    },

    /**
     * Counts the request (per borrower, per new address) and e-mails the new address its link; an
     * address that is another account's sign-in name gets a notice to its owner instead. Call
     * `mail.nudge()` after answering for 'sent' and 'in_use'.
     */
    async request(borrowerId: string, newEmail: string): Promise<EmailChangeRequestOutcome> {
      const borrower = await changeableBorrower(borrowerId);
      if (!borrower) return 'with_lender';
      if (borrower.email.toLowerCase() === newEmail) return 'unchanged';
      const owner = await directory.findByLogin(newEmail);
      // The borrower's language, read whoever owns the address (the same calls either way).
      const locale = await borrowerLocale(directory, borrower);
      return repository.transaction(async (tx, trx) => {
        // The borrower stands in for the client: one borrower's requests share a count wherever they come from.
        if (!(await counter.allow({ email: newEmail, client: `borrower-${borrower.id}` }, trx)))
          return 'limited';
        // The same statements whoever owns the address, so no timing tells them apart: for another
        // account's address the link is written and rolled back, as EmailLinks.request does for an
        // unknown one, and that address's owner is told instead.
        await tx.savepoint();
        const issued = await tokens.issue(
          {
            purpose: 'email_change',
            idpUserId: borrower.idpSubject,
            returnTo: null,
            newEmail,
          },
          trx,
        );
        const message = mail.templates.emailChangeLinkEmail({
          firstName: borrower.firstName,
          locale,
          confirmUrl: `${publicUrl}${routes.emailChange.href({ token: issued.token })}`,
          expiresInMinutes: LINK_TOKEN_TTL_MINUTES.email_change,
        });
        await mail.enqueue({ ...message, to: newEmail, idempotencyKey: `${message.kind}:${issued.id}` }, trx);
        if (owner && owner.id !== borrower.idpSubject) {
          await tx.rollbackToSavepoint();
          await mail.enqueue(
            {
              // In the language of the address's owner, whose account it is.
              ...mail.templates.emailInUseEmail({ locale: owner.locale }),
              to: newEmail,
              idempotencyKey: `email-in-use:${issued.id}`,
            },
            trx,
          );
          return 'in_use';
        }
        await tx.releaseSavepoint();
        return 'sent';
      });
    },

    /**
     * Uses the link (once, and only the borrower's own): the change happens here. `currentSid` is the
     * session using it, which goes on: it holds the link sent to the new address.
     *
     * With the address, everything sent to the old one is voided in the same transaction: every
     * unused link of the borrower (reset, sign-in, "This wasn't me", another email change), their
     * invitation, and the messages carrying one that are not yet sent. The identity provider voids its
     * e-mailed codes with the sign-in name. Then the sessions those links began end: the portal's
     * (but this one) and every identity-provider session of the borrower, since a sign-in link's
     * session token becomes one that no portal session names.
     */
    async confirm(
      borrowerId: string,
      token: string,
      from: ChangeSource & { currentSid: string },
    ): Promise<EmailChangeConfirmOutcome> {
      const borrower = await changeableBorrower(borrowerId);
      if (!borrower) return { kind: 'with_lender' };
      const consumed = await tokens.consume('email_change', token, borrower.idpSubject);
      if (!consumed?.newEmail) return { kind: 'dead_link' };
      const newEmail = consumed.newEmail;
      let changed;
      try {
        changed = await directory.changeLogin!(borrower.idpSubject, newEmail);
      } catch (error) {
        await tokens.release(consumed.id);
        throw error;
      }
      // Taken since the link was sent: the link is spent, and the borrower asks again for another address.
      if (!changed.ok) return { kind: 'taken' };
      const locale = await borrowerLocale(directory, borrower);
      // The sign-in name lives in the directory (another database): no transaction spans both, so the
      // borrower's row follows it, with all that was bound to the old address.
      await repository.transaction(async (_savepoints, trx) => {
        await borrowers.changeEmail(borrower.id, newEmail, trx);
        await tokens.voidAllOf(borrower.idpSubject, trx);
        await invitations.voidOf(borrower.id, trx);
        await mail.withdraw({ recipient: borrower.email, kinds: ONE_TIME_MAIL_KINDS }, trx);
        await mail.enqueue(
          {
            ...mail.templates.emailChangedEmail({ firstName: borrower.firstName, locale }),
            to: borrower.email,
            idempotencyKey: `email-changed:${consumed.id}`,
          },
          trx,
        );
      });
      mail.nudge();
      await sessions.endBegunByEmailedLink(borrower.id, from.currentSid);
      await activity.record(borrower.id, {
        kind: 'email_changed',
        userAgent: from.userAgent,
        clientAddress: from.clientAddress,
      });
      return { kind: 'changed', email: newEmail };
    },
  };
}

export type EmailChange = ReturnType<typeof emailChange>;
