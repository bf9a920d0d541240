import { randomBytes } from 'node:crypto';
import {
  createTestDatabase,
  type TestDatabase,
  type TestDatabaseKind,
} from '@customer-core/database/testing';
import { idpMigrations } from '@customer-core/idp';
import { TEST_PASSWORD_HASH_COST } from '@customer-core/idp/testing';
import { loadConfig, type Config } from '../src/config/config.js';
import { apiMigrations } from '../src/db/migrations.js';
import type { ServerOptions } from '../src/app.js';
import { startServer, type RunningServer } from '../src/server.js';
import { endClientConnections } from './client-connections.js';
import { freePort } from './free-port.js';
import { keepSigningKey, provideSigningKey } from './idp-signing-key.js';

/**
 * The key ring that seals the database's secrets in tests, one per test process: servers sharing a
 * database (a second instance, a restart) open each other's secrets, as one deployment's do.
 */
/** The originator's settings production requires (payments): an example bank's, no real one's. */
export const TEST_ACH_SETTINGS = {
  ACH_IMMEDIATE_DESTINATION: '091000019',
  ACH_IMMEDIATE_ORIGIN: '1123456789',
  ACH_COMPANY_ID: '1123456789',
  ACH_ODFI_ROUTING: '091000019',
};
export const TEST_SECRETS_KEYS = `test:${randomBytes(32).toString('base64')}`;

/** The secret of the trusted system through which tests mint sessions (`mintSession`). */
export const SESSION_MINTER_SECRET = 'test-session-minter-0123456789abcdefghij';
const SESSION_MINTER_CREDENTIAL = `test-sessions:lookup-tokens:${SESSION_MINTER_SECRET}`;

/** ServerOptions, with the bundled provider's password-hash cost TEST_PASSWORD_HASH_COST unless given. */
export interface TestServerOptions extends ServerOptions {
  /** A database shared with other instances; it outlives this server (the caller drops it). */
  database?: TestDatabase;
  /** The built portal it serves, a folder laid out as apps/web/dist (by default that folder). */
  portalDir?: string;
  /**
   * Production's behaviour without production's requirements (PostgreSQL, https, SMTP): for what
   * production alone does, e.g. report errors, tested on PGlite.
   */
  asProduction?: boolean;
  /** The port to listen on (by default a free one): a browser's cache keeps to one origin. */
  port?: number;
}

export interface TestServer {
  /** The public origin, e.g. http://localhost:41234 */
  baseUrl: string;
  config: Config;
  server: RunningServer;
  close(): Promise<void>;
}

/** The servers running in this process, in the order they started. */
const running: TestServer[] = [];

/** Every test server of this process now running (a wait may hear from any that shares a database). */
export function runningTestServers(): readonly TestServer[] {
  return running;
}

/**
 * The running test server at `baseUrl` (its public origin), for helpers given only the address; of
 * instances behind one origin, the first started.
 */
export function runningTestServer(baseUrl: string): TestServer {
  const server = running.find((candidate) => candidate.baseUrl === baseUrl);
  if (!server) throw new Error(`No test server of this process runs at ${baseUrl}.`);
  return server;
}

/**
 * A real server on a free port with a fresh database of the given kind, configured from the same
 * environment variables as production (`env` overrides them). Used by API and browser tests. It
 * trusts the system through which tests mint sessions (`mintSession`), besides any credential given.
 * Its bundled provider hashes passwords at the tests' cheap cost, unless `passwordHashCost` says.
 */
export async function startTestServer(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  { database: shared, portalDir, asProduction, port: chosenPort, ...options }: TestServerOptions = {},
): Promise<TestServer> {
  const port = chosenPort ?? (await freePort());
  const database = shared ?? (await createTestDatabase(kind, { api: apiMigrations, idp: idpMigrations }));
  const dropOwnDatabase = () => (shared ? Promise.resolve() : database.drop());
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      // Test clients keep no cookies, so to the server each of their sign-ins comes from a new browser
      // and would be e-mailed; the tests of those e-mails turn them on.
      NEW_SIGN_IN_EMAILS: 'false',
      // A test's payments go to the bank when it runs them (the run at the cut-off: payment-runs tests).
      PAYMENT_RUNS: 'false',
      SECRETS_KEYS: TEST_SECRETS_KEYS,
      ...env,
      ...(env.SERVICE_CREDENTIALS_FILE
        ? {}
        : {
            SERVICE_CREDENTIALS: [env.SERVICE_CREDENTIALS, SESSION_MINTER_CREDENTIAL]
              .filter(Boolean)
              .join(','),
          }),
    }),
    database: database.location,
    ...(portalDir ? { webDistDir: portalDir } : {}),
    ...(asProduction ? { production: true } : {}),
  };
  // Servers with a key ring of their own, or sharing a database, make or read their own key.
  const sharesProcessKey = !shared && env.SECRETS_KEYS === undefined && env.SECRETS_KEYS_FILE === undefined;
  try {
    if (sharesProcessKey) await provideSigningKey(database.location);
    const server = await startServer(config, { passwordHashCost: TEST_PASSWORD_HASH_COST, ...options });
    if (sharesProcessKey) await keepSigningKey(server);
    const started: TestServer = {
      baseUrl: config.publicUrl,
      config,
      server,
      close: async () => {
        if (running.includes(started)) running.splice(running.indexOf(started), 1);
        await server.close();
        await endClientConnections(config.port);
        await dropOwnDatabase();
      },
    };
    running.push(started);
    return started;
  } catch (error) {
    await dropOwnDatabase();
    throw error;
  }
}
