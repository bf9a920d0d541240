import { INVITATION_LIFETIME_DAYS, routes, type Invitation, type Locale } from '@customer-core/contracts';
import type { Borrower, BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { SignInClient } from '../http/sign-in-client.js';
import type { MailService } from '../mail/index.js';
import type { Directory, DirectoryUser } from '../identity/directory.js';
import { isCommonPassword } from '../passwords/common-passwords.js';
import type { Sessions } from '../session/sessions.js';
import type { WebhookEvents } from '../webhooks/webhooks.js';
import type { InvitationRepository } from './invitation-repository.js';

export interface InvitationDependencies {
  repository: InvitationRepository;
  mail: MailService;
  borrowers: BorrowerRepository;
  /** Registration creates its users; an address that already is one has an account. */
  directory: Directory;
  /** A registered borrower is signed in at once (unless a second factor is to be enrolled first). */
  sessions: Sessions;
  /** The lender's systems hear of each registration. */
  events: WebhookEvents;
  publicUrl: string;
}

export interface InviteRequest {
  /** Normalised (trimmed, lower case) as EmailSchema gives it. */
  email: string;
  firstName: string;
  lastName: string;
  /** The invitation e-mail's language, as the operator chose it; English unless they did. */
  locale?: Locale;
}

export type InviteOutcome =
  { kind: 'invited'; borrowerId: string; expiresAt: Date } | { kind: 'already_registered' };

export type LookupOutcome =
  { kind: 'found'; invitation: Invitation } | { kind: 'invalid' } | { kind: 'already_registered' };

type Joined =
  | { kind: 'registered'; borrower: Borrower; user: DirectoryUser }
  | { kind: 'invalid' }
  | { kind: 'already_registered' }
  | { kind: 'password_refused'; requirements: string };

export type RegistrationOutcome =
  | {
      kind: 'registered';
      borrowerId: string;
      accessToken: string;
      /** Completes the identity provider's sign-in in the browser; null where it mints none. */
      sessionToken: string | null;
    }
  /**
   * The directory's sign-in asks for a second factor first (MFA_POLICY=required: its enrolment), so no
   * session yet: the state token's transaction asks for it, and the session begins at the token
   * exchange that follows, as after a password sign-in.
   */
  | { kind: 'second_factor'; borrowerId: string; stateToken: string }
  /** One of the passwords everyone tries: refused before the invitation is spent. */
  | { kind: 'too_common' }
  /** The directory's password policy refused it (`requirements`: what it asks); the invitation is given back. */
  | { kind: 'password_refused'; requirements: string }
  | { kind: 'invalid' }
  | { kind: 'already_registered' };

const LIFETIME_MINUTES = INVITATION_LIFETIME_DAYS * 24 * 60;

/**
 * Joining by invitation: an operator invites a borrower (the invitation and its e-mail are written in
 * one transaction), and the borrower registers with the e-mailed link, which creates their user in the
 * directory and gives it the borrower the operator created.
 *
 * The identity provider runs its own queries on the same pool. On PGlite that pool is one connection,
 * so no step calls it (or any other query) while a transaction is open: the invitation is
 * consumed by one statement, the user created after it, and the invitation given back if that fails.
 */
export function invitations({
  repository,
  mail,
  borrowers,
  directory,
  sessions,
  events,
  publicUrl,
}: InvitationDependencies) {
  /** Whether the address has an account already: a user of the directory, or a linked borrower. */
  const hasAccount = async (email: string, linked: boolean) =>
    linked || (await directory.findByLogin(email)) !== undefined;

  /**
   * Registers the invited borrower with this password (checked by register): consumes the
   * invitation (once), creates the user (login: the invited address) and links the borrower to it.
   * An address that has an account meanwhile is refused and the invitation given back, so the link
   * answers the same (already registered) however often it is tried.
   */
  const registeredEvent = (borrower: Borrower) => ({
    borrowerId: borrower.id,
    email: borrower.email,
    firstName: borrower.firstName,
    lastName: borrower.lastName,
  });

  async function join(token: string, password: string): Promise<Joined> {
    const consumed = await repository.consume(token);
    if (!consumed) return { kind: 'invalid' };
    // Deleting a borrower deletes its invitations: only a deletion since the line above finds none.
    const borrower = await borrowers.findById(consumed.borrowerId);
    if (!borrower) return { kind: 'invalid' };
    // The user with the invited address, names and password (a linked borrower has one already).
    let created;
    try {
      created =
        borrower.idpSubject === null
          ? await directory.create({
              login: borrower.email,
              password,
              firstName: borrower.firstName ?? '',
              lastName: borrower.lastName ?? '',
            })
          : ({ ok: false, problem: 'login_taken' } as const);
    } catch (error) {
      await repository.release(consumed.id);
      throw error;
    }
    if (!created.ok) {
      await repository.release(consumed.id);
      switch (created.problem) {
        case 'login_taken':
          return { kind: 'already_registered' };
        case 'password_refused':
          return { kind: 'password_refused', requirements: created.requirements };
      }
    }
    const { user } = created;

    const identity = {
      issuer: directory.issuer,
      subject: user.id,
      email: user.login.toLowerCase(),
      firstName: user.firstName,
      lastName: user.lastName,
    };
    const linked: Borrower = {
      ...borrower,
      email: identity.email,
      firstName: identity.firstName,
      lastName: identity.lastName,
      idpIssuer: identity.issuer,
      idpSubject: identity.subject,
    };
    // The lender's systems hear of the registration in the transaction that links the identity.
    const registered = await repository.transaction(async (trx) => {
      if (!(await borrowers.linkIdentity(borrower.id, identity, trx))) return false;
      await events.publish('borrower.registered', registeredEvent(linked), trx);
      return true;
    });
    if (registered) return { kind: 'registered', user, borrower: linked };
    // Another identity took this borrower between the two steps (a sign-in through another provider):
    // the new user then gets a borrower of its own, as on any first sign-in.
    const own = await borrowers.upsertByIdentity(identity);
    await events.publish('borrower.registered', registeredEvent(own));
    return { kind: 'registered', user, borrower: own };
  }

  return {
    /** Invites (again: the newer link replaces the older) a borrower who has no account yet. Call `mail.nudge()` after. */
    async invite(request: InviteRequest, invitedBy: string): Promise<InviteOutcome> {
      // Read before the transaction opens (see above).
      if (await directory.findByLogin(request.email)) return { kind: 'already_registered' };
      return repository.transaction(async (trx): Promise<InviteOutcome> => {
        const known = await borrowers.findByEmail(request.email, trx);
        if (known.some((borrower) => borrower.idpSubject !== null)) return { kind: 'already_registered' };
        const borrower = await borrowers.ensureByEmail(request, trx);
        // The names the operator gives now are the ones the account will have (a borrower created for a
        // loan may have none yet).
        await borrowers.renameUnlinked(borrower.id, request, trx);
        const issued = await repository.issue(trx, { borrowerId: borrower.id, invitedBy });
        const message = mail.templates.invitationEmail({
          firstName: request.firstName,
          locale: request.locale,
          registrationUrl: `${publicUrl}${routes.userRegistration.href({ token: issued.token })}`,
          expiresInMinutes: LIFETIME_MINUTES,
        });
        await mail.enqueue(
          {
            ...message,
            to: borrower.email,
            idempotencyKey: `${message.kind}:${issued.id}`,
          },
          trx,
        );
        return { kind: 'invited', borrowerId: borrower.id, expiresAt: issued.expiresAt };
      });
    },

    /** Who a usable invitation is for. */
    async lookup(token: string): Promise<LookupOutcome> {
      const pending = await repository.find(token);
      if (!pending) return { kind: 'invalid' };
      if (await hasAccount(pending.email, pending.linked)) return { kind: 'already_registered' };
      return {
        kind: 'found',
        invitation: {
          email: pending.email,
          firstName: pending.firstName ?? '',
          lastName: pending.lastName ?? '',
          expiresAt: pending.expiresAt.toISOString(),
        },
      };
    },

    /**
     * Registration with an invitation: the user is created (see join), then signs in with the new
     * password as the directory's sign-in would have it. Where that asks for nothing more, the
     * borrower is signed in as by a sign-in link: a product access token in a new session, and the
     * directory's one-time session token with which the page completes the identity provider's
     * sign-in. Where it asks for a second factor (MFA_POLICY=required), no session begins here.
     */
    async register(
      token: string,
      password: string,
      client: SignInClient,
      locale?: Locale,
    ): Promise<RegistrationOutcome> {
      // Before the invitation is spent, so the borrower can choose another with the same link.
      if (isCommonPassword(password)) return { kind: 'too_common' };
      const joined = await join(token, password);
      if (joined.kind !== 'registered') return joined;
      const { borrower, user } = joined;
      events.nudge();
      // The language they registered in is their choice from the start (their e-mails follow it).
      if (locale) await directory.setLocale(user.id, locale);
      const step = await directory.passwordSignIn(user, password);
      if (step.kind === 'factor') {
        return { kind: 'second_factor', borrowerId: borrower.id, stateToken: step.stateToken };
      }
      const accessToken = await sessions.begin(borrower, {
        method: 'registration',
        userAgent: client.userAgent,
        clientAddress: client.clientAddress,
        deviceId: client.deviceId(),
      });
      return { kind: 'registered', borrowerId: borrower.id, accessToken, sessionToken: step.sessionToken };
    },
  };
}

export type Invitations = ReturnType<typeof invitations>;
