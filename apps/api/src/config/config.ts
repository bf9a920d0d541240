import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_AUDIT_RETENTION_DAYS,
  DEFAULT_CONSOLE_SESSION_MINUTES,
  isNonProductionOrigin,
  MIN_AUDIT_RETENTION_DAYS,
} from '@customer-core/contracts';
import type { DatabaseLocation } from '@customer-core/database';
import { parseSecretKeys, type SecretKey } from '@customer-core/database/secret-box';
import type { StaffGroups } from '../identity/staff-groups.js';
import {
  DEFAULT_MFA_POLICY,
  MFA_POLICIES,
  withSettingFiles,
  type MfaPolicy,
} from '@customer-core/contracts/server';
import { operatorCredentialPath } from './operator-credential.js';
import { secretsKeyPath } from './secrets-key-file.js';
import { parseServiceCredentials, type ServiceCredential } from './service-credentials.js';

/** Payments: the originator's settings (as its bank agreed them), the bank's calendar, the limits. */
export interface PaymentSettings {
  originator: {
    immediateDestination: string;
    immediateDestinationName: string;
    immediateOrigin: string;
    immediateOriginName: string;
    companyName: string;
    companyId: string;
    odfiRouting: string;
  };
  /** The cut-off (HH:MM) in the bank's time zone. */
  calendar: { timeZone: string; cutoff: string };
  maxPaymentCents: number;
  dailyMaxCents: number;
  bankDirectoryFile: string | null;
  /** Whether this instance runs the day's payments at the cut-off itself. */
  runs: boolean;
}

// The whole server configuration, read once from the environment at start-up.
// Bad values stop the process with a message naming every bad variable.

const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

