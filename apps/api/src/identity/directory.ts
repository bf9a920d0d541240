import { DEFAULT_LOCALE, type Locale, type PasskeyEnrolment } from '@customer-core/contracts';
import { LOG_EVENT_TYPES, type LogEventFields } from '@customer-core/contracts/server';

/**
 * What follows a first proof the portal checked: the sign-in is done ('signed_in', with a session token
 * that completes it in the browser, null where the directory mints none that way), or the state token
 * of an authentication transaction in which the user's second factor (or its enrolment) comes next,
 * which the portal walks through as after a password.
 */
export type SignInStep =
  { kind: 'signed_in'; sessionToken: string | null } | { kind: 'factor'; stateToken: string };

export type LinkSignInStep = SignInStep | { kind: 'factor_unavailable' };

/**
 * What the directory refuses for a reason the user can put right: each call returns its own few, as
 * `{ ok: false, problem }`, beside `{ ok: true, ... }`. Faults are thrown (DirectoryUnavailableError).
 */
export type DirectoryRefusal =
  /** Another user signs in with this login already. */
  | { ok: false; problem: 'login_taken' }
  /** The directory's password policy refused the password; `requirements` is a sentence saying what it asks. */
  | { ok: false; problem: 'password_refused'; requirements: string }
  /** The current password given is not the user's (or a lockout refuses every password for now). */
  | { ok: false; problem: 'wrong_password' }
  /** The user has no factor with this id (none at all, or it is another user's). */
  | { ok: false; problem: 'factor_not_found' }
  /** The code given is not the factor's current one, or was used already. */
  | { ok: false; problem: 'wrong_code' }
  /** The pending factor has taken as many wrong codes as it may: it must be started again. */
  | { ok: false; problem: 'too_many_wrong_codes' }
  /** The browser's new credential did not verify, or is one the directory has already. */
  | { ok: false; problem: 'passkey_refused' }
  /** The user has a factor of this type already: one is enough. */
  | { ok: false; problem: 'factor_already_enrolled' }
  /** The directory does not offer this kind of factor (an org without e-mail codes enabled). */
  | { ok: false; problem: 'factor_not_offered' }
  /** The directory has mailed as many codes as it will for now. */
  | { ok: false; problem: 'too_many_codes' };

export type DirectoryProblem = DirectoryRefusal['problem'];

/** A call's outcome: done (with what `T` adds), or one of the refusals `P`. */
export type DirectoryOutcome<P extends DirectoryProblem, T extends object = object> =
  ({ ok: true } & T) | Extract<DirectoryRefusal, { problem: P }>;

/**
 * What the portal's own flows (registration, password reset, sign-in by e-mailed link, sign-out) ask
 * of the directory that owns the borrowers' sign-in names and passwords: the bundled identity
 * provider in this process, or a hosted Okta org through its Management API. Flows call only this.
 */
