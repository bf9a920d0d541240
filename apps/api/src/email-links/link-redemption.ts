import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { Directory } from '../identity/directory.js';
import type { SignInClient } from '../http/sign-in-client.js';
import { isCommonPassword } from '../passwords/common-passwords.js';
import type { Sessions } from '../session/sessions.js';
import type { LinkTokenRepository } from './link-token-repository.js';

export interface LinkRedemptionDependencies {
  tokens: LinkTokenRepository;
  directory: Directory;
  borrowers: BorrowerRepository;
  sessions: Sessions;
}

export type PasswordReset =
  | { kind: 'reset'; idpUserId: string; borrowerId: string | undefined }
  /** One of the passwords everyone tries: refused before the link is spent, so it can choose another. */
  | { kind: 'too_common' }
  /** The directory's password policy refused it (`requirements`: what it asks); the link is given back. */
  | { kind: 'password_refused'; requirements: string }
  | { kind: 'dead_link' };

export type LinkSignIn =
  | {
      kind: 'signed_in';
      borrowerId: string;
      accessToken: string;
      /** Completes the identity provider's sign-in in the browser; null where it mints none (see Directory). */
      sessionToken: string | null;
      returnTo: string | null;
    }
  /** The borrower's second factor comes next, in the identity provider's transaction; no session yet. */
  | { kind: 'factor'; stateToken: string; returnTo: string | null }
  /** The borrower has a second factor the directory cannot ask for after a link: no sign-in. */
  | { kind: 'factor_unavailable' };

/** What the pages of e-mailed links do with them: each link works once, for a user of the directory. */
export function linkRedemption({ tokens, directory, borrowers, sessions }: LinkRedemptionDependencies) {
  return {
    /** Whether a link's token still works (a page checking its link on arrival); spends nothing. */
    isUsable: tokens.isUsable,

    /**
     * Sets the password with a reset link (once). A new password ends every sign-in: the borrower's
     * product sessions, the identity provider's sessions, and any other link still unused. A password
     * the directory refuses (or a directory that does not answer) gives the link back.
     */
    async resetPassword(token: string, password: string): Promise<PasswordReset> {
      if (isCommonPassword(password)) return { kind: 'too_common' };
      const consumed = await tokens.consume('password_reset', token);
      const user = consumed && (await directory.findById(consumed.idpUserId));
      if (!user) return { kind: 'dead_link' };
      let set;
      try {
        set = await directory.setPassword(user.id, password);
      } catch (error) {
        await tokens.release(consumed.id);
        throw error;
      }
      if (!set.ok) {
        await tokens.release(consumed.id);
        return { kind: 'password_refused', requirements: set.requirements };
      }
      const borrower = await borrowers.findByIdentity(directory.issuer, user.id);
      // A user who never reached the portal has the identity provider's sessions only.
      if (borrower) await sessions.endOtherSessions(borrower.id, null, 'password_change');
      else await directory.endSessions(user.id);
      await tokens.voidAllOf(user.id);
      return { kind: 'reset', idpUserId: user.id, borrowerId: borrower?.id };
    },

    /**
     * Signs in with a sign-in link (once): a new product session, or, for a borrower with a second
     * factor, the identity provider's transaction that asks for it (the session then begins at the
     * token exchange, as after a password). Undefined: a dead link.
     */
    async signIn(token: string, client: SignInClient): Promise<LinkSignIn | undefined> {
      // The device cookie is renewed whatever becomes of the link, as it always was on this page.
      const deviceId = client.deviceId();
      const consumed = await tokens.consume('magic_link', token);
      const user = consumed && (await directory.findById(consumed.idpUserId));
      if (!consumed || !user) return undefined;
      const step = await directory.linkSignIn(user);
      if (step.kind === 'factor_unavailable') return step;
      if (step.kind === 'factor') return { ...step, returnTo: consumed.returnTo };
      const borrower = await borrowers.upsertByIdentity({
        issuer: directory.issuer,
        subject: user.id,
        email: user.login.toLowerCase(),
        firstName: user.firstName,
        lastName: user.lastName,
      });
      return {
        kind: 'signed_in',
        borrowerId: borrower.id,
        accessToken: await sessions.begin(borrower, {
          method: 'email_link',
          userAgent: client.userAgent,
          clientAddress: client.clientAddress,
          deviceId,
        }),
        sessionToken: step.sessionToken,
        returnTo: consumed.returnTo,
      };
    },
  };
}
