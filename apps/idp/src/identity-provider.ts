import type { JsonWebKey } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { resealColumns, type SecretBox } from '@customer-core/database';
import { createApiTokens } from './api-tokens.js';
import { authnRoutes } from './authn-route.js';
import type { IdpMetrics } from './idp-metrics.js';
import { createLoginThrottle } from './login-failure-repository.js';
import { createSecurityLogRepository, type SecurityLogEvent } from './security-log-repository.js';
import { mountPathOf, mountProvider } from './mount.js';
import { refuseDeepNesting } from './nesting-depth.js';
import {
  destroyAccountArtefacts,
  destroySession,
  findSession,
  purgeExpiredModels,
  sessionExists,
} from './oidc-model-repository.js';
import { createOidcProvider, type ClientOptions } from './openid-provider.js';
import { KEY_MATERIAL, loadCookieKeys, loadSigningKeys, publicJwks } from './provider-key-repository.js';
import { OWASP_PASSWORD_HASH_COST, passwordHasher, type PasswordHashCost } from './passwords.js';
import { passwordVerifier } from './password-change.js';
import { createPasswordPolicy, type PasswordPolicyOptions } from './password-policy.js';
import { purgeExpiredSignInState } from './purge-repository.js';
import { databaseRequestCountStore } from './request-count-repository.js';
import type { IdpDatabase } from './schema.js';
import { createSessionTokenRepository } from './session-token-repository.js';
import { createAuthnTransactionRepository, PASSWORD_AMR } from './factors/authn-transaction-repository.js';
import { createFactorRepository, FACTOR_SECRET, secondFactorAsked } from './factors/factor-repository.js';
import { factorRoutes } from './factors/factor-routes.js';
import { factorCodes } from './factors/factor-codes.js';
import { createEmailCodeRepository } from './factors/email-code-repository.js';
import type { FactorCodeMailer } from './factors/email-factor.js';
import { emailBodies, emailCodeSender } from './factors/email-factor-routes.js';
import { createRecoveryCodeRepository } from './factors/recovery-code-repository.js';
import { signInFactors } from './factors/sign-in-factors.js';
import { userFactors, type UserFactors } from './factors/user-factors.js';
import { DEFAULT_MFA_POLICY, EMAIL_LINK_AMR, type MfaPolicy } from '@customer-core/contracts/server';
import { secondFactorStep } from './factors/second-factor-step.js';
import { transactionBodies } from './factors/transaction-bodies.js';
import { passkeyRoutes } from './factors/webauthn/passkey-routes.js';
import { relyingPartyOf } from './factors/webauthn/relying-party.js';
import { webauthnFactors, type WebauthnFactors } from './factors/webauthn/webauthn-factors.js';
import { createWebauthnRepository } from './factors/webauthn/webauthn-repository.js';
import { webauthnVerifyStep } from './factors/webauthn/webauthn-verify.js';
import { createUserRepository, type IdpUser, type NewUser } from './user-repository.js';
import { usersApiRoutes, type UsersApiRateLimit } from './users-api.js';

