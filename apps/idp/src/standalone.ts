import Fastify, { type FastifyInstance } from 'fastify';
import { describeLocation, migrateToLatest, openDatabase, prepareDatabase } from '@customer-core/database';
import { createSecretBox } from '@customer-core/database/secret-box';
import {
  createIdentityProvider,
  type IdentityProvider,
  type IdentityProviderOptions,
} from './identity-provider.js';
import { idpMigrations } from './migrations.js';
import { readinessRepository } from './readiness-repository.js';
import type { IdpDatabase } from './schema.js';

import type { StandaloneConfig } from './standalone-config.js';

export { readStandaloneConfig, type StandaloneConfig } from './standalone-config.js';

export interface Standalone {
  app: FastifyInstance;
  /** Its users, as an org's admin console reaches them (a test puts staff in groups this way). */
  users: IdentityProvider['users'];
  close(): Promise<void>;
}

/** What the code starting it decides, never a setting (its main gives none: production's). */
export type StandaloneOptions = Pick<IdentityProviderOptions, 'passwordHashCost'>;

/**
 * The identity provider on its own, as the Okta org of a portal on another origin: its own port and
 * database, the portal as its one client, and the Users API open to the configured tokens.
 */
export async function startStandalone(
  config: StandaloneConfig,
  options: StandaloneOptions = {},
): Promise<Standalone> {
  // Logins are e-mail addresses of up to 100 characters; encoded in a path they run longer than 100.
  const app = Fastify({ logger: { level: config.logLevel }, routerOptions: { maxParamLength: 512 } });
  app.removeContentTypeParser('text/plain'); // JSON only, as Okta's API
  await prepareDatabase(config.database);
  const db = openDatabase<IdpDatabase>(config.database, (err) =>
    app.log.warn({ err: { message: err.message } }, 'PostgreSQL dropped a connection'),
  );
  let idp: IdentityProvider;
  try {
    await migrateToLatest(db, 'idp', idpMigrations);
    idp = await createIdentityProvider({
      db,
      secrets: createSecretBox(config.secretKeys),
      issuer: config.issuer,
      clients: [
        {
          clientId: config.clientId,
          redirectUris: [`${config.portalUrl}/auth/callback`],
          postLogoutRedirectUris: [`${config.portalUrl}/auth/login`],
        },
      ],
      allowedOrigins: [config.portalUrl],
      secureCookies: config.issuer.startsWith('https:'),
      trustProxy: false,
      apiTokens: config.apiTokens,
      logger: app.log.child({ component: 'idp' }),
      ...options,
    });
    app.addHook('onClose', () => idp.close());
    await app.register(idp.plugin);
    // Up means able to answer: the database is reachable.
    const readiness = readinessRepository(db);
    app.get('/healthz', async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      try {
        await readiness.ping();
        return reply.send({ status: 'ok' });
      } catch {
        return reply.code(503).send({ status: 'database unavailable' });
      }
    });
    const address = await app.listen({ port: config.port, host: config.host });
    app.log.info(
      { issuer: config.issuer, address, database: describeLocation(config.database) },
      'identity provider listening',
    );
  } catch (error) {
    await app.close();
    await db.destroy();
    throw error;
  }
  return {
    app,
    users: idp.users,
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}
