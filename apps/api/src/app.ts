import { readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { Kysely } from 'kysely';
import type { PortalConfig } from '@customer-core/contracts';
import type { Migrations, SecretBox } from '@customer-core/database';
import {
  createIdentityProvider,
  idpMigrations,
  type IdentityProvider,
  type IdpDatabase,
} from '@customer-core/idp';
import { identityProviderAtPublicUrl, type Config } from './config/config.js';
import { secretBoxOf } from './config/secrets-key-file.js';
import { componentView, type TablesOf } from './db/component-view.js';
import { apiMigrations } from './db/migrations.js';
import type { ApiDatabase } from './db/schema.js';
import { installErrorHandlers } from './http/error-handler.js';
import { refuseMalformedInput } from './http/malformed-input.js';
import { loggingOptions, logRequestLines } from './http/logging.js';
import { createMailService, type MailService } from './mail/index.js';
import { factorCodeMailer } from './mail/factor-code-mailer.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { accountModule } from './account/module.js';
import { applicationsModule } from './applications/module.js';
import { documentsModule } from './documents/module.js';
import { emailLinksModule } from './email-links/module.js';
import { healthRoutes } from './http/health.js';
import { joiningModule } from './joining/module.js';
import { loansModule } from './loans/module.js';
import { mailModule } from './mail/module.js';
import { operatorsModule } from './operators/module.js';
import { sessionModule } from './session/module.js';
import { createModules } from './services.js';
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
  /** Seals the secrets kept in the database (signing keys, TOTP secrets). */
  secrets: SecretBox;
}

/** The migrations of each component an instance runs: the API's, and the bundled provider's with it. */
export function componentMigrations(config: Config): Record<string, Migrations> {
  return config.bundledIdp ? { api: apiMigrations, idp: idpMigrations } : { api: apiMigrations };
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
  refuseMalformedInput(app);
  app.decorateRequest('trustedService', ''); // set by requireTrustedService
  // Only the device cookie is read (http/device-cookie.ts), by the routes that start a session: no
  // request pays for parsing cookies it does not need.
  await app.register(cookie, { hook: false });

  registerSecurityHeaders(app, {
    production: config.production,
    publicUrl: config.publicUrl,
    identityProviders: config.identityProviders,
    errorReportingDsn: config.errorReporting.dsn,
  });

  const mail = createMailService(config, db, app.log.child({ component: 'mail' }));
  const secrets = secretBoxOf(config);
  const identityProvider = config.bundledIdp
    ? await createIdentityProvider({
        // Its tables are in the same database (its migrations ran with the API's): it sees only those.
        db: componentView(db.withTables<TablesOf<IdpDatabase>>()),
        secrets,
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
          issuer: identityProviderAtPublicUrl(config).issuer,
          // loadConfig refuses a hosted org without one.
          apiToken: config.oktaApiToken ?? '',
          logger: app.log.child({ component: 'okta' }),
        });
  const modules = await createModules(
    config,
    db,
    secrets,
    identityProvider,
    directory,
    mail,
    app.log.child({ component: 'account' }),
  );
  app.addHook('onClose', () => modules.close());
  const stopKeyReload = modules.keepKeysCurrent((err) =>
    app.log.warn({ err }, 'reloading signing keys failed'),
  );
  app.addHook('onClose', async () => stopKeyReload());
  // Every module, with or without the bundled identity provider: e-mailed links, registration and
  // the "This wasn't me" link work through the Directory, a hosted Okta org's as well as the bundled one.
  const { dependencies } = modules;
  await app.register(sessionModule(dependencies.session));
  await app.register(emailLinksModule(dependencies.emailLinks));
  await app.register(joiningModule(dependencies.joining));
  await app.register(applicationsModule(dependencies.applications));
  await app.register(loansModule(dependencies.loans));
  await app.register(documentsModule(dependencies.documents));
  await app.register(accountModule(dependencies.account));
  await app.register(operatorsModule(dependencies.operators));
  await app.register(healthRoutes(db, migrations));
  if (mail.devMailbox && !config.production) {
    await app.register(mailModule({ db, lenderName: config.lender.name }));
  }
  await registerPortal(app, { distDir: config.webDistDir, portalConfig: portalConfigOf(config) });
  return { app, identityProvider, mail, routes, secrets };
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