export interface IdentityProviderOptions {
  /** Opened and migrated by the caller: migrateToLatest(db, 'idp', idpMigrations). */
  db: Kysely<IdpDatabase>;
  /** Seals the secrets the provider keeps (TOTP secrets, its signing and cookie keys). */
  secrets: SecretBox;
  /** e.g. http://localhost:8080/oauth2/default; the provider is mounted at its path. */
  issuer: string;
  clients: ClientOptions[];
  /** The portal's origins: CORS for authn, token, userinfo and revoke; who may frame okta_post_message. */
  allowedOrigins: string[];
  /** true in production (https). */
  secureCookies: boolean;
  /** Behind a load balancer: the client address is the last X-Forwarded-For entry. */
  trustProxy: boolean;
  /** Never given passwords, session tokens, codes or tokens. */
  logger: FastifyBaseLogger;
  /** Lifetime of an ID token: long enough to exchange it, short enough to be useless later; default 300 s. */
  idTokenTtlSeconds?: number;
  /** Lifetime of a session token from /api/v1/authn; default 300 s. */
  sessionTokenTtlSeconds?: number;
  /** Sign-ins that may wait for a core to check their password, beyond those being checked; default 64. */
  signInQueueDepth?: number;
  /**
   * The argon2id cost of the password hashes it makes (new and changed passwords, and the dummy hash an
   * unknown login is checked against); default OWASP's minimum, OWASP_PASSWORD_HASH_COST. Given in
   * code only, never from a setting, so no configuration can weaken production: tests whose subject is
   * not password hashing give a cheap one. Stored hashes verify at whatever cost they were made with.
   */
  passwordHashCost?: PasswordHashCost;
  /** How often expired artefacts are deleted; default 600 s, 0 for never (tests). */
  purgeIntervalSeconds?: number;
  /**
   * The SSWS tokens (32 characters or more) the Users API at /api/v1/users accepts. None: it answers
   * every call 401.
   */
  apiTokens?: string[];
  /** Users API calls per API token, counted in the database; default 600 per 60 s. */
  usersApiRateLimit?: UsersApiRateLimit;
  /** The password policy of the Users API; default Okta's default policy (8 characters). */
  passwordPolicy?: PasswordPolicyOptions;
  /** When a second factor is asked at sign-in; default `optional`. */
  mfaPolicy?: MfaPolicy;
  /** How long a state token of a factor step stays usable unused; default 300 s. */
  stateTokenTtlSeconds?: number;
  /**
   * How the provider mails a one-time code of an e-mail factor (the host's mail). Without it the
   * e-mail factor is not offered.
   */
  factorCodeMailer?: FactorCodeMailer;
  /** What browsers show as the site a passkey is for; default the portal's host name. */
  relyingPartyName?: string;
  /** Where the provider reports sign-ins, lockouts and its password line (the host's metrics). */
  metrics?: IdpMetrics;
}

/** What follows a first proof the portal checked: a session token, or the factor step's transaction. */
export type SignInStep = { kind: 'signed_in'; sessionToken: string } | { kind: 'factor'; stateToken: string };

