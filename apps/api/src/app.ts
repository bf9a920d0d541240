import { readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { Kysely } from 'kysely';
import type { Migrations } from '@customer-core/database';
import type { Config } from './config/config.js';
import type { ApiDatabase } from './db/schema.js';
import { installErrorHandlers } from './http/error-handler.js';
import { refuseMalformedInput } from './http/malformed-input.js';
import { loggingOptions, logRequestLines } from './http/logging.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { startServerErrorReporting } from './http/server-error-reporting.js';
import { countRequests } from './metrics/http-metrics.js';
import { accountModule } from './account/module.js';
import { applicationsModule } from './applications/module.js';
import { documentsModule } from './documents/module.js';
import { emailLinksModule } from './email-links/module.js';
import { healthRoutes } from './http/health.js';
import { readinessRepository } from './db/readiness-repository.js';
import { joiningModule } from './joining/module.js';
import { loansModule } from './loans/module.js';
import { paymentsModule } from './payments/module.js';
import { mailModule } from './mail/module.js';
import { operatorsModule } from './operators/module.js';
import { consoleModule } from './console/module.js';
import { requireOperator } from './console/operator-access.js';
import { sessionModule } from './session/module.js';
import { composeInstance, type Instance, type InstanceOptions } from './services.js';
import { portalConfigOf, registerPortal } from './web/portal.js';
import { traceRequestsWhenOn } from './tracing/traces-on.js';

/** What is not configuration: wiring a test may change. */
export interface ServerOptions extends InstanceOptions {
  logStream?: Writable;
}

const APP_VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export interface Portal extends Pick<
  Instance,
  'identityProvider' | 'mail' | 'metrics' | 'secrets' | 'webhookDeliveries' | 'paymentRuns' | 'revocations'
> {
  app: FastifyInstance;
  /** Every route this instance serves, as registered (tests walk them all). */
  routes: readonly RouteOptions[];
}

/**
 * One instance's HTTP server: the API, the bundled identity provider and the built portal on one
 * origin. The parts are composeInstance's (services.ts); this registers their plugins, in order.
 */
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
  // First, so that a traced request's context is active through every later hook.
  traceRequestsWhenOn(app);
  if (config.logFormat === 'pretty') logRequestLines(app);
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => void routes.push(route));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: any other body is refused with 415 rather than half-parsed.
  app.removeContentTypeParser('text/plain');
  const errorReporter = await startServerErrorReporting({
    dsn: config.serverErrorReportingDsn,
    production: config.production,
    release: `customer-core@${APP_VERSION}`,
  });
  if (errorReporter) app.addHook('onClose', () => errorReporter.close());
  installErrorHandlers(app, (error, request) => errorReporter?.report(error, request));
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

  const instance = await composeInstance(config, db, app.log, options);
  app.addHook('onClose', () => instance.close());
  countRequests(app, instance.metrics);
  const { identityProvider, modules } = instance;
  // Every operators' call (an endpoint of access 'operator', whatever module serves it) is checked here,
  // before its body is read: the operator credential, or a staff member's console token and role.
  const operatorCall = requireOperator(instance.operatorAccess);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.staff) await operatorCall.call(app, request, reply);
  });
  if (identityProvider) await app.register(identityProvider.plugin);

  // The API description comes from the very schemas the routes validate with.
  await app.register(swagger, {
    openapi: {
      info: { title: 'customer-core API', version: APP_VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/docs', { schema: { hide: true } }, () => app.swagger());

  const stopKeyReload = instance.keepKeysCurrent((err) =>
    app.log.warn({ err }, 'reloading signing keys failed'),
  );
  app.addHook('onClose', async () => stopKeyReload());
  await app.register(sessionModule(modules.session));
  await app.register(emailLinksModule(modules.emailLinks));
  await app.register(joiningModule(modules.joining));
  await app.register(applicationsModule(modules.applications));
  await app.register(loansModule(modules.loans));
  await app.register(documentsModule(modules.documents));
  await app.register(paymentsModule(modules.payments));
  await app.register(accountModule(modules.account));
  await app.register(consoleModule(modules.console));
  await app.register(operatorsModule(modules.operators));
  await app.register(healthRoutes(readinessRepository(db, migrations), instance.metrics.readiness));
  if (modules.mail) await app.register(mailModule(modules.mail));
  await registerPortal(app, { distDir: config.webDistDir, portalConfig: portalConfigOf(config) });
  return {
    app,
    identityProvider,
    mail: instance.mail,
    webhookDeliveries: instance.webhookDeliveries,
    revocations: instance.revocations,
    paymentRuns: instance.paymentRuns,
    metrics: instance.metrics,
    routes,
    secrets: instance.secrets,
  };
}