export interface Directory {
  /** The issuer whose ID tokens name these users: borrowers are keyed by issuer and subject. */
  readonly issuer: string;
  findById(id: string): Promise<DirectoryUser | undefined>;
  findByLogin(login: string): Promise<DirectoryUser | undefined>;
  /** An active user with a password. */
  create(
    user: NewDirectoryUser,
  ): Promise<DirectoryOutcome<'login_taken' | 'password_refused', { user: DirectoryUser }>>;
  /** Sets a password as an administrator would (lifting a lockout). */
  setPassword(id: string, password: string): Promise<DirectoryOutcome<'password_refused'>>;
  /**
   * The user's own change: sets `newPassword` when `currentPassword` is theirs. A wrong one counts
   * against the sign-in lockout as a wrong sign-in from `clientAddress` does (a hosted org counts it
   * from the portal's address).
   */
  changePassword(
    id: string,
    currentPassword: string,
    newPassword: string,
    clientAddress: string,
  ): Promise<DirectoryOutcome<'wrong_password' | 'password_refused'>>;
  /**
   * Changes the user's sign-in name (their e-mail address). Only where the portal owns the sign-in
   * names (the bundled provider); absent with a hosted org, where the lender changes them.
   */
  changeLogin?(id: string, login: string): Promise<DirectoryOutcome<'login_taken'>>;
  /**
   * Sets the user's language on their profile (Okta's `locale`, written "es_US"; the ID token's
   * `locale` claim from the next one on); false for a user the directory does not have.
   */
  setLocale(id: string, locale: Locale): Promise<boolean>;
  /** Ends every identity-provider session of the user, so none of its ID tokens is exchanged again. */
  endSessions(id: string): Promise<void>;
  /**
   * Deletes the user (an erasure): their sessions end, and their password, factors and passkeys go.
   * One the directory no longer has is no error.
   */
  deleteUser(id: string): Promise<void>;
  /** Lifts the user's sign-in lockouts (support, once the caller is known to be the borrower). */
  unlock(id: string): Promise<void>;
  /** Whether sign-in is locked out for the user now (support's view); false for a user it does not have. */
  isLocked(id: string): Promise<boolean>;
  /**
   * The staff console's users, where the portal owns the users (the bundled provider); absent with a
   * hosted org, whose admins put staff in the console's groups there.
   */
  readonly staff?: StaffDirectory;
  /** Ends one identity-provider session (an ID token's sid) of the user; one already over is no error. */
  endSession(sessionId: string, userId: string): Promise<void>;
  /**
   * Whether every ID token names its session (sid): the bundled provider's do; an Okta org's only with
   * single logout configured, so there a token without one is not checked against the org's sessions.
   */
  readonly idTokensNameSessions: boolean;
  /** Whether the session an ID token names (its sid) is still signed in as this user. */
  hasSession(sessionId: string, userId: string): Promise<boolean>;
  /**
   * Whether a sign-in by e-mailed link (or step-up code) can go on to the user's second factor: the
   * bundled provider's transaction can; a hosted org cannot (linkSignIn answers 'factor_unavailable').
   */
  readonly factorAfterLink: boolean;
  /** Whether the user has an active second factor that sign-in asks for (step-up before signing). */
  hasSecondFactor(userId: string): Promise<boolean>;
  /**
   * A fresh check of the user's current password (before removing a factor): a wrong one counts
   * against the sign-in lockout as in changePassword.
   */
  verifyPassword(
    id: string,
    password: string,
    clientAddress: string,
  ): Promise<DirectoryOutcome<'wrong_password'>>;
  /** The user's second factors, activated or waiting for their first code, oldest first. */
  listFactors(userId: string): Promise<DirectoryFactor[]>;
  /** Starts an authenticator app (TOTP), pending its first code. */
  enrolTotp(
    userId: string,
  ): Promise<DirectoryOutcome<'factor_already_enrolled', { factorId: string; sharedSecret: string }>>;
  /**
   * Starts an e-mail factor for the user's login address (Okta's `email`), its first code mailed by
   * the directory ('factor_not_found': a user the directory no longer has).
   */
  enrolEmail(
    userId: string,
    login: string,
  ): Promise<
    DirectoryOutcome<
      'factor_already_enrolled' | 'factor_not_offered' | 'too_many_codes' | 'factor_not_found',
      { factorId: string }
    >
  >;
  /** Mails another code for a pending e-mail factor. */
  resendFactorCode(
    userId: string,
    factorId: string,
  ): Promise<DirectoryOutcome<'factor_not_found' | 'too_many_codes'>>;
  /**
   * Recovery codes, a factor of the bundled provider's own; absent with a hosted org. `generate`
   * answers undefined for a user without an active factor.
   */
  readonly recoveryCodes?: {
    generate(userId: string): Promise<string[] | undefined>;
    remaining(userId: string): Promise<number>;
  };
  /**
   * The first code activates a pending factor; 'too_many_wrong_codes' once the enrolment has taken its
   * wrong codes (it must be started again).
   */
  activateFactor(
    userId: string,
    factorId: string,
    passCode: string,
  ): Promise<DirectoryOutcome<'factor_not_found' | 'wrong_code' | 'too_many_wrong_codes'>>;
  /** 'factor_not_found' for another user's factor, too. */
  removeFactor(userId: string, factorId: string): Promise<DirectoryOutcome<'factor_not_found'>>;
  /**
   * Starts a passkey (Okta's webauthn factor), pending the browser's new credential: the options for
   * navigator.credentials.create. Only where the portal is the relying party (the bundled provider);
   * absent with a hosted org, whose passkeys belong to the org's own domain.
   */
  enrolWebauthn?(
    userId: string,
  ): Promise<DirectoryOutcome<'factor_not_found', { enrolment: PasskeyEnrolment }>>;
  /** The browser's credential activates the pending passkey. */
  activateWebauthn?(
    userId: string,
    factorId: string,
    name: string,
    credential: WebauthnAttestation,
  ): Promise<DirectoryOutcome<'factor_not_found' | 'passkey_refused'>>;
  /**
   * A sign-in with the password the user has just chosen (registration): what the directory's own
   * sign-in answers that password. Its sign-on policy decides, so a policy that asks every user for a
   * second factor has the new user enrol one ('factor') before any session exists.
   */
  passwordSignIn(user: DirectoryUser, password: string): Promise<SignInStep>;
  /**
   * A sign-in by e-mailed link, the mailbox proven: what comes next (see SignInStep), or
   * 'factor_unavailable' when the user has a second factor the directory cannot ask for after a link
   * (a hosted org), so the link must not sign them in.
   */
  linkSignIn(user: DirectoryUser): Promise<LinkSignInStep>;
  /**
   * The user's failed sign-ins and lockouts since an instant, oldest first: the System Log's
   * user.session.start failures and user.account.lock events, one per attempt.
   */
  signInTrouble(id: string, since: Date): Promise<DirectorySecurityEvent[]>;
}