/** `Name <address>` or a bare address; the name may be quoted. */
const MAIL_FROM = /^\s*(?:"?([^"<>\r\n]*?)"?\s*<([^\s<>@"]+@[^\s<>@"]+)>|([^\s<>@"]+@[^\s<>@"]+))\s*$/;

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('localhost'),
  PUBLIC_URL: httpUrl.optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// URL' }).optional(),
  // Connections each server process keeps to PostgreSQL (LISTEN has one more of its own).
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(1000).default(10),
  // Where LISTEN connects when DATABASE_URL goes through PgBouncer in transaction mode (no LISTEN there).
  DATABASE_LISTEN_URL: z
    .url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// URL' })
    .optional(),
  // Statements prepared by name; by default off when DATABASE_LISTEN_URL says a pooler is in between.
  DATABASE_PREPARED_STATEMENTS: booleanFlag.optional(),
  // Run pending migrations as the server starts; off in production, where `migrate up` is a deploy step.
  MIGRATE_ON_START: booleanFlag.default(true),
  DATA_DIR: z.string().min(1).default('data'),
  TRUST_PROXY: booleanFlag.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  LENDER_NAME: z.string().min(1).default('Main Street Funding'),
  LENDER_WEBSITE_URL: httpUrl.default('https://www.example.com/'),
  SUPPORT_PHONE: z.string().min(1).default('(800) 555-0142'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
  SESSION_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(12 * 3600),
  SESSION_WARNING_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  AUDIT_FORWARD_FILE: z.string().min(1).optional(),
  AUDIT_SYSLOG_URL: z
    .url({ protocol: /^(udp|tcp)$/, message: 'must be udp://host:port or tcp://host:port' })
    .optional(),
  AUDIT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(MIN_AUDIT_RETENTION_DAYS)
    .max(100 * 366)
    .default(DEFAULT_AUDIT_RETENTION_DAYS),
  ERROR_REPORTING_DSN: httpUrl.optional(),
  PRODUCTION_HOST: z.string().min(1).optional(),
  ERROR_REPORTING_ALLOWED_ORIGINS: z.string().optional(),
  // The server's own unexpected errors (5xx), reported in production only: a DSN of a server project.
  SERVER_ERROR_REPORTING_DSN: httpUrl.optional(),
  // Prometheus text on a port of its own, never the public one; unset: no metrics server.
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  IDP_BUNDLED: booleanFlag.default(true),
  // Above okta-auth-js's 30 s of early expiry, or the portal would hold an ID token expired on arrival.
  IDP_ID_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(300),
  IDP_ISSUER: httpUrl.optional(),
  IDP_CLIENT_ID: z.string().min(1).optional(),
  // An API token of the hosted Okta org (Management API: users and sessions); never logged.
  OKTA_API_TOKEN: z.string().trim().min(20).max(200).optional(),
  IDP_NONPROD_ISSUER: httpUrl.optional(),
  IDP_NONPROD_CLIENT_ID: z.string().min(1).optional(),
  SEED_DEMO_BORROWER: booleanFlag.optional(),
  SERVICE_CREDENTIALS: z.string().optional(),
  // The key-encryption keys of the secrets kept in the database: kid:base64 entries, the first seals.
  SECRETS_KEYS: z.string().optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, message: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z
    .string()
    .regex(
      MAIL_FROM,
      'must be an address, e.g. "Lender <no-reply@lender.example>" or no-reply@lender.example',
    )
    .optional(),
  MAIL_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  // The staff console: how long a sign-in lasts, and the identity provider's groups that make its roles.
  CONSOLE_SESSION_MINUTES: z.coerce.number().int().min(5).max(720).default(DEFAULT_CONSOLE_SESSION_MINUTES),
  CONSOLE_SUPPORT_GROUP: z.string().trim().min(1).max(100).default('support'),
  CONSOLE_ADMIN_GROUP: z.string().trim().min(1).max(100).default('admin'),
  // Payments: the originator's settings the lender's bank gives (ACH origination agreement), the cut-off
  // by which a day's file reaches the bank, and the limits on what a borrower may pay.
  ACH_IMMEDIATE_DESTINATION: z
    .string()
    .regex(/^\d{9}$/, 'must be a 9-digit routing number')
    .default('091000019'),
  ACH_IMMEDIATE_DESTINATION_NAME: z.string().trim().min(1).max(23).default('FIRST EXAMPLE BANK'),
  ACH_IMMEDIATE_ORIGIN: z
    .string()
    .regex(/^(\d{10}| \d{9})$/, 'must be the 10 digits the bank assigns (or a space and 9)')
    .default('1123456789'),
  ACH_COMPANY_NAME: z.string().trim().min(1).max(16).optional(),
  ACH_COMPANY_ID: z
    .string()
    .regex(/^\d{10}$/, 'must be the 10 digits the bank agreed (often 1 and the EIN)')
    .default('1123456789'),
  ACH_ODFI_ROUTING: z
    .string()
    .regex(/^\d{9}$/, 'must be a 9-digit routing number')
    .default('091000019'),
  PAYMENTS_CUTOFF: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time, HH:MM')
    .default('14:00'),
  PAYMENTS_TIME_ZONE: z
    .string()
    .refine(
      (zone) => Intl.supportedValuesOf('timeZone').includes(zone) || zone === 'UTC',
      'must be an IANA time zone',
    )
    .default('America/New_York'),
  PAYMENT_MAX_CENTS: z.coerce.number().int().min(100).max(9_999_999_999).default(5_000_000),
  PAYMENT_DAILY_MAX_CENTS: z.coerce.number().int().min(100).max(9_999_999_999).default(10_000_000),
  // Each instance runs the day's payments at the cut-off (off: only `npm run cli -- payments run` does).
  PAYMENT_RUNS: booleanFlag.default(true),
  // The Federal Reserve's FedACH directory file, for the bank's name of a routing number.
  BANK_DIRECTORY_FILE: z.string().min(1).optional(),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(12),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT: z.coerce.number().int().min(1).max(1000).default(3),
  EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(10),
  EMAIL_LINK_LIMIT_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(20),
  // Once the only limit per e-mail address, which let anyone silence an address's owner; a value kept
  // from then would be ambiguous, so it is refused with what to set instead.
  EMAIL_LINK_LIMIT_PER_ADDRESS: z
    .never({
      message:
        'no longer read: set EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT (links one address may ask for from one client) and EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS (the ceiling per address from all clients together)',
    })
    .optional(),
  SIGN_IN_QUEUE_DEPTH: z.coerce.number().int().min(0).max(10_000).default(64),
  // "New sign-in to your account" e-mails; off where the identity provider sends its own.
  NEW_SIGN_IN_EMAILS: booleanFlag.default(true),
  MFA_POLICY: z
    .enum(MFA_POLICIES, { message: `one of ${MFA_POLICIES.join(', ')}` })
    .default(DEFAULT_MFA_POLICY),
  // Server processes on this machine, sharing the port: a number, or 'auto' for one per core.
  SERVER_PROCESSES: z
    .union([z.literal('auto'), z.coerce.number().int().min(1).max(256)], {
      message: "a whole number from 1, or 'auto' (one per core)",
    })
    .default(1),
});

