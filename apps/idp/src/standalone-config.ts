// What the identity provider as a process of its own reads from its environment: a module of its own,
// so that a refused configuration is said before the provider's code is loaded.
import { z } from 'zod';
import type { DatabaseLocation } from '@customer-core/database';
import { parseSecretKeys, type SecretKey } from '@customer-core/database/secret-box';
import { withSettingFiles } from '@customer-core/contracts/server';
import { MIN_API_TOKEN_LENGTH } from './api-tokens.js';

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
