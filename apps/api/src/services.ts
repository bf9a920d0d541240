import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import {
  createIdentityProvider,
  endEveryIdentityProviderSession,
  idpMigrations,
  retireIdentityProviderKeys,
  passwordChecksWaiting,
  type IdentityProvider,
  type IdentityProviderOptions,
  type IdpDatabase,
} from '@customer-core/idp';
import { DEFAULT_LOCALE } from '@customer-core/contracts';
import { poolUsage, statementsSent, type Migrations, type SecretBox } from '@customer-core/database';
import { accountChangeLimit } from './account/change-limit.js';
import { emailChange } from './account/email-change.js';
import { emailChangeRepository } from './account/email-change-repository.js';
import { knownDeviceRepository } from './account/known-device-repository.js';
import type { accountModule } from './account/module.js';
import { auditForwarders } from './audit/audit-forwarding.js';
import { borrowerDataRepository, erasureRepository } from './data-rights/borrower-data-repository.js';
import { borrowerErasure } from './data-rights/borrower-erasure.js';
import { borrowerExport } from './data-rights/borrower-export.js';
import { auditRepository } from './audit/audit-repository.js';
import { webhookEventRepository, webhookRepository } from './webhooks/webhook-repository.js';
import { WebhookWorker } from './webhooks/webhook-worker.js';
import { webhooks } from './webhooks/webhooks.js';
import { auditTrail } from './audit/audit-trail.js';
import { newSignIns } from './account/new-sign-ins.js';
import { passwordChange } from './account/password-change.js';
import { recoveryCodes } from './account/recovery-codes.js';
import { secondFactors } from './account/second-factors.js';
import { securityActivity } from './activity/security-activity.js';
import { securityEventRepository } from './activity/security-event-repository.js';
import { stepUpGuard } from './account/step-up.js';
import { stepUpByEmailCode } from './account/step-up-code.js';
import { stepUpCodeRepository } from './account/step-up-code-repository.js';
import { unrecognizedSignIn } from './account/unrecognized-sign-in.js';
import { applicationRepository } from './applications/application-repository.js';
import { loanApplications } from './applications/applications.js';
import type { applicationsModule } from './applications/module.js';
import { borrowerRepository } from './borrowers/borrower-repository.js';
import { identityProviderAtPublicUrl, type Config } from './config/config.js';
import { secretBoxOf } from './config/secrets-key-file.js';
import { componentView, type TablesOf } from './db/component-view.js';
import { apiMigrations } from './db/migrations.js';
import type { ApiDatabase } from './db/schema.js';
import { borrowerDocuments, signedPdfWriter } from './documents/borrower-documents.js';
import { documentRepository } from './documents/document-repository.js';
import type { documentsModule } from './documents/module.js';
import { emailLinks } from './email-links/email-links.js';
import { linkRequestRepository } from './email-links/link-request-repository.js';
import { linkTokenRepository } from './email-links/link-token-repository.js';
import type { emailLinksModule } from './email-links/module.js';
import { requestCountRepository } from './email-links/request-count-repository.js';
import { signInClientOf } from './http/sign-in-client.js';
import { bundledDirectory } from './identity/bundled-directory.js';
import { borrowerLocale } from './identity/directory.js';
import { oktaDirectory } from './identity/okta-directory.js';
import { invitationRepository } from './joining/invitation-repository.js';
import { invitations } from './joining/invitations.js';
import type { joiningModule } from './joining/module.js';
import { borrowerLoans } from './loans/borrower-loans.js';
import { borrowerOverview } from './loans/borrower-overview.js';
import { loanBook } from './loans/loan-book.js';
import { loanCheckout } from './loans/loan-checkout.js';
import { loanRepository } from './loans/loan-repository.js';
import type { loansModule } from './loans/module.js';
import { bankAccountRepository } from './payments/bank-account-repository.js';
import { bankAccounts } from './payments/bank-accounts.js';
import { loadBankDirectory } from './payments/bank-directory.js';
import { borrowerNotices } from './payments/borrower-notices.js';
import {
  autopayChangeTeller,
  loanPayments,
  paymentChangeTeller,
  SYSTEM_ACTOR,
} from './payments/loan-payments.js';
import type { paymentsModule } from './payments/module.js';
import { paymentFileRepository } from './payments/payment-file-repository.js';
import { nachaRail } from './payments/payment-rail.js';
import { paymentRepository } from './payments/payment-repository.js';
import { PaymentRuns } from './payments/payment-runs.js';
import { settlement } from './payments/settlement.js';
import { devMailboxRepository } from './mail/dev-mailbox-repository.js';
import { factorCodeMailer } from './mail/factor-code-mailer.js';
import { createMailService, type MailService } from './mail/index.js';
import { outboxRepository } from './mail/outbox-repository.js';
import type { mailModule } from './mail/module.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import type { operatorsModule } from './operators/module.js';
import { accessTokenChecker } from './session/access-tokens.js';
import { exchangedIdTokenRepository } from './session/exchanged-id-token-repository.js';
import { IdTokenVerifier, trustedIdentityProviders } from './session/id-token-verifier.js';
import { lookupTokenRepository } from './session/lookup-token-repository.js';
import type { sessionModule } from './session/module.js';
import { CONSOLE_TOKEN_AUDIENCE, CONSOLE_TOKEN_SCOPE, ProductTokens } from './session/product-token.js';
import { sessionRepository } from './session/session-repository.js';
import { revocationRepository } from './session/revocation-repository.js';
import { revocations as revocationRegistry, type Revocations } from './session/revocations.js';
import { sessions as sessionService } from './session/sessions.js';
import { idTokenSpender, signIn } from './session/sign-in.js';
import type { consoleModule } from './console/module.js';
import { borrowerFile } from './console/borrower-file.js';
import { consoleSessionRepository } from './console/console-session-repository.js';
import { consoleSignIn } from './console/console-sign-in.js';
import type { OperatorAccess } from './console/operator-access.js';
import { staffUsers } from './console/staff-users.js';
import { secretsResealing } from './session/secrets-key-rotation.js';
import { signingKeyRepository } from './session/signing-key-repository.js';
import { ProductKeyRing, signingKeyRetirementSeconds, signingKeyRotation } from './session/signing-keys.js';