/** Settings that hold a secret: each may be given as <NAME>_FILE, the path of a file holding it. */
export const SECRET_SETTINGS = [
  'DATABASE_URL',
  'DATABASE_LISTEN_URL',
  'OKTA_API_TOKEN',
  'SERVICE_CREDENTIALS',
  'SMTP_URL',
  'ERROR_REPORTING_DSN',
  'SERVER_ERROR_REPORTING_DSN',
  'SECRETS_KEYS',
] as const;

export interface IdentityProviderSettings {
  issuer: string;
  clientId: string;
}

export interface Config {
  production: boolean;
  port: number;
  host: string;
  /** The portal's public origin, e.g. https://portal.lender.example (no trailing slash). */
  publicUrl: string;
  database: DatabaseLocation;
  /**
   * Run pending migrations at start-up; else an instance whose database is behind refuses to start
   * and the operator runs `migrate up` first. Either way a schema this release cannot serve is refused.
   */
  migrateOnStart: boolean;
  trustProxy: boolean;
  logLevel: string;
  logFormat: 'json' | 'pretty';
  lender: { name: string; websiteUrl: string; supportPhone: string };
  accessTokenTtlSeconds: number;
  /** A sign-in's access can be refreshed for this long, then the borrower signs in again. */
  sessionMaxAgeSeconds: number;
  sessionWarningSeconds: number;
  /** The audit trail keeps its records this long, then the maintenance purge removes them. */
  auditRetentionDays: number;
  /** Copies of each audit record for a SIEM. */
  auditForwarding: AuditForwardingSettings;
  errorReporting: { dsn: string | null; productionHost: string | null; allowedOrigins: string[] };
  /** Where the server reports its unexpected errors (5xx); reporting runs in production only. */
  serverErrorReportingDsn: string | null;
  /** The Prometheus metrics listener, apart from the public port; null: none. */
  metrics: { port: number; host: string } | null;
  /** The identity provider shipped with the product, mounted at <publicUrl>/oauth2/default, if enabled. */
  bundledIdp: { issuer: string; clientId: string } | null;
  /** Lifetime of the bundled provider's ID tokens: they are exchanged once, right after sign-in. */
  idpIdTokenTtlSeconds: number;
  identityProviders: { production: IdentityProviderSettings; nonProduction: IdentityProviderSettings };
  /** With a hosted Okta org (no bundled provider): the API token the portal manages its users with. */
  oktaApiToken: string | null;
  seedDemoBorrower: boolean;
  /** Trusted systems and operators (service credentials), each good for one scope. */
  serviceCredentials: ServiceCredential[];
  /**
   * In development without a service credential named `operator`: the file in the data directory that holds
   * the embedded one (made on the server's first start; see operator-credential.ts).
   */
  operatorCredentialFile: string | null;
  /**
   * The keys that seal secrets in the database (SECRETS_KEYS; the first seals, all open). Null
   * outside production without the setting: then `secretsKeyFile` holds a key made on first start.
   */
  secretKeys: SecretKey[] | null;
  secretsKeyFile: string | null;
  mail: MailSettings;
  /** Events to the lender's systems: how their deliveries are attempted. */
  webhooks: WebhookSettings;
  /** The staff console's sign-ins: their length, and the groups (an ID token's groups claim) of each role. */
  console: { sessionSeconds: number; groups: StaffGroups };
  payments: PaymentSettings;
  /** Password-reset and sign-in-link e-mails: how many may be asked for per window, counted in the database. */
  emailLinkLimits: LinkRequestLimits;
  /** Password sign-ins that may wait for a core on one instance; past it they get 503 at once. */
  signInQueueDepth: number;
  /** When the bundled provider asks a second factor at sign-in. */
  mfaPolicy: MfaPolicy;
  /** E-mail a borrower when they sign in from a browser they have not used before. */
  newSignInEmails: boolean;
  /** Server processes sharing the port (node:cluster); more than one only with PostgreSQL. */
  serverProcesses: number;
  webDistDir: string;
}

/** How many e-mailed links may be asked for per window (email-links/request-limits.ts counts them). */
export interface LinkRequestLimits {
  /** Requests per e-mail address from one client address, and window: what one asker gets. */
  perAddressAndClient: number;
  /**
   * Requests per e-mail address and window from all clients together, a higher ceiling against mail
   * flooding. Only requests within their own client's limits count towards it, so a stranger can use
   * up no more of it than `perAddressAndClient` from each network they hold.
   */
  perAddress: number;
  /** Requests per client address and window, whatever the e-mail address. */
  perClient: number;
  windowSeconds: number;
}

