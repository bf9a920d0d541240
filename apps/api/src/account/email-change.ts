import { routes } from '@customer-core/contracts';
import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import { LoginTakenError, type Directory } from '../identity/directory.js';
import type { LinkRequestCounter } from '../email-links/request-limits.js';
import type { MailExecutor, MailService } from '../mail/index.js';
import { LINK_TOKEN_TTL_MINUTES, type LinkTokenStore } from '../email-links/link-tokens.js';
import type { EmailChangeRepository } from './email-change-repository.js';
import type { ChangeSource, SecurityActivity } from './security-activity.js';

/** 'sent' and 'in_use' are answered alike: the borrower must not learn whose an address is. */
export type EmailChangeRequestOutcome = 'sent' | 'in_use' | 'unchanged' | 'limited' | 'with_lender';

export type EmailChangeConfirmOutcome =
  { kind: 'changed'; email: string } | { kind: 'dead_link' } | { kind: 'taken' } | { kind: 'with_lender' };

/**
 * A signed-in borrower changes the e-mail address they sign in with. Asking sends a one-time link to
 * the new address (the token and its message in one transaction); nothing changes until the link is
 * used by the same borrower, signed in. Then the directory's sign-in name and the borrower's address
 * change, and the old address is told. Only where the directory lets the portal change sign-in names
 * (the bundled provider): with a hosted org the lender does it.
 */
export function emailChange(deps: {
  repository: EmailChangeRepository;
  /** Where the notice to the old address is written, once the address changed (no transaction). */
  db: MailExecutor;
  directory: Directory;
  borrowers: BorrowerRepository;
  tokens: LinkTokenStore;
  activity: SecurityActivity;
  mail: MailService;
  counter: LinkRequestCounter;
  publicUrl: string;
}) {
  const { repository, db, directory, borrowers, tokens, activity, mail, counter, publicUrl } = deps;

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
      return repository.transaction(async (tx, trx) => {
        // The borrower stands in for the client: one borrower's requests share a count wherever they come from.
        if (!(await counter.allow(trx, { email: newEmail, client: `borrower-${borrower.id}` })))
          return 'limited';
        // The same statements whoever owns the address, so no timing tells them apart: for another
        // account's address the link is written and rolled back, as EmailLinks.request does for an
        // unknown one, and that address's owner is told instead.
        await tx.savepoint();
        const issued = await tokens.issue(trx, {
          purpose: 'email_change',
          idpUserId: borrower.idpSubject,
          returnTo: null,
          newEmail,
        });
        const message = mail.templates.emailChangeLinkEmail({
          firstName: borrower.firstName,
          confirmUrl: `${publicUrl}${routes.emailChange.href({ token: issued.token })}`,
          expiresInMinutes: LINK_TOKEN_TTL_MINUTES.email_change,
        });
        await mail.enqueue(trx, { ...message, to: newEmail, idempotencyKey: `${message.kind}:${issued.id}` });
        if (owner && owner.id !== borrower.idpSubject) {
          await tx.rollbackToSavepoint();
          await mail.enqueue(trx, {
            ...mail.templates.emailInUseEmail(),
            to: newEmail,
            idempotencyKey: `email-in-use:${issued.id}`,
          });
          return 'in_use';
        }
        await tx.releaseSavepoint();
        return 'sent';
      });
    },

    /** Uses the link (once, and only the borrower's own): the change happens here. */
    async confirm(borrowerId: string, token: string, from: ChangeSource): Promise<EmailChangeConfirmOutcome> {
      const borrower = await changeableBorrower(borrowerId);
      if (!borrower) return { kind: 'with_lender' };
      const consumed = await tokens.consume('email_change', token, borrower.idpSubject);
      if (!consumed?.newEmail) return { kind: 'dead_link' };
      try {
        await directory.changeLogin!(borrower.idpSubject, consumed.newEmail);
      } catch (error) {
        // Taken since the link was sent: the link is spent, and the borrower asks again for another address.
        if (error instanceof LoginTakenError) return { kind: 'taken' };
        await tokens.release(consumed.id);
        throw error;
      }
      // The sign-in name lives in the directory (another database): no transaction spans both, so the
      // borrower's row follows it, and the notice is written once the change has happened.
      await borrowers.changeEmail(borrower.id, consumed.newEmail);
      await activity.record(borrower.id, {
        kind: 'email_changed',
        userAgent: from.userAgent,
        clientAddress: from.clientAddress,
      });
      await mail.enqueue(db, {
        ...mail.templates.emailChangedEmail({ firstName: borrower.firstName }),
        to: borrower.email,
        idempotencyKey: `email-changed:${consumed.id}`,
      });
      mail.nudge();
      return { kind: 'changed', email: consumed.newEmail };
    },
  };
}

export type EmailChange = ReturnType<typeof emailChange>;