type DepsOf<Module extends (deps: never) => unknown> = Parameters<Module>[0];

/** What each module's plugin is handed: only what its routes use; the dev mailbox's where it is served. */
export interface ModuleDependencies {
  session: DepsOf<typeof sessionModule>;
  emailLinks: DepsOf<typeof emailLinksModule>;
  joining: DepsOf<typeof joiningModule>;
  applications: DepsOf<typeof applicationsModule>;
  loans: DepsOf<typeof loansModule>;
  documents: DepsOf<typeof documentsModule>;
  payments: DepsOf<typeof paymentsModule>;
  account: DepsOf<typeof accountModule>;
  console: DepsOf<typeof consoleModule>;
  operators: DepsOf<typeof operatorsModule>;
  mail: DepsOf<typeof mailModule> | null;
}

/** One instance's parts, each built once and connected; app.ts serves them. */
export interface Instance {
  /** Seals the secrets kept in the database (signing keys, TOTP secrets). */
  secrets: SecretBox;
  /** E-mail: the outbox flows write to and this instance's delivery worker (started by startServer). */
  mail: MailService;
  /** The day's payment run at the cut-off (started by startServer where PAYMENT_RUNS is on). */
  paymentRuns: Pick<PaymentRuns, 'start' | 'stop'> | null;
  /** Events to the lender's systems: this instance's delivery worker (started by startServer). */
  webhookDeliveries: Pick<WebhookWorker, 'start' | 'stop' | 'whenIdle'>;
  /** What this instance knows of revoked sessions; told of each change (another instance's notice). */
  revocations: Pick<Revocations, 'afterChange'>;
  /** The bundled identity provider, where it runs in this instance (app.ts serves its plugin). */
  identityProvider: IdentityProvider | null;
  /** This instance's metrics: its own registry, which the parts report to (served on METRICS_PORT). */
  metrics: Metrics;
  /** What every operators' call is checked against (requireOperator): credentials and console sessions. */
  operatorAccess: OperatorAccess;
  modules: ModuleDependencies;
  /** Reloads the signing keys every KEY_RING_RELOAD_SECONDS; the stop function. */
  keepKeysCurrent(onError: (err: unknown) => void): () => void;
  /** Closes the bundled identity provider and stops listening for revocations (see revocations.ts). */
  close(): Promise<void>;
}

/**
 * What the code starting an instance decides, never a setting: the bundled provider's password-hash
 * cost (production's unless given: tests whose subject is not password hashing make it cheap).
 */
export type InstanceOptions = Pick<IdentityProviderOptions, 'passwordHashCost'>;

/** The migrations of each component an instance runs: the API's, and the bundled provider's with it. */
export function componentMigrations(config: Config): Record<string, Migrations> {
  return config.bundledIdp ? { api: apiMigrations, idp: idpMigrations } : { api: apiMigrations };
}

/**
 * After a restore, what the bundled provider keeps of its own: its sessions end, and its signing and
 * cookie keys are deleted (new ones at its next start). How many of each.
 */