export interface MailSettings {
  /** The SMTP relay, e.g. smtps://user:pass@smtp.lender.example:465; null: the dev mailbox (never in production). */
  smtpUrl: string | null;
  /** The sender, e.g. Main Street Funding <no-reply@portal.lender.example>. */
  from: { name: string; address: string };
  /** How often a worker looks for due messages (an enqueue on the same instance nudges it at once). */
  pollIntervalMs: number;
  /** Delivery attempts before a message is dead. */
  maxAttempts: number;
  /** Retry n waits a random time up to min(retryMaxMs, retryBaseMs * 2^(n-1)) (exponential, full jitter). */
  retryBaseMs: number;
  retryMaxMs: number;
  /** A claimed message whose worker stopped is claimed again after this long. */
  leaseMs: number;
}

/** Where copies of each audit record go for a SIEM (AUDIT_FORWARD_FILE, AUDIT_SYSLOG_URL). */
export interface AuditForwardingSettings {
  file: string | null;
  /** udp://host:514 or tcp://host:601 */
  syslog: string | null;
}

export interface WebhookSettings {
  pollIntervalMs: number;
  /** Attempts before a delivery is dead and its endpoint turned off. */
  maxAttempts: number;
  /** Retry n waits a random time up to min(retryMaxMs, retryBaseMs * 2^(n-1)) (exponential, full jitter). */
  retryBaseMs: number;
  retryMaxMs: number;
  leaseMs: number;
  /** How long an endpoint has to answer one attempt. */
  timeoutMs: number;
}

export const BUNDLED_IDP_CLIENT_ID = 'customer-portal';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** The settings the portal's public origin derives from, parsed as the server parses them. */
export const PublicUrlSettingsSchema = EnvSchema.pick({ PORT: true, PUBLIC_URL: true });

/**
 * The portal's public origin: PUBLIC_URL, else http://localhost:<PORT>. The server and the operators'
 * CLI (its default target) both derive it here, so a portal moved to another port is still found.
 */
