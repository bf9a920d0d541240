import { after, before } from 'node:test';
import type { TestDatabaseKind } from '@customer-core/database/testing';
import { runCli } from '../../src/cli/run.js';
import { startTestServer, type TestServer } from '../../testing/index.js';

/**
 * A server with an operator credential, for one describe block, and the operators' command line run
 * against it in this process (its own process start is covered by cli.test.ts): one command, its
 * output and exit code.
 */
export function operatorCli(kind: TestDatabaseKind, command: string, secret: string) {
  const state: { server?: TestServer } = {};
  before(async () => {
    state.server = await startTestServer(kind, { SERVICE_CREDENTIALS: `ops:operator:${secret}` });
  });
  after(() => state.server?.close());

  return {
    server: () => state.server!,
    async cli(...args: string[]) {
      const out: string[] = [];
      const err: string[] = [];
      const env = { PORTAL_URL: state.server!.baseUrl, OPERATOR_CREDENTIAL: secret };
      const code = await runCli([command, ...args], env, {
        out: (line) => out.push(line),
        err: (line) => err.push(line),
      });
      return { code, stdout: out.join('\n'), stderr: err.join('\n') };
    },
  };
}