export async function resetIdentityProviderAfterRestore(
  config: Config,
  db: Kysely<ApiDatabase>,
): Promise<{ sessions: number; keySets: number }> {
  if (!config.bundledIdp) return { sessions: 0, keySets: 0 };
  const idp = componentView(db.withTables<TablesOf<IdpDatabase>>());
  return {
    sessions: await endEveryIdentityProviderSession(idp),
    keySets: await retireIdentityProviderKeys(idp),
  };
}

/**
 * The composition root: builds every part of one instance once (the secrets' seal, mail, the bundled
 * identity provider, the directory, each module's repositories and services) and connects them. It
 * only wires: what a part decides, from the settings it is handed, is decided in the part.
 */
export async function composeInstance(
  config: Config,
  db: Kysely<ApiDatabase>,
  logger: FastifyBaseLogger,
  { passwordHashCost }: InstanceOptions = {},
): Promise<Instance> {
  const { publicUrl, lender, trustProxy, serviceCredentials } = config;
  const bundled = config.bundledIdp;
  const secrets = secretBoxOf(config);
  const metrics = createMetrics();
  if (config.metrics) metrics.watchProcess();
  if (poolUsage(db)) metrics.watchPool(() => poolUsage(db));
  if (statementsSent(db) !== null) metrics.watchStatements(() => statementsSent(db) ?? 0);
  const mailbox = devMailboxRepository(db);
  const outbox = outboxRepository(db);
  metrics.watchOutbox(outbox.backlog);
  const mail = createMailService(
    config,
    { outbox, mailbox },
    logger.child({ component: 'mail' }),
    metrics.mail,
  );
  const webhookStore = webhookRepository(db, secrets);
  const webhookWorker = new WebhookWorker(webhookStore, {
    ...config.webhooks,
    log: logger.child({ component: 'webhooks' }),
    metrics: metrics.webhooks,
  });
  const lenderWebhooks = webhooks(webhookEventRepository(db), webhookStore, webhookWorker, {
    production: config.production,
  });
  const idp = bundled
    ? await createIdentityProvider({
        // Its tables are in the same database (its migrations ran with the API's): it sees only those.
        db: componentView(db.withTables<TablesOf<IdpDatabase>>()),
        secrets,
        issuer: bundled.issuer,
        idTokenTtlSeconds: config.idpIdTokenTtlSeconds,
        clients: [
          {
            clientId: bundled.clientId,
            redirectUris: [`${publicUrl}/auth/callback`],
            postLogoutRedirectUris: [`${publicUrl}/auth/login`],
          },
        ],
        allowedOrigins: [publicUrl],
        secureCookies: config.production,
        trustProxy,
        signInQueueDepth: config.signInQueueDepth,
        passwordHashCost,
        mfaPolicy: config.mfaPolicy,
        // The provider's e-mailed codes go through the portal's outbox, as the portal's own mail does.
        factorCodeMailer: factorCodeMailer(mail),
        relyingPartyName: lender.name,
        logger: logger.child({ component: 'idp' }),
        metrics: metrics.idp,
      })
    : null;
  if (idp) metrics.watchPasswordQueue(passwordChecksWaiting);
  // Every module works with or without the bundled identity provider: e-mailed links, registration and
  // the "This wasn't me" link go through the Directory, a hosted Okta org's as well as the bundled one.
  const directory =
    idp && bundled
      ? bundledDirectory(idp, bundled.issuer)
      : oktaDirectory({
          issuer: identityProviderAtPublicUrl(config).issuer,
          // loadConfig refuses a hosted org without one.
          apiToken: config.oktaApiToken ?? '',
          logger: logger.child({ component: 'okta' }),
        });

  // Shared by several modules.
  const borrowers = borrowerRepository(db);
  const activity = securityActivity(securityEventRepository(db), directory);
  const audit = auditTrail(
    auditRepository(db),
    logger.child({ component: 'audit' }),
    auditForwarders(config.auditForwarding),
  );
  const loans = loanRepository(db);
  const linkTokens = linkTokenRepository(db);
  const requestCounts = requestCountRepository(db);
  const changeLimit = accountChangeLimit(requestCounts);
  const signInClient = signInClientOf({ trustProxy, publicUrl });

  // Sessions.
  const signingKeys = signingKeyRepository(db, secrets);
  const keys = await ProductKeyRing.open(signingKeys);
  const productTokens = new ProductTokens(keys, {
    issuer: publicUrl,
    ttlSeconds: config.accessTokenTtlSeconds,
    sessionMaxAgeSeconds: config.sessionMaxAgeSeconds,
  });
  const revocations = revocationRegistry(revocationRepository(db), config.database, {
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    log: logger.child({ component: 'revocations' }),
  });
  if (revocations.listening() !== null)
    metrics.watchNotificationListener(() => revocations.listening() === true);
  const checkAccessToken = accessTokenChecker(productTokens, revocations);
  const sessions = sessionService({
    repository: sessionRepository(db, config),
    productTokens,
    checkAccessToken,
    revocations,
    borrowers,
    directory,
    activity,
    newSignIns: newSignIns({
      devices: knownDeviceRepository(db),
      mail,
      tokens: linkTokens,
      directory,
      requestCounts,
      limits: config.emailLinkLimits,
      publicUrl,
      enabled: config.newSignInEmails,
      logger: logger.child({ component: 'account' }),
    }),
    onBegun: metrics.sessionStarted,
  });
  const trusted = trustedIdentityProviders(
    config.identityProviders,
    idp && bundled ? { issuer: bundled.issuer, publicKeys: () => idp.publicKeys() } : null,
  );

  // The borrower's account.
  const factors = secondFactors({
    directory,
    borrowers,
    activity,
    mail,
    policy: config.mfaPolicy,
    limit: changeLimit,
  });
  const stepUp = stepUpGuard({ borrowers, directory });

  // Joining: registration with an invitation, which operators make.
  const invites = invitations({
    repository: invitationRepository(db),
    mail,
    borrowers,
    directory,
    sessions,
    events: lenderWebhooks.events,
    publicUrl,
  });

  // The signer's language (their directory profile's): the certificate's words.
  const signerLocale = {
    localeOf: async (borrowerId: string) => {
      const borrower = await borrowers.findById(borrowerId);
      return borrower ? borrowerLocale(directory, borrower) : DEFAULT_LOCALE;
    },
  };
  const documents = borrowerDocuments(documentRepository(db), lender, signerLocale);

  // The staff console: its tokens (the same keys, their own audience) and short sessions.
  const idTokens = new IdTokenVerifier(trusted);
  const exchangedIdTokens = exchangedIdTokenRepository(db);
  const consoleSessions = consoleSessionRepository(db);
  const consoleTokens = new ProductTokens(keys, {
    issuer: publicUrl,
    ttlSeconds: config.console.sessionSeconds,
    sessionMaxAgeSeconds: config.console.sessionSeconds,
    audience: CONSOLE_TOKEN_AUDIENCE,
    scope: CONSOLE_TOKEN_SCOPE,
  });
  const links = emailLinks({
    repository: linkRequestRepository(db),
    mail,
    tokens: linkTokens,
    requestCounts,
    limits: config.emailLinkLimits,
    publicUrl,
    directory,
    borrowers,
    sessions,
  });
  const borrowerData = borrowerDataRepository(db);

  // Payments: bank accounts, one-time payments and autopay, and the lender's bank files.
  const { payments: paymentSettings } = config;
  const accountsStore = bankAccountRepository(db, secrets);
  const paymentsStore = paymentRepository(db);
  const notices = borrowerNotices({ borrowers, directory, mail, supportPhone: lender.supportPhone });
  const tellPayment = paymentChangeTeller({ audit, events: lenderWebhooks.events, notices });
  const autopayChanged = autopayChangeTeller({ audit, events: lenderWebhooks.events, notices });
  const payments = loanPayments({
    payments: paymentsStore,
    accounts: accountsStore,
    loans: borrowerLoans(loans),
    calendar: paymentSettings.calendar,
    limits: paymentSettings,
    lender: { name: lender.name, supportPhone: lender.supportPhone },
    tell: tellPayment,
    autopayChanged,
  });
  const paymentFiles = settlement({
    files: paymentFileRepository(db, secrets),
    payments: paymentsStore,
    loans: borrowerLoans(loans),
    rail: nachaRail(paymentSettings.originator, paymentSettings.calendar.timeZone),
    calendar: paymentSettings.calendar,
    tell: tellPayment,
    autopayChanged,
    notices,
    log: logger.child({ component: 'payments' }),
  });

  return {
    secrets,
    mail,
    webhookDeliveries: webhookWorker,
    revocations,
    paymentRuns: paymentSettings.runs
      ? new PaymentRuns(
          () => paymentFiles.run(SYSTEM_ACTOR),
          paymentSettings.calendar,
          logger.child({ component: 'payments' }),
        )
      : null,
    operatorAccess: { serviceCredentials, consoleTokens, consoleSessions },
    identityProvider: idp,
    metrics,
    modules: {
      session: {
        signIn: signIn({
          idTokens,
          exchangedIdTokens,
          staffGroups: config.console.groups,
          lookupTokens: lookupTokenRepository(db),
          directory,
          borrowers,
          sessions,
        }),
        sessions,
        checkAccessToken,
        productTokens,
        borrowers,
        directory,
        keys,
        serviceCredentials,
        signInClientOf: signInClient,
      },
      emailLinks: {
        emailLinks: links,
        mail,
        trustProxy,
        signInClientOf: signInClient,
        auditTrail: audit,
      },
      joining: { invitations: invites, lender, signInClientOf: signInClient },
      applications: {
        applications: loanApplications({
          repository: applicationRepository(db),
          mail,
          requestCounts,
          limits: config.emailLinkLimits,
          events: lenderWebhooks.events,
          publicUrl,
        }),
        borrowers,
        checkAccessToken,
        mail,
        lender,
        trustProxy,
      },
      loans: {
        borrowerLoans: borrowerLoans(loans),
        checkout: loanCheckout(
          loans,
          lenderWebhooks.events,
          signedPdfWriter(documentRepository, lender, signerLocale),
        ),
        checkAccessToken,
        stepUp,
      },
      documents: {
        documents,
        checkAccessToken,
      },
      payments: {
        bankAccounts: bankAccounts({
          repository: accountsStore,
          directory: loadBankDirectory(paymentSettings.bankDirectoryFile ?? undefined),
          activity,
          notices,
        }),
        loanPayments: payments,
        checkAccessToken,
        stepUp,
        trustProxy,
        auditTrail: audit,
      },
      account: {
        sessions,
        checkAccessToken,
        activity,
        borrowers,
        directory,
        changePassword: passwordChange({
          directory,
          borrowers,
          sessions,
          activity,
          mail,
          limit: changeLimit,
        }),
        secondFactors: factors,
        recoveryCodes: recoveryCodes({
          directory,
          secondFactors: factors,
          activity,
          mail,
          limit: changeLimit,
        }),
        emailChange: emailChange({
          repository: emailChangeRepository(db),
          directory,
          borrowers,
          tokens: linkTokens,
          invitations: invitationRepository(db),
          sessions,
          activity,
          mail,
          requestCounts,
          limits: config.emailLinkLimits,
          publicUrl,
        }),
        stepUp,
        stepUpByEmailCode: stepUpByEmailCode({
          repository: stepUpCodeRepository(db),
          directory,
          borrowers,
          sessions,
          mail,
          logger: logger.child({ component: 'account' }),
        }),
        signInClientOf: signInClient,
        unrecognizedSignIn: unrecognizedSignIn({ tokens: linkTokens, directory, borrowers, sessions }),
        mail,
        lender,
        trustProxy,
        auditTrail: audit,
      },
      console: {
        consoleSignIn: consoleSignIn({
          idTokens,
          spend: idTokenSpender({ directory, exchangedIdTokens }),
          sessions: consoleSessions,
          tokens: consoleTokens,
          groups: config.console.groups,
          directory,
        }),
        consoleSessions,
        auditTrail: audit,
        trustProxy,
      },
      operators: {
        borrowerFileOf: borrowerFile({
          borrowers,
          borrowerOverview: (search) => borrowerOverview(loans, search),
          borrowerData,
          borrowerLoans: borrowerLoans(loans),
          directory,
        }),
        staffUsers: staffUsers({
          directory,
          groups: config.console.groups,
          consoleSessions,
          emailLinks: links,
        }),
        invitations: invites,
        settlement: paymentFiles,
        loanPayments: payments,
        mail,
        loanBook: loanBook(loans, borrowers, lender),
        borrowerOverview: (search) => borrowerOverview(loans, search),
        sessions,
        borrowers,
        activity,
        rotateSigningKey: signingKeyRotation(signingKeys, keys, signingKeyRetirementSeconds(config)),
        resealSecrets: secretsResealing(signingKeys, secrets, idp),
        auditTrail: audit,
        trustProxy,
        webhooks: lenderWebhooks,
        directory,
        secondFactors: factors,
        borrowerExport: borrowerExport(borrowerData, documents, directory),
        borrowerErasure: borrowerErasure({
          data: borrowerData,
          erasure: erasureRepository(db),
          directory,
          sessions,
          auditRetentionDays: config.auditRetentionDays,
        }),
      },
      // The dev mailbox's pages, where mail goes there: never in production.
      mail: mail.devMailbox && !config.production ? { mailbox, lenderName: lender.name } : null,
    },
    keepKeysCurrent: (onError) => keys.keepCurrent(onError),
    async close() {
      await idp?.close();
      await revocations.close();
    },
  };
}
