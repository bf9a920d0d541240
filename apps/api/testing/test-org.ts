import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createTestDatabase, type TestDatabaseKind } from '@customer-core/database/testing';
import { createPgliteDataFolder } from '@customer-core/database/testing/data-folder';
import { idpMigrations } from '@customer-core/idp';
import { keepLastLines } from './child-output.js';
import { freePort } from './free-port.js';

/** The client id the portal uses at the org, as an Okta org's OIDC app would have one. */
export const TEST_ORG_CLIENT_ID = 'customer-portal';

export interface TestOrg {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** Its authorization server: what the portal's IDP_ISSUER names. */
  issuer: string;
  /** An SSWS API token the org accepts. */
  apiToken: string;
  /** What the portal at the `portalUrl` it trusts is started with to use it: that port and address, the org's issuer, client id and API token. */
  portalEnv: Record<string, string>;
  /** Its last output lines, to say why it ended. */
  output(): string[];
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * "A hosted Okta org" for tests: the bundled identity provider as a process of its own, on its own
 * port (another origin than the portal's) and its own database, trusting the portal at `portalUrl`.
 * Its database starts from the migrated test template, as a test's own does.
 */
export async function startTestOrg(kind: TestDatabaseKind, portalUrl: string): Promise<TestOrg> {
  const port = await freePort();
  // Another origin than the portal's (http://localhost:<its port>), on the same site, as an org at
  // login.lender.example beside portal.lender.example would be: its cookies work in the sign-in iframe.
  const url = `http://localhost:${port}`;
  const issuer = `${url}/oauth2/default`;
  const apiToken = `00${randomBytes(24).toString('base64url')}`;
  const database = kind === 'postgres' ? await createTestDatabase(kind, { idp: idpMigrations }) : undefined;
  const dataDir = database ? undefined : mkdtempSync(path.join(tmpdir(), 'customer-core-org-'));
  if (dataDir) await createPgliteDataFolder(dataDir, { idp: idpMigrations });
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'apps/idp/src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      IDP_ISSUER: issuer,
      PORTAL_URL: portalUrl,
      IDP_CLIENT_ID: TEST_ORG_CLIENT_ID,
      OKTA_API_TOKENS: apiToken,
      SECRETS_KEYS: `org:${randomBytes(32).toString('base64')}`,
      // Its "listening" line (info) names the issuer: that is when it is ready.
      LOG_LEVEL: 'info',
      ...(database?.location.kind === 'postgres'
        ? { DATABASE_URL: database.location.url }
        : { DATA_DIR: dataDir! }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const lines = keepLastLines(child);
  const cleanUp = async () => {
    process.off('exit', kill);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  };

  // Ready when it prints its issuer; an exit before that is a failure to start.
  const ready = await new Promise<boolean>((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes(issuer)) resolve(true);
    });
    child.once('exit', () => resolve(false));
  });
  if (!ready) {
    await cleanUp();
    throw new Error(`the test org did not start:\n${lines.join('\n')}`);
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
    output: () => [...lines],
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await cleanUp();
    },
  };
}