export function publicUrlOf(e: z.infer<typeof PublicUrlSettingsSchema>): string {
  return (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
}

/**
 * The identity provider the portal's pages sign in with at its public origin (spec section 1: the
 * non-production one where the origin names dev, local or stg); the API's directory is that one's, so
 * both agree.
 */
export function identityProviderAtPublicUrl(
  config: Pick<Config, 'publicUrl' | 'identityProviders'>,
): IdentityProviderSettings {
  return isNonProductionOrigin(new URL(config.publicUrl).origin)
    ? config.identityProviders.nonProduction
    : config.identityProviders.production;
}

export function loadConfig(given: NodeJS.ProcessEnv = process.env): Config {
  const { env, problems: fileProblems } = withSettingFiles(given, SECRET_SETTINGS);
  if (fileProblems.length > 0) throw new ConfigError(fileProblems);
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const publicUrl = publicUrlOf(e);
  const problems: string[] = [];

  const bundledIdp = e.IDP_BUNDLED
    ? { issuer: `${publicUrl}/oauth2/default`, clientId: BUNDLED_IDP_CLIENT_ID }
    : null;
  const hosted =
    e.IDP_ISSUER && e.IDP_CLIENT_ID
      ? { issuer: e.IDP_ISSUER.replace(/\/+$/, ''), clientId: e.IDP_CLIENT_ID }
      : null;
  if (Boolean(e.IDP_ISSUER) !== Boolean(e.IDP_CLIENT_ID)) {
    problems.push('IDP_ISSUER and IDP_CLIENT_ID: set both or neither');
  }
  if (Boolean(e.IDP_NONPROD_ISSUER) !== Boolean(e.IDP_NONPROD_CLIENT_ID)) {
    problems.push('IDP_NONPROD_ISSUER and IDP_NONPROD_CLIENT_ID: set both or neither');
  }
  const productionIdp = hosted ?? bundledIdp;
  const nonProduction =
    e.IDP_NONPROD_ISSUER && e.IDP_NONPROD_CLIENT_ID
      ? { issuer: e.IDP_NONPROD_ISSUER.replace(/\/+$/, ''), clientId: e.IDP_NONPROD_CLIENT_ID }
      : productionIdp;
  if (!productionIdp || !nonProduction) {
    problems.push('IDP_ISSUER: required when IDP_BUNDLED is false (the hosted Okta issuer)');
  }
  // Reset, sign-in links and registration create and change the org's users through its Management API.
  if (!bundledIdp && !e.OKTA_API_TOKEN) {
    problems.push(
      "OKTA_API_TOKEN: required when IDP_BUNDLED is false (an API token of the Okta org's user administrator)",
    );
  }

  if (production) {
    if (!publicUrl.startsWith('https://')) problems.push('PUBLIC_URL: must be an https URL in production');
    if (!e.DATABASE_URL) problems.push('DATABASE_URL: required in production (PostgreSQL)');
    if (e.SEED_DEMO_BORROWER)
      problems.push('SEED_DEMO_BORROWER: the demo borrower is never seeded in production');
    if (!e.SMTP_URL) problems.push('SMTP_URL: required in production (the dev mailbox is for development)');
    // The example bank's numbers stand in outside production only: a real file needs the lender's.
    for (const name of [
      'ACH_IMMEDIATE_DESTINATION',
      'ACH_IMMEDIATE_ORIGIN',
      'ACH_COMPANY_ID',
      'ACH_ODFI_ROUTING',
    ])
      if (env[name] === undefined)
        problems.push(
          `${name}: required in production (from the lender's ACH origination agreement with its bank)`,
        );
    if (!e.SECRETS_KEYS)
      problems.push(
        'SECRETS_KEYS: required in production (the key that encrypts the secrets kept in the database, e.g. key1:$(openssl rand -base64 32))',
      );
  }
  const secretKeys = e.SECRETS_KEYS === undefined ? null : parseSecretKeys(e.SECRETS_KEYS);
  if (secretKeys && 'problem' in secretKeys) problems.push(`SECRETS_KEYS: ${secretKeys.problem}`);
  if (e.EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS < e.EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT) {
    problems.push(
      'EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS: must be at least EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT (it is the higher ceiling per address)',
    );
  }
  if (e.DATABASE_LISTEN_URL && !e.DATABASE_URL)
    problems.push('DATABASE_LISTEN_URL: only with DATABASE_URL (the embedded database needs no LISTEN)');
  const serverProcesses = e.SERVER_PROCESSES === 'auto' ? availableParallelism() : e.SERVER_PROCESSES;
  if (serverProcesses > 1 && !e.DATABASE_URL) {
    problems.push(
      'SERVER_PROCESSES: more than one process needs DATABASE_URL (PostgreSQL); the embedded database serves one process',
    );
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    problems.push('METRICS_PORT: must differ from PORT (metrics are never served on the public port)');
  }
  // Server processes share their ports (node:cluster): a scrape would reach one of them at random.
  if (e.METRICS_PORT !== undefined && serverProcesses > 1) {
    problems.push(
      'METRICS_PORT: not served with more than one server process (SERVER_PROCESSES); run one process per container and scale out',
    );
  }
  if (e.SESSION_WARNING_SECONDS >= e.ACCESS_TOKEN_TTL_SECONDS) {
    problems.push('SESSION_WARNING_SECONDS: must be shorter than ACCESS_TOKEN_TTL_SECONDS');
  }
  const { credentials: serviceCredentials, problems: credentialProblems } = parseServiceCredentials(
    e.SERVICE_CREDENTIALS,
  );
  problems.push(...credentialProblems);
  if (problems.length > 0 || !productionIdp || !nonProduction) throw new ConfigError(problems);

  return {
    production,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    database: e.DATABASE_URL
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          maxConnections: e.DATABASE_POOL_SIZE,
          ...(e.DATABASE_LISTEN_URL ? { listenUrl: e.DATABASE_LISTEN_URL } : {}),
          preparedStatements: e.DATABASE_PREPARED_STATEMENTS ?? !e.DATABASE_LISTEN_URL,
        }
      : { kind: 'pglite', dataDir: path.resolve(e.DATA_DIR, 'pglite') },
    migrateOnStart: e.MIGRATE_ON_START,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    // Readable lines for a developer at a terminal; JSON lines for log collectors everywhere else.
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === 'development' ? 'pretty' : 'json'),
    lender: { name: e.LENDER_NAME, websiteUrl: e.LENDER_WEBSITE_URL, supportPhone: e.SUPPORT_PHONE },
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    sessionMaxAgeSeconds: e.SESSION_MAX_AGE_SECONDS,
    sessionWarningSeconds: e.SESSION_WARNING_SECONDS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    auditForwarding: { file: e.AUDIT_FORWARD_FILE ?? null, syslog: e.AUDIT_SYSLOG_URL ?? null },
    errorReporting: {
      dsn: e.ERROR_REPORTING_DSN ?? null,
      productionHost: e.PRODUCTION_HOST ?? null,
      allowedOrigins: (e.ERROR_REPORTING_ALLOWED_ORIGINS ?? publicUrl)
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    },
    serverErrorReportingDsn: e.SERVER_ERROR_REPORTING_DSN ?? null,
    metrics: e.METRICS_PORT === undefined ? null : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    bundledIdp,
    idpIdTokenTtlSeconds: e.IDP_ID_TOKEN_TTL_SECONDS,
    identityProviders: { production: productionIdp, nonProduction },
    oktaApiToken: bundledIdp ? null : (e.OKTA_API_TOKEN ?? null),
    seedDemoBorrower: e.SEED_DEMO_BORROWER ?? !production,
    serviceCredentials,
    // The embedded default (`npm start`): operators' calls work at once, with a credential kept where
    // the CLI finds it. Tests and production configure their credentials explicitly.
    operatorCredentialFile:
      e.NODE_ENV === 'development' && !serviceCredentials.some((c) => c.name === 'operator')
        ? operatorCredentialPath(e.DATA_DIR)
        : null,
    secretKeys: secretKeys && 'keys' in secretKeys ? secretKeys.keys : null,
    // Outside production, `npm start` keeps working with no setup: a key made on first start, kept
    // owner-only beside the data.
    secretsKeyFile: secretKeys ? null : secretsKeyPath(e.DATA_DIR),
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: mailFrom(e.MAIL_FROM, e.LENDER_NAME, new URL(publicUrl).hostname),
      pollIntervalMs: e.MAIL_POLL_INTERVAL_MS,
      maxAttempts: e.MAIL_MAX_ATTEMPTS,
      retryBaseMs: 15_000,
      retryMaxMs: 15 * 60_000,
      leaseMs: 2 * 60_000,
    },
    // With the defaults, 12 attempts over up to about 12 hours (6 on average: full jitter) before an
    // endpoint is turned off: an outage of the lender's system that long is noticed.
    payments: {
      originator: {
        immediateDestination: e.ACH_IMMEDIATE_DESTINATION,
        immediateDestinationName: e.ACH_IMMEDIATE_DESTINATION_NAME,
        immediateOrigin: e.ACH_IMMEDIATE_ORIGIN,
        immediateOriginName: e.LENDER_NAME.slice(0, 23),
        companyName: e.ACH_COMPANY_NAME ?? e.LENDER_NAME.slice(0, 16),
        companyId: e.ACH_COMPANY_ID,
        odfiRouting: e.ACH_ODFI_ROUTING,
      },
      calendar: { cutoff: e.PAYMENTS_CUTOFF, timeZone: e.PAYMENTS_TIME_ZONE },
      maxPaymentCents: e.PAYMENT_MAX_CENTS,
      dailyMaxCents: e.PAYMENT_DAILY_MAX_CENTS,
      bankDirectoryFile: e.BANK_DIRECTORY_FILE ?? null,
      runs: e.PAYMENT_RUNS,
    },
    console: {
      sessionSeconds: e.CONSOLE_SESSION_MINUTES * 60,
      groups: { support: e.CONSOLE_SUPPORT_GROUP, admin: e.CONSOLE_ADMIN_GROUP },
    },
    webhooks: {
      pollIntervalMs: e.MAIL_POLL_INTERVAL_MS,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: 4 * 3600_000,
      leaseMs: Math.max(2 * 60_000, 2 * e.WEBHOOK_TIMEOUT_MS),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
    },
    emailLinkLimits: {
      perAddressAndClient: e.EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT,
      perAddress: e.EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS,
      perClient: e.EMAIL_LINK_LIMIT_PER_CLIENT,
      windowSeconds: 15 * 60,
    },
    signInQueueDepth: e.SIGN_IN_QUEUE_DEPTH,
    mfaPolicy: e.MFA_POLICY,
    newSignInEmails: e.NEW_SIGN_IN_EMAILS,
    serverProcesses,
    webDistDir: path.resolve(import.meta.dirname, '../../../web/dist'),
  };
}

/** MAIL_FROM as name and address; by default the lender's name, and no-reply@ the public host. */
function mailFrom(value: string | undefined, lenderName: string, publicHost: string) {
  const match = value ? MAIL_FROM.exec(value) : null;
  if (!match) return { name: lenderName, address: `no-reply@${publicHost}` };
  const [, name, address, bare] = match;
  return { name: name?.trim() || lenderName, address: (address ?? bare)! };
}
