import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  describeLocation,
  migrateToLatest,
  openDatabase,
  prepareDatabase,
  type DatabaseLocation,
} from '@customer-core/database';
import { createSecretBox, parseSecretKeys, type SecretKey } from '@customer-core/database/secret-box';
import { withSettingFiles } from '@customer-core/contracts/server';
import { MIN_API_TOKEN_LENGTH } from './api-tokens.js';
import { createIdentityProvider, type IdentityProviderOptions } from './identity-provider.js';
import { idpMigrations } from './migrations.js';
import { readinessRepository } from './readiness-repository.js';
import type { IdpDatabase } from './schema.js';

const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8090),
  HOST: z.string().min(1).default('localhost'),
  IDP_ISSUER: httpUrl.optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// URL' }).optional(),
  DATA_DIR: z.string().min(1).default('data/idp'),
  PORTAL_URL: httpUrl.refine((url) => new URL(url).pathname === '/', 'must be an origin, without a path'),
  IDP_CLIENT_ID: z
    .string()
    .regex(/^[\w.-]{1,100}$/, 'letters, digits, _ . - only')
    .default('customer-portal'),
  OKTA_API_TOKENS: z
    .string()
    .transform((list) => list.split(',').map((token) => token.trim()))
    .pipe(
      z
        .array(
          z
            .string()
            .min(MIN_API_TOKEN_LENGTH, `each token needs at least ${MIN_API_TOKEN_LENGTH} characters`)
            .regex(/^\S+$/, 'a token has no spaces'),
        )
        .min(1),
    ),
  // The keys that seal the secrets it keeps (kid:base64 entries, the first seals), as the portal's.
  SECRETS_KEYS: z.string().transform((value, context) => {
    const parsed = parseSecretKeys(value);
    if ('problem' in parsed) {
      context.addIssue({ code: 'custom', message: parsed.problem });
      return z.NEVER;
    }
    return parsed.keys;
  }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** Settings that hold a secret: each may be given as <NAME>_FILE, the path of a file holding it. */
const SECRET_SETTINGS = ['DATABASE_URL', 'OKTA_API_TOKENS', 'SECRETS_KEYS'];

export interface StandaloneConfig {
  port: number;
  host: string;
  issuer: string;
  database: DatabaseLocation;
  /** The portal's origin, e.g. http://localhost:8080 */
  portalUrl: string;
  clientId: string;
  apiTokens: string[];
  secretKeys: SecretKey[];
  logLevel: string;
}

/** The configuration from the environment, or a message naming every missing or bad variable. */
export function readStandaloneConfig(
  given: NodeJS.ProcessEnv,
): { config: StandaloneConfig } | { problems: string } {
  const { env, problems: fileProblems } = withSettingFiles(given, SECRET_SETTINGS);
  if (fileProblems.length > 0) return { problems: fileProblems.map((p) => `  ${p}`).join('\n') };
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `  ${name}: ${env[name] === undefined ? 'is required' : issue.message}`;
    });
    return { problems: problems.join('\n') };
  }
  const e = parsed.data;
  return {
    config: {
      port: e.PORT,
      host: e.HOST,
      issuer: (e.IDP_ISSUER ?? `http://localhost:${e.PORT}/oauth2/default`).replace(/\/+$/, ''),
      database: e.DATABASE_URL
        ? { kind: 'postgres', url: e.DATABASE_URL }
        : { kind: 'pglite', dataDir: e.DATA_DIR },
      portalUrl: new URL(e.PORTAL_URL).origin,
      clientId: e.IDP_CLIENT_ID,
      apiTokens: e.OKTA_API_TOKENS,
      secretKeys: e.SECRETS_KEYS,
      logLevel: e.LOG_LEVEL,
    },
  };
}

export interface Standalone {
  app: FastifyInstance;
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
  try {
    await migrateToLatest(db, 'idp', idpMigrations);
    const idp = await createIdentityProvider({
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
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}