export interface IdentityProvider {
  /** POST /api/v1/authn (+ OPTIONS), the Users API at /api/v1/users and everything under the issuer path. */
  plugin: FastifyPluginAsync;
  /** The ID-token verification keys (public JWKS), for in-process verification. */
  publicKeys(): { keys: JsonWebKey[] };
  users: {
    /** Seeding: creates the user if missing; never overwrites an existing user or password. */
    ensure(input: NewUser): Promise<IdpUser>;
    /** Throws LoginAlreadyExistsError when the login (case-insensitive) is taken. */
    create(input: NewUser): Promise<IdpUser>;
    findById(id: string): Promise<IdpUser | undefined>;
    findByLogin(login: string): Promise<IdpUser | undefined>;
    /** Also lifts lockouts; does not end sessions (call endSessions for that). */
    setPassword(id: string, password: string): Promise<void>;
    /** Ends the user's sessions, then deletes the user and all kept by their id; false: no such user. */
    delete(id: string): Promise<boolean>;
    /** Lifts the user's lockouts (every address, and account-wide). */
    unlock(id: string): Promise<void>;
    /** Whether sign-in is locked out for the user now, from any address or account-wide. */
    isLocked(id: string): Promise<boolean>;
    /** Puts the user in exactly these groups (the staff console's roles); false for no such user. */
    setGroups(id: string, groups: string[]): Promise<boolean>;
    /** The users in any of these groups (staff), by login. */
    inGroups(groups: string[]): Promise<IdpUser[]>;
    /** A new sign-in name (an e-mail address). Throws LoginAlreadyExistsError when another user has it. */
    changeLogin(id: string, login: string): Promise<void>;
    /**
     * The user's locale, as Okta's profile writes it ("es_US"): the ID token's `locale` claim from
     * the next token on ("es-US"). False when there is no such user.
     */
    setLocale(id: string, locale: string): Promise<boolean>;
    /**
     * The user's own change: sets `newPassword` when `currentPassword` is theirs, checked as a sign-in
     * from `network` is, lockout included; false when it is not. Throws PasswordCheckBusyError.
     */
    changePassword(
      id: string,
      currentPassword: string,
      newPassword: string,
      network: string,
    ): Promise<boolean>;
    /**
     * A fresh check of the user's current password, as a sign-in from `network` checks it (lockout
     * included); false when it is not theirs. Throws PasswordCheckBusyError.
     */
    verifyPassword(id: string, password: string, network: string): Promise<boolean>;
  };
  /** The user's own second factors: list, enrol an authenticator app or e-mail codes, activate, remove; recovery codes. */
  factors: UserFactors;
  /**
   * WebAuthn factors (passkeys) of the portal (the relying party is its first allowed origin):
   * enrol, activate with the browser's attestation, and their names. Absent without an origin.
   */
  webauthn?: Pick<WebauthnFactors, 'enrol' | 'activate' | 'names'>;
  /** A one-time session token for the user, as /api/v1/authn issues (for other sign-in routes). */
  issueSessionToken(userId: string): Promise<{ sessionToken: string; expiresAt: Date }>;
  /**
   * A sign-in by e-mailed link (the portal checked the link): as after a right password, a session
   * token, or the state token of the second factor the policy asks for next.
   */
  linkSignIn(userId: string): Promise<SignInStep>;
  /**
   * A sign-in with the password the user has just chosen (registration; the portal set it): what
   * /api/v1/authn answers a right password, a session token, or the state token of the second factor
   * (or its enrolment) the policy asks for next.
   */
  passwordSignIn(userId: string): Promise<SignInStep>;
  /** Sign-out everywhere: every IdP session of the account, its grants, codes and tokens, and unused session tokens. */
  endSessions(accountId: string): Promise<void>;
  /** Ends one session of the account (by the sid of its ID tokens); false when it has no such session. */
  endSession(sessionId: string, accountId: string): Promise<boolean>;
  /** Whether the session an ID token names (its sid claim) is still signed in as this account. */
  hasSession(sessionId: string, accountId: string): Promise<boolean>;
  /** Whether sign-in asks this user for a second factor they have (an active one, policy not `off`). */
  hasSecondFactor(userId: string): Promise<boolean>;
  /** The user's failed sign-ins and lockouts since an instant, oldest first (the System Log's events). */
  securityEvents(userId: string, since: Date): Promise<SecurityLogEvent[]>;
  /** Seals every kept secret again with the active key (a key rotation); how many were sealed. */
  resealSecrets(): Promise<number>;
  /** Deletes expired artefacts now (also done on an interval). */
  purgeExpired(): Promise<void>;
  /** Stops the purge timer; the database stays open (it is the caller's). */
  close(): Promise<void>;
}

export const DEFAULT_SIGN_IN_QUEUE_DEPTH = 64;
export const DEFAULT_USERS_API_RATE_LIMIT: UsersApiRateLimit = { max: 600, windowSeconds: 60 };

/** The provider's columns holding a secret, sealed. */
export const IDP_SEALED_COLUMNS = [FACTOR_SECRET, KEY_MATERIAL];

