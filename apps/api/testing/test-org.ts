import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabaseKind } from '@customer-core/database/testing';
import { idpMigrations } from '@customer-core/idp';
import { TEST_PASSWORD_HASH_COST } from '@customer-core/idp/testing';
import { readStandaloneConfig, startStandalone } from '@customer-core/idp/standalone';
import { freePort } from './free-port.js';

/** The client id the portal uses at the org, as an Okta org's OIDC app would have one. */
export const TEST_ORG_CLIENT_ID = 'customer-portal';

export interface TestOrg {
  /** e.g. http://localhost:41234 */
  url: string;
  /** Its authorization server: what the portal's IDP_ISSUER names. */
  issuer: string;
  /** An SSWS API token the org accepts. */
  apiToken: string;
  /** Puts the org's user with this login in exactly these groups, as the org's admin would. */
  setGroups(login: string, groups: string[]): Promise<void>;
  /** What the portal at the `portalUrl` it trusts is started with to use it: that port and address, the org's issuer, client id and API token. */
  portalEnv: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * "A hosted Okta org" for tests: the bundled identity provider as a server of its own (what its
 * `main` starts, from the same environment variables), on its own port (another origin than the
 * portal's) and its own database, trusting the portal at `portalUrl`; it hashes passwords at the
 * tests' cheap cost, where `main` keeps production's. It runs in the test's process:
 * a process of its own would pay the module graph's start again, and `main` as a process is tested by
 * the identity provider's own `standalone` test.
 */
export async function startTestOrg(kind: TestDatabaseKind, portalUrl: string): Promise<TestOrg> {
  const port = await freePort();
  // Another origin than the portal's (http://localhost:<its port>), on the same site, as an org at
  // login.lender.example beside portal.lender.example would be: its cookies work in the sign-in iframe.
  const url = `http://localhost:${port}`;
  const issuer = `${url}/oauth2/default`;
  const apiToken = `00${randomBytes(24).toString('base64url')}`;
  const read = readStandaloneConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    IDP_ISSUER: issuer,
    PORTAL_URL: portalUrl,
    IDP_CLIENT_ID: TEST_ORG_CLIENT_ID,
    OKTA_API_TOKENS: apiToken,
    SECRETS_KEYS: `org:${randomBytes(32).toString('base64')}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  });
  if ('problems' in read) throw new Error(`the test org's configuration:\n${read.problems}`);
  const database = await createTestDatabase(kind, { idp: idpMigrations });
  let org;
  try {
    org = await startStandalone(
      { ...read.config, database: database.location },
      { passwordHashCost: TEST_PASSWORD_HASH_COST },
    );
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    url,
    issuer,
    apiToken,
    portalEnv: {
      PORT: new URL(portalUrl).port,
      PUBLIC_URL: portalUrl,
      IDP_BUNDLED: 'false',
      IDP_ISSUER: issuer,
      IDP_CLIENT_ID: TEST_ORG_CLIENT_ID,
      OKTA_API_TOKEN: apiToken,
    },
    async setGroups(login, groups) {
      const user = await org.users.findByLogin(login);
      if (!user || !(await org.users.setGroups(user.id, groups)))
        throw new Error(`no user ${login} in the org`);
    },
    async stop() {
      await org.close();
      await database.drop();
    },
  };
}
