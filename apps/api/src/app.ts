import { readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { Kysely } from 'kysely';
import { isNonProductionOrigin, type PortalConfig } from '@customer-core/contracts';
import type { Migrations } from '@customer-core/database';
import { createIdentityProvider, type IdentityProvider, type IdpDatabase } from '@customer-core/idp';
import type { Config } from './config/config.js';
import type { ApiDatabase } from './db/schema.js';
import { installErrorHandlers } from './http/error-handler.js';
import { refuseControlCharacters } from './http/control-characters.js';
import { loggingOptions, logRequestLines } from './http/logging.js';
import { createMailService, type MailService } from './mail/index.js';
import { factorCodeMailer } from './mail/factor-code-mailer.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { logoutRoute } from './session/routes/logout.js';
import { lookupTokenRoutes } from './session/routes/lookup-token.js';
import { magicLinkLoginRoute } from './email-links/routes/magic-link-login.js';
import { passwordResetFinishRoute } from './email-links/routes/password-reset-finish.js';
import { profileRoute } from './session/routes/profile.js';
import { publicKeysRoute } from './session/routes/public-keys.js';
import { sendLinkRoutes } from './email-links/routes/send-link.js';
import { unrecognizedSignInRoute } from './account/routes/unrecognized-sign-in.js';
import { tokenExchangeRoute } from './session/routes/token-exchange.js';
import { tokenRefreshRoute } from './session/routes/token-refresh.js';
import { validateRoute } from './session/routes/validate.js';
import { accountEmailRoutes } from './account/routes/email.js';
import { accountPasswordRoute } from './account/routes/password.js';
import { accountSecondFactorRoutes } from './account/routes/second-factors.js';
import { accountRecoveryCodeRoutes } from './account/routes/recovery-codes.js';
import { accountActivityRoute } from './account/routes/activity.js';
import { accountSessionRoutes } from './account/routes/sessions.js';
import { operatorActivityRoute } from './operators/routes/activity.js';
import { operatorSessionRoutes } from './operators/routes/sessions.js';
import { applicationRoutes } from './applications/routes.js';
import { borrowerDocumentRoutes } from './documents/routes.js';
import { borrowerLoanRoutes } from './loans/routes/borrower-loans.js';
import { devMailboxRoutes } from './mail/dev-mailbox-routes.js';
import { operatorBorrowerRoutes } from './operators/routes/borrowers.js';
import { operatorSigningKeyRoutes } from './operators/routes/signing-keys.js';
import { operatorInvitationRoutes } from './joining/routes/invitations.js';
import { operatorLoanRoutes } from './loans/routes/operator-loans.js';
import { registrationRoutes } from './joining/routes/registration.js';
import { healthRoutes } from './http/health.js';
import { createAuthServices } from './services.js';
import { bundledDirectory } from './identity/bundled-directory.js';
import { oktaDirectory } from './identity/okta-directory.js';
import { registerPortal } from './web/portal.js';

/** What is not configuration: wiring a test may change. */
export interface ServerOptions {
  logStream?: Writable;
}

const APP_VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export interface Portal {
  app: FastifyInstance;
  identityProvider: IdentityProvider | null;
  /** E-mail: the outbox flows write to and this instance's delivery worker (started by startServer). */
  mail: MailService;
  /** Every route this instance serves, as registered (tests walk them all). */
  routes: readonly RouteOptions[];
}

/** Composes one instance: API, bundled identity provider and the built portal on one origin. */
export async function buildApp(
  config: Config,
  db: Kysely<ApiDatabase>,
  migrations: Record<string, Migrations>,
  options: ServerOptions = {},
): Promise<Portal> {
  const app = Fastify({
    ...loggingOptions(config.logLevel, config.logFormat, options.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
  });
  if (config.logFormat === 'pretty') logRequestLines(app);
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => void routes.push(route));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: any other body is refused with 415 rather than half-parsed.
  app.removeContentTypeParser('text/plain');
  installErrorHandlers(app);
  refuseControlCharacters(app);
  app.decorateRequest('trustedService', ''); // set by requireTrustedService
  // Only the device cookie is read (http/device-cookie.ts), by the routes that start a session: no
  // request pays for parsing cookies it does not need.
  await app.register(cookie, { hook: false });

  const idpOrigins = [config.identityProviders.production, config.identityProviders.nonProduction]
    .map((p) => new URL(p.issuer).origin)
    .filter((origin) => origin !== new URL(config.publicUrl).origin);
  registerSecurityHeaders(app, {
    production: config.production,
    identityProviderOrigins: [...new Set(idpOrigins)],
    errorReportingDsn: config.errorReporting.dsn,
  });

  const mail = createMailService(config, db, app.log.child({ component: 'mail' }));
  const identityProvider = config.bundledIdp
    ? await createIdentityProvider({
        // The provider sees only its own tables of the shared database.
        db: db as unknown as Kysely<IdpDatabase>,
        issuer: config.bundledIdp.issuer,
        idTokenTtlSeconds: config.idpIdTokenTtlSeconds,
        clients: [
          {
            clientId: config.bundledIdp.clientId,
            redirectUris: [`${config.publicUrl}/auth/callback`],
            postLogoutRedirectUris: [`${config.publicUrl}/auth/login`],
          },
        ],
        allowedOrigins: [config.publicUrl],
        secureCookies: config.production,
        trustProxy: config.trustProxy,
        signInQueueDepth: config.signInQueueDepth,
        mfaPolicy: config.mfaPolicy,
        // The provider's e-mailed codes go through the portal's outbox, as the portal's own mail does.
        factorCodeMailer: factorCodeMailer(db, mail),
        relyingPartyName: config.lender.name,
        logger: app.log.child({ component: 'idp' }),
      })
    : null;
  if (identityProvider) {
    await app.register(identityProvider.plugin);
    app.addHook('onClose', () => identityProvider.close());
  }

  // The API description comes from the very schemas the routes validate with.
  await app.register(swagger, {
    openapi: {
      info: { title: 'customer-core API', version: APP_VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/docs', { schema: { hide: true } }, () => app.swagger());

  const directory =
    identityProvider && config.bundledIdp
      ? bundledDirectory(identityProvider, config.bundledIdp.issuer)
      : oktaDirectory({
          // The org the portal's pages sign in with at this origin (spec section 1), so both agree.
          issuer: (isNonProductionOrigin(new URL(config.publicUrl).origin)
            ? config.identityProviders.nonProduction
            : config.identityProviders.production
          ).issuer,
          // loadConfig refuses a hosted org without one.
          apiToken: config.oktaApiToken ?? '',
          logger: app.log.child({ component: 'okta' }),
        });
  const services = await createAuthServices(
    config,
    db,
    identityProvider,
    directory,
    mail,
    app.log.child({ component: 'account' }),
  );
  app.addHook('onClose', () => services.sessions.close());
  const stopKeyReload = services.keys.keepCurrent((err) =>
    app.log.warn({ err }, 'reloading signing keys failed'),
  );
  app.addHook('onClose', async () => stopKeyReload());
  for (const route of [
    tokenExchangeRoute,
    tokenRefreshRoute,
    validateRoute,
    logoutRoute,
    profileRoute,
    publicKeysRoute,
    lookupTokenRoutes,
    // E-mailed links sign in and reset passwords of the bundled identity provider's users: these
    // routes exist only where it runs.
    sendLinkRoutes,
    passwordResetFinishRoute,
    magicLinkLoginRoute,
    unrecognizedSignInRoute,
    borrowerLoanRoutes,
    borrowerDocumentRoutes,
    applicationRoutes,
    // Registration creates the identity in the bundled identity provider: only where it runs.
    registrationRoutes,
    operatorInvitationRoutes,
    operatorLoanRoutes,
    operatorBorrowerRoutes,
    operatorSigningKeyRoutes,
    accountSessionRoutes,
    accountPasswordRoute,
    accountSecondFactorRoutes,
    accountRecoveryCodeRoutes,
    accountEmailRoutes,
    operatorSessionRoutes,
    accountActivityRoute,
    operatorActivityRoute,
  ]) {
    await app.register(route(services));
  }
  await app.register(healthRoutes(db, migrations));
  if (mail.devMailbox && !config.production) {
    await app.register(devMailboxRoutes(db, { lenderName: config.lender.name }));
  }
  await registerPortal(app, { distDir: config.webDistDir, portalConfig: portalConfigOf(config) });
  return { app, identityProvider, mail, routes };
}

export function portalConfigOf(config: Config): PortalConfig {
  return {
    lender: config.lender,
    identityProviders: config.identityProviders,
    passkeySignInIssuer: config.bundledIdp?.issuer ?? null,
    session: { warningSeconds: config.sessionWarningSeconds },
    errorReporting: config.errorReporting,
  };
}