export interface DirectorySecurityEvent {
  id: string;
  type: 'sign_in_failed' | 'locked';
  occurredAt: Date;
  userAgent: string | null;
  /** The client's address as the directory logged it (reduced to its network before it is kept). */
  clientAddress: string | null;
}

/** A System Log event (Okta's or the bundled provider's) as a failed sign-in or a lockout; undefined for any other. */
export function securityEventOf(event: LogEventFields): DirectorySecurityEvent | undefined {
  const type =
    event.eventType === LOG_EVENT_TYPES.lock
      ? 'locked'
      : event.eventType === LOG_EVENT_TYPES.signIn && event.outcome?.result === 'FAILURE'
        ? 'sign_in_failed'
        : undefined;
  const occurredAt = new Date(event.published);
  if (!type || Number.isNaN(occurredAt.getTime())) return undefined;
  return {
    id: event.uuid,
    type,
    occurredAt,
    userAgent: event.client?.userAgent?.rawUserAgent ?? null,
    clientAddress: event.client?.ipAddress ?? null,
  };
}

export interface DirectoryUser {
  id: string;
  login: string;
  firstName: string;
  lastName: string;
  /** The portal's language of the profile's locale (English for a locale it does not speak). */
  locale: Locale;
}

export interface DirectoryFactor {
  id: string;
  /** Okta's factor type, e.g. `token:software:totp`. */
  factorType: string;
  /** `ACTIVE`, or `PENDING_ACTIVATION` until its first code. */
  status: string;
  createdAt: Date;
  /** When it last verified a sign-in, where the directory says. */
  lastVerifiedAt: Date | null;
  /** What the user called it (a passkey), where the directory keeps a name. */
  name?: string;
}

/** A new WebAuthn credential as Okta's activate takes it (base64url). */
export interface WebauthnAttestation {
  attestation: string;
  clientData: string;
  transports?: string[];
}

/** A staff user: a directory user in one or more of the console's groups. */
export interface DirectoryStaffUser extends DirectoryUser {
  groups: string[];
  createdAt: Date;
}

export interface StaffDirectory {
  /** The user's groups now; empty for a user the directory does not have. */
  groupsOf(id: string): Promise<string[]>;
  /** The users in any of these groups, by login. */
  inGroups(groups: string[]): Promise<DirectoryStaffUser[]>;
  /** A new user in these groups, with a password nobody knows (they set theirs by an e-mailed link). */
  create(
    user: Omit<NewDirectoryUser, 'password'> & { groups: string[] },
  ): Promise<DirectoryOutcome<'login_taken', { user: DirectoryStaffUser }>>;
  /** Puts the user in exactly these groups; false for a user the directory does not have. */
  setGroups(id: string, groups: string[]): Promise<boolean>;
}

export interface NewDirectoryUser {
  login: string;
  password: string;
  firstName: string;
  lastName: string;
}

/**
 * The directory did not answer usefully (down, slow, rate limited past retries, or busy checking
 * passwords): a fault, thrown, worth a retry later (answered 503). Every other failure of a call is
 * thrown as a plain Error (a bug, an answer the portal cannot read): answered 500.
 */
export class DirectoryUnavailableError extends Error {
  constructor(reason: string) {
    super(`The identity provider's directory is unavailable: ${reason}`);
    this.name = 'DirectoryUnavailableError';
  }
}

/** Whose identity a borrower is: the directory's users only have a profile here. */
interface DirectoryIdentity {
  idpIssuer: string | null;
  idpSubject: string | null;
}

/**
 * The borrower's language as their directory profile keeps it, for a message or document composed for
 * them: English for a borrower whose identity is another provider's, or one the directory no longer
 * has. A directory that does not answer just now gives English too: a security notice is better sent
 * in English than not at all. Other faults are thrown.
 */
export async function borrowerLocale(directory: Directory, borrower: DirectoryIdentity): Promise<Locale> {
  if (!borrower.idpSubject || borrower.idpIssuer !== directory.issuer) return DEFAULT_LOCALE;
  try {
    return (await directory.findById(borrower.idpSubject))?.locale ?? DEFAULT_LOCALE;
  } catch (error) {
    if (error instanceof DirectoryUnavailableError) return DEFAULT_LOCALE;
    throw error;
  }
}
