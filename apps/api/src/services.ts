import type { Kysely } from 'kysely';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { IdentityProvider } from '@customer-core/idp';
import { accountSessions, type AccountSessions } from './session/sessions.js';
import { emailChange, type EmailChange } from './account/email-change.js';
import { accountChangeLimit } from './account/change-limit.js';
import { newSignIns } from './account/new-sign-ins.js';
import { unrecognizedSignIn, type UnrecognizedSignIn } from './account/unrecognized-sign-in.js';
import { deviceIdOf } from './http/device-cookie.js';
import { passwordChange, type PasswordChange } from './account/password-change.js';
import { secondFactors, type SecondFactors } from './account/second-factors.js';
import { recoveryCodes, type RecoveryCodesService } from './account/recovery-codes.js';
import { securityActivity, type SecurityActivity } from './account/security-activity.js';
import { stepUpGuard, type StepUpGuard } from './account/step-up.js';
import { loanApplications, type LoanApplications } from './applications/applications.js';
import { borrowerRepository, type BorrowerRepository } from './borrowers/borrower-repository.js';
import type { Config } from './config/config.js';
import type { ServiceCredential } from './config/service-credentials.js';
import type { Directory } from './identity/directory.js';
import type { ApiDatabase } from './db/schema.js';
import { invitations, type Invitations } from './joining/invitations.js';
import { emailLinks, type EmailLinks } from './email-links/email-links.js';
import { linkRequestCounter } from './email-links/request-limits.js';
import type { MailService } from './mail/index.js';
import { loadCommonPasswords } from './passwords/common-passwords.js';
import { accessTokenChecker, type AccessTokenChecker } from './session/access-tokens.js';
import { exchangedIdTokens, type ExchangedIdTokens } from './session/exchanged-id-tokens.js';
import { IdTokenVerifier } from './session/id-token-verifier.js';
import { linkTokenStore } from './email-links/link-tokens.js';
import { lookupTokenStore, type LookupTokenStore } from './session/lookup-tokens.js';
import { ProductTokens } from './session/product-token.js';
import { sessionStore, type SessionStore } from './session/session-store.js';
import { KEY_RING_RELOAD_SECONDS, ProductKeyRing, signingKeyRotation } from './session/signing-keys.js';
import { borrowerDocuments, type BorrowerDocuments } from './documents/borrower-documents.js';
import { borrowerLoans, type BorrowerLoans } from './loans/borrower-loans.js';
import { borrowerOverview } from './loans/borrower-overview.js';
import { loanBook, type LoanBook } from './loans/loan-book.js';
import { loanCheckout, type LoanCheckout } from './loans/loan-checkout.js';

/** The domain services the routes use, built once per instance. */
export interface AuthServices {
  /** The portal's public origin: links in e-mails start with it. */
  publicUrl: string;
  /** Who the borrower deals with: named in e-mails and in what to do when a link fails. */
  lender: Config['lender'];
  idTokens: IdTokenVerifier;
  /** ID tokens already exchanged (each is exchanged once), shared by every instance. */
  exchangedIdTokens: ExchangedIdTokens;
  productTokens: ProductTokens;
  checkAccessToken: AccessTokenChecker;
  keys: ProductKeyRing;
  /** How long a superseded signing key keeps verifying (see rotateSigningKey). */
  signingKeyRetirementSeconds: number;
  sessions: SessionStore;
  /** The borrower's sign-in sessions as they see them: every sign-in begins one here. */
  accountSessions: AccountSessions;
  /** What happened to each borrower's account: sign-ins, sessions ended, password changes. */
  activity: SecurityActivity;
  /** A signed-in borrower's own password change (account page). */
  changePassword: PasswordChange;
  /** A signed-in borrower's second factors (account page). */
  secondFactors: SecondFactors;
  recoveryCodes: RecoveryCodesService;
  /** A signed-in borrower's own email change, confirmed by a link to the new address (account page). */
  emailChange: EmailChange;
  /** Refuses a sensitive action without a recent sign-in (step_up_required): signing, email change. */
  stepUp: StepUpGuard;
  lookupTokens: LookupTokenStore;
  borrowers: BorrowerRepository;
  /** Trusted systems and operators: each credential is good for one scope (lookup tokens, operators' calls). */
  serviceCredentials: readonly ServiceCredential[];
  /** The borrowers' sign-in names and passwords: the bundled identity provider or a hosted Okta org. */
  directory: Directory;
  /** E-mail: enqueue in the transaction that creates what a message carries, then nudge. */
  mail: MailService;
  /** Password-reset and sign-in links by e-mail, for the directory's users. */
  emailLinks: EmailLinks;
  /** Operators' invitations and registration with them (the directory gets the new user). */
  invitations: Invitations;
  /** Loans: the borrower's view, their checkout, and the operators' book and overview. */
  loans: {
    ofBorrower: BorrowerLoans;
    checkout: LoanCheckout;
    book: LoanBook;
    overview(): ReturnType<typeof borrowerOverview>;
  };
  /** The borrower's documents, and signed ones as PDFs. */
  documents: BorrowerDocuments;
  /** Operators' key rotation (see signing-keys.ts). */
  rotateSigningKey: ReturnType<typeof signingKeyRotation>;
  /** Loan applications and the verification of their e-mail address. */
  applications: LoanApplications;
  /** Behind a load balancer: a client's address is the last X-Forwarded-For entry (rate limits). */
  trustProxy: boolean;
  /** The browser's device id (a cookie), for the routes that start a session. */
  deviceOf(request: FastifyRequest, reply: FastifyReply): string;
  /** A "This wasn't me" link: every session ends, and a password reset begins. */
  unrecognizedSignIn: UnrecognizedSignIn;
}

