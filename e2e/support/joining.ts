import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { runCli as runCliCommand } from '../../apps/api/src/cli/run.js';

// What the joining browser tests share: the operators' command line.

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../apps/api/dist/cli/main.js');

/** The operator's service credential the test server is started with (SERVICE_CREDENTIALS). */
export const OPERATOR = { id: 'operator', secret: 'e2e-operator-secret-0123456789abcdefghij' };
export const OPERATOR_ENV = { SERVICE_CREDENTIALS: `${OPERATOR.id}:operator:${OPERATOR.secret}` };

export interface CliResult {
  stdout: string;
  stderr: string;
}

/** Runs the operators' command line (the built one, as `npm run cli` does) against the portal. */
export async function runCli(baseUrl: string, args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { ...process.env, PORTAL_URL: baseUrl, OPERATOR_CREDENTIAL: OPERATOR.secret },
      timeout: 30_000,
    });
    return { stdout, stderr };
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`cli ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

/**
 * The same command line run in this process, for what a browser test sets up: its code and the
 * operators' API it calls, without starting a node process per command (runCli runs the built one).
 */
export async function runCliInProcess(baseUrl: string, args: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCliCommand(
    args,
    { PORTAL_URL: baseUrl, OPERATOR_CREDENTIAL: OPERATOR.secret },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
  );
  const result = { stdout: out.join('\n'), stderr: err.join('\n') };
  if (code !== 0)
    throw new Error(`cli ${args.join(' ')} failed (${code}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** How many entries the tab's session history has. */
export const historyLength = (page: Page) => page.evaluate(() => window.history.length);