export async function createIdentityProvider(options: IdentityProviderOptions): Promise<IdentityProvider> {
  const { db, logger, secrets } = options;
  const mountPath = mountPathOf(options.issuer);
  // Secrets kept before sealing began are sealed now; until then they were read as they were.
  const sealed = await resealColumns(db, secrets, IDP_SEALED_COLUMNS, 'plain');
  if (sealed > 0) logger.info({ sealed }, 'identity provider secrets sealed');
  const passwords = passwordHasher(options.passwordHashCost ?? OWASP_PASSWORD_HASH_COST);
  const [signingKeys, cookieKeys] = await Promise.all([
    loadSigningKeys(db, secrets),
    loadCookieKeys(db, secrets),
    passwords.dummyHash(), // now, so the first unknown login is not slower than the rest
  ]);
  const users = createUserRepository(db, passwords);
  const sessionTokens = createSessionTokenRepository(db, options.sessionTokenTtlSeconds ?? 300);
  const throttle = createLoginThrottle(db, { onLockout: options.metrics?.lockout });
  const securityLog = createSecurityLogRepository(db);
  const provider = createOidcProvider({ ...options, signingKeys, cookieKeys, users, sessionTokens });
  const factors = createFactorRepository(db, secrets);
  const transactions = createAuthnTransactionRepository(db, options.stateTokenTtlSeconds ?? 300);
  const bodies = transactionBodies(new URL(options.issuer).origin);
  const relyingParty = relyingPartyOf(options.allowedOrigins, options.relyingPartyName);
  const webauthn =
    relyingParty &&
    webauthnFactors({
      repository: createWebauthnRepository(db, options.stateTokenTtlSeconds ?? 300),
      users,
      rp: relyingParty,
      logger,
    });
  const recoveryCodes = createRecoveryCodeRepository(db);
  const checkCode = factorCodes(factors, createEmailCodeRepository(db), recoveryCodes);
  const sendEmailCode =
    options.factorCodeMailer &&
    emailCodeSender(createEmailCodeRepository(db), options.factorCodeMailer, logger);
  const email = sendEmailCode && { send: sendEmailCode, bodies: emailBodies(new URL(options.issuer).origin) };
  const forSignIn = signInFactors(factors, recoveryCodes, email !== undefined);
  const afterPrimary = secondFactorStep({
    policy: options.mfaPolicy ?? DEFAULT_MFA_POLICY,
    factors: forSignIn,
    offerEmail: email !== undefined,
    transactions,
    sessionTokens,
    bodies,
    ...(webauthn ? { factorProfiles: webauthn.profiles } : {}),
  });
  const registerAuthn = authnRoutes({
    ...options,
    users,
    throttle,
    sessionTokens,
    signInQueueDepth: options.signInQueueDepth ?? DEFAULT_SIGN_IN_QUEUE_DEPTH,
    passwords,
    secondFactor: {
      asked: (userId) =>
        secondFactorAsked(userId, options.mfaPolicy ?? DEFAULT_MFA_POLICY, email !== undefined),
      next: (user) => afterPrimary(user),
    },
  });
  const registerFactorRoutes = factorRoutes({
    ...options,
    users,
    factors,
    transactions,
    sessionTokens,
    throttle,
    bodies,
    checkCode,
    signInFactors: forSignIn,
    email,
    verifyWebauthn:
      webauthn &&
      webauthnVerifyStep({
        webauthn,
        users,
        transactions,
        throttle,
        orgUrl: new URL(options.issuer).origin,
        logger,
      }),
  });
  const registerPasskeyRoutes = webauthn && passkeyRoutes({ ...options, webauthn, users, sessionTokens });
  const jwks = publicJwks(signingKeys);
  const verifyCurrentPassword = passwordVerifier({
    users,
    throttle,
    logger,
    signInQueueDepth: options.signInQueueDepth ?? DEFAULT_SIGN_IN_QUEUE_DEPTH,
  });

  /** The portal checked the user's first proof (`primaryAmr`): what the policy asks next, as authn would. */
  async function signInStep(userId: string, primaryAmr: string[]): Promise<SignInStep> {
    const user = await users.findById(userId);
    if (!user) throw new Error('no such user');
    const body = (await afterPrimary(user, primaryAmr)) as { sessionToken?: string; stateToken?: string };
    if (body.sessionToken) return { kind: 'signed_in', sessionToken: body.sessionToken };
    if (body.stateToken) return { kind: 'factor', stateToken: body.stateToken };
    throw new Error('a sign-in ended neither in a session token nor in a factor step');
  }

  async function endSessions(accountId: string): Promise<void> {
    await destroyAccountArtefacts(db, accountId);
    await sessionTokens.revokeAll(accountId);
    logger.info({ accountId }, 'identity provider sessions ended');
  }
  /** Sessions and tokens first (kept by the provider's models, not by the user's row), then the user. */
  async function deleteUser(accountId: string): Promise<boolean> {
    if (!(await users.findById(accountId))) return false;
    await endSessions(accountId);
    const deleted = await users.delete(accountId);
    if (deleted) logger.info({ accountId }, 'identity provider user deleted');
    return deleted;
  }
  async function endSession(sessionId: string, accountId: string): Promise<boolean> {
    const ended = await destroySession(db, sessionId, accountId);
    if (ended) logger.info({ accountId }, 'identity provider session ended');
    return ended;
  }
  const ownFactors = userFactors({ factors, checkCode, recoveryCodes, sendEmailCode, logger });
  const registerUsersApi = usersApiRoutes({
    factors: ownFactors,
    users,
    tokens: createApiTokens(options.apiTokens ?? []),
    policy: createPasswordPolicy(options.passwordPolicy),
    rateLimit: options.usersApiRateLimit ?? DEFAULT_USERS_API_RATE_LIMIT,
    orgUrl: new URL(options.issuer).origin,
    endSessions,
    endSession,
    deleteUser,
    findSession: (sessionId) => findSession(db, sessionId),
    verifyCurrentPassword,
    trustProxy: options.trustProxy,
    securityLog,
  });

  const purgeExpired = async () => {
    await purgeExpiredModels(db);
    await purgeExpiredSignInState(db);
  };
  const intervalMs = (options.purgeIntervalSeconds ?? 600) * 1000;
  const timer =
    intervalMs > 0
      ? setInterval(() => {
          purgeExpired().catch((err: unknown) =>
            logger.warn({ err }, 'purging expired identity provider data failed'),
          );
        }, intervalMs).unref()
      : undefined;

  return {
    // Not wrapped in fastify-plugin: its error handler and hooks stay inside.
    plugin: async (app: FastifyInstance) => {
      // The provider's own rate limits, counted in the database so that every instance shares them.
      await app.register(rateLimit, { global: false, store: databaseRequestCountStore(db) });
      // Before any of its routes walks a body: their control-character checks, schemas and handlers.
      app.addHook('preValidation', refuseDeepNesting);
      await registerAuthn(app);
      // Its own context: its own error handler.
      await app.register(registerFactorRoutes);
      if (registerPasskeyRoutes) await app.register(registerPasskeyRoutes);
      // Its own context: its own hooks (API token, rate limit) and error handler.
      await app.register(registerUsersApi);
      mountProvider(app, provider, mountPath);
    },
    publicKeys: () => structuredClone(jwks),
    users: {
      ensure: users.ensure,
      create: users.create,
      findById: users.findById,
      findByLogin: users.findByLogin,
      setPassword: users.setPassword,
      delete: deleteUser,
      unlock: users.liftLockouts,
      isLocked: throttle.isLockedAnywhere,
      setGroups: users.setGroups,
      inGroups: users.inGroups,
      changeLogin: users.changeLogin,
      setLocale: users.setLocale,
      async changePassword(id, currentPassword, newPassword, network) {
        if (!(await verifyCurrentPassword(id, currentPassword, network))) return false;
        await users.setPassword(id, newPassword);
        return true;
      },
      verifyPassword: async (id, password, network) =>
        (await verifyCurrentPassword(id, password, network)) !== undefined,
    },
    factors: ownFactors,
    ...(webauthn ? { webauthn } : {}),
    issueSessionToken: async (userId) => {
      if (!(await users.findById(userId))) throw new Error('no such user');
      return sessionTokens.issue(userId);
    },
    linkSignIn: (userId) => signInStep(userId, EMAIL_LINK_AMR),
    passwordSignIn: (userId) => signInStep(userId, PASSWORD_AMR),
    endSessions,
    endSession,
    hasSession: (sessionId, accountId) => sessionExists(db, sessionId, accountId),
    // Under `off` a factor is never asked, so a sign-in cannot show one: it does not count.
    hasSecondFactor: async (userId) =>
      (options.mfaPolicy ?? DEFAULT_MFA_POLICY) !== 'off' && (await forSignIn.real(userId)).length > 0,
    securityEvents: (userId, since) =>
      securityLog.find({ userIds: [userId], since, until: new Date(), descending: false, limit: 10_000 }),
    resealSecrets: () => resealColumns(db, secrets, IDP_SEALED_COLUMNS, 'stale'),
    purgeExpired,
    async close() {
      clearInterval(timer);
    },
  };
}
