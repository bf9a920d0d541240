import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { Directory } from '../identity/directory.js';
import type { LinkTokenRepository } from '../email-links/link-token-repository.js';
import type { Sessions } from '../session/sessions.js';

/**
 * The "This wasn't me" link of a new-sign-in e-mail (new-sign-ins.ts), used once: every session of the
 * borrower ends at once on every instance (their product sessions, the identity provider's, and every
 * token issued before now), and a password-reset link is issued for the page to continue with, since
 * whoever signed in may know the password. The link proves what a reset link proves (the mailbox), so
 * it may lead straight to choosing a password.
 */
export function unrecognizedSignIn(deps: {
  tokens: LinkTokenRepository;
  directory: Directory;
  borrowers: BorrowerRepository;
  sessions: Sessions;
}) {
  const { tokens, directory, borrowers, sessions } = deps;
  return {
    /** Ends everything; the reset token to continue with. Undefined: a dead link. */
    async report(token: string): Promise<{ borrowerId: string; resetToken: string } | undefined> {
      const consumed = await tokens.consume('unrecognized_sign_in', token);
      const borrower = consumed && (await borrowers.findByIdentity(directory.issuer, consumed.idpUserId));
      if (!consumed || !borrower) return undefined;
      // The borrower was found by this identity, so their identity-provider sessions end too.
      await sessions.endOtherSessions(borrower.id, null, 'unrecognized_sign_in');
      const reset = await tokens.issue({
        purpose: 'password_reset',
        idpUserId: consumed.idpUserId,
        returnTo: null,
      });
      return { borrowerId: borrower.id, resetToken: reset.token };
    },
  };
}

export type UnrecognizedSignIn = ReturnType<typeof unrecognizedSignIn>;