/** A token signed just before a rotation, by an instance that had not reloaded its keys yet, must outlive it. */
export const signingKeyRetirementSeconds = (config: Config) =>
  config.accessTokenTtlSeconds + 2 * KEY_RING_RELOAD_SECONDS;

export async function createAuthServices(
  config: Config,
  db: Kysely<ApiDatabase>,
  idp: IdentityProvider | null,
  directory: Directory,
  mail: MailService,
  logger: FastifyBaseLogger,
): Promise<AuthServices> {
  const keys = await ProductKeyRing.open(db);
  const bundled = config.bundledIdp;
  const secureCookies = new URL(config.publicUrl).protocol === 'https:';
  const trusted = [config.identityProviders.production, config.identityProviders.nonProduction].map((p) => ({
    ...p,
    localKeys: idp && bundled && p.issuer === bundled.issuer ? () => idp.publicKeys() : undefined,
  }));
  const productTokens = new ProductTokens(keys, {
    issuer: config.publicUrl,
    ttlSeconds: config.accessTokenTtlSeconds,
    sessionMaxAgeSeconds: config.sessionMaxAgeSeconds,
  });
  const sessions = sessionStore(db, config.database, {
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
  });
  loadCommonPasswords();
  const borrowers = borrowerRepository(db);
  const activity = securityActivity(db, directory);
  const linkTokens = linkTokenStore(db);
  const changeLimit = accountChangeLimit(db);
  const signInSessions = accountSessions({
    db,
    activity,
    newSignIns: newSignIns({
      db,
      mail,
      tokens: linkTokens,
      directory,
      // The same limits as e-mailed links, counted apart: per address, and per address and network.
      counter: linkRequestCounter(config.emailLinkLimits, 'new-sign-in'),
      publicUrl: config.publicUrl,
      enabled: config.newSignInEmails,
      logger,
    }),
    productTokens,
    sessions,
    borrowers,
    directory,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    sessionMaxAgeSeconds: config.sessionMaxAgeSeconds,
  });
  const factors = secondFactors({
    db,
    directory,
    borrowers,
    activity,
    mail,
    policy: config.mfaPolicy,
    limit: changeLimit,
  });
  return {
    publicUrl: config.publicUrl,
    lender: config.lender,
    idTokens: new IdTokenVerifier(trusted),
    exchangedIdTokens: exchangedIdTokens(db),
    productTokens,
    checkAccessToken: accessTokenChecker(productTokens, sessions),
    keys,
    signingKeyRetirementSeconds: signingKeyRetirementSeconds(config),
    sessions,
    accountSessions: signInSessions,
    activity,
    changePassword: passwordChange({
      db,
      directory,
      borrowers,
      accountSessions: signInSessions,
      activity,
      mail,
      limit: changeLimit,
    }),
    secondFactors: factors,
    recoveryCodes: recoveryCodes({
      db,
      directory,
      secondFactors: factors,
      activity,
      mail,
      limit: changeLimit,
    }),
    emailChange: emailChange({
      db,
      directory,
      borrowers,
      tokens: linkTokens,
      activity,
      mail,
      // The same limits as e-mailed links, counted apart: per borrower, and per new address.
      counter: linkRequestCounter(config.emailLinkLimits, 'email-change'),
      publicUrl: config.publicUrl,
    }),
    stepUp: stepUpGuard({ borrowers, directory }),
    lookupTokens: lookupTokenStore(db),
    borrowers,
    serviceCredentials: config.serviceCredentials,
    directory,
    mail,
    emailLinks: emailLinks({
      db,
      mail,
      tokens: linkTokens,
      counter: linkRequestCounter(config.emailLinkLimits),
      publicUrl: config.publicUrl,
      directory,
      borrowers,
      sessions,
      accountSessions: signInSessions,
    }),
    invitations: invitations({ db, mail, borrowers, directory, publicUrl: config.publicUrl }),
    loans: {
      ofBorrower: borrowerLoans(db),
      checkout: loanCheckout(db),
      book: loanBook(db, borrowers, config.lender),
      overview: () => borrowerOverview(db),
    },
    documents: borrowerDocuments(db, config.lender),
    rotateSigningKey: signingKeyRotation(db),
    applications: loanApplications({
      db,
      mail,
      // The same limits as e-mailed links (an application e-mails one), counted apart from them.
      counter: linkRequestCounter(config.emailLinkLimits, 'application'),
      limitWindowSeconds: config.emailLinkLimits.windowSeconds,
      publicUrl: config.publicUrl,
    }),
    trustProxy: config.trustProxy,
    deviceOf: (request, reply) => deviceIdOf(request, reply, secureCookies),
    unrecognizedSignIn: unrecognizedSignIn({
      db,
      tokens: linkTokens,
      directory,
      borrowers,
      sessions,
      accountSessions: signInSessions,
    }),
  };
}
