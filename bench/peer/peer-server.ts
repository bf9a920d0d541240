import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { hash, type Algorithm } from '@node-rs/argon2';
import { freePort, keepLastLines } from '@customer-core/api/testing';
import pg from 'pg';
import { killWithThisProcess } from '../server.js';

// The peer's server in a child process of its own (like ours), and the users it is measured with.

export interface PeerServer {
  url: string;
  pid: number;
  output(): string[];
  exited(): string | undefined;
  stop(): Promise<void>;
}

/** better-auth on a free loopback port; it creates its schema in `databaseUrl` before it listens. */
export async function startPeerServer(databaseUrl: string, { cookieCache }: { cookieCache: boolean }) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'better-auth-server.ts')],
    {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        PEER_PORT: String(port),
        // Signs its cookies; a fixed bench-only value, as nothing here outlives the run.
        PEER_SECRET: 'bench-only-secret-of-the-peer-0123456789',
        PEER_COOKIE_CACHE: cookieCache ? '1' : '0',
        DATABASE_URL: databaseUrl,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  killWithThisProcess(child);
  const lines = keepLastLines(child);
  const exited = () =>
    child.exitCode !== null || child.signalCode !== null
      ? `exit ${child.exitCode ?? child.signalCode}`
      : undefined;
  const stop = async () => {
    if (exited()) return;
    const gone = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(timer);
  };
  // It prints its port once it listens; an exit before that is a failed start.
  const started = await Promise.race([
    once(child.stdout, 'data').then(() => true),
    once(child, 'exit').then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 60_000)),
  ]);
  if (!started) {
    await stop();
    throw new Error(`the peer's server did not start:\n${lines.join('\n')}`);
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, output: () => [...lines], exited, stop };
}

export const PEER_PASSWORD = 'Demo-Borrower-1';
export const peerEmail = (n: number) => `user${n}@example.com`;

// Our IdP's parameters (apps/idp/src/passwords.ts), as the peer's server is configured.
const ARGON2 = { algorithm: 2 as Algorithm, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * `count` users with a password, written in SQL in the rows its sign-up writes (a user, and a
 * "credential" account holding the hash): through its API each would cost an argon2id hash, minutes
 * for 10,000. All share one hash of the same password: a verify costs the same whatever the salt.
 */
export async function seedPeerUsers(databaseUrl: string, count: number): Promise<void> {
  const passwordHash = await hash(PEER_PASSWORD, ARGON2);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
       select md5('user' || n), 'User ' || n, 'user' || n || '@example.com', true, now(), now()
       from generate_series(0, $1 - 1) as n`,
      [count],
    );
    await client.query(
      `insert into account (id, "accountId", "providerId", "userId", password, "createdAt", "updatedAt")
       select md5('account' || n), md5('user' || n), 'credential', md5('user' || n), $2, now(), now()
       from generate_series(0, $1 - 1) as n`,
      [count, passwordHash],
    );
    // Fresh planner statistics, as a database that has grown to this size would have.
    await client.query('analyze');
  } finally {
    await client.end();
  }
}
