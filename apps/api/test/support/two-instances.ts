import { createTestDatabase } from '@customer-core/database/testing';
import { startTestServer, type TestServer } from '../../testing/index.js';

export interface TwoInstances {
  a: TestServer;
  b: TestServer;
  /** Instance B's own address; the public origin (issuer, token issuer) is A's, as behind a load balancer. */
  bUrl: string;
  close(): Promise<void>;
}

/**
 * Two instances behind one public origin, sharing one throwaway PostgreSQL database and nothing else;
 * `env` is given to both.
 */
export async function startTwoInstances(env: Record<string, string> = {}): Promise<TwoInstances> {
  const database = await createTestDatabase('postgres');
  const started: TestServer[] = [];
  const close = async () => {
    for (const server of started.reverse()) await server.close();
    await database.drop();
  };
  try {
    const a = await startTestServer('postgres', env, { database });
    started.push(a);
    // Started while A runs: B must agree on migrations, signing keys and IdP keys rather than make its own.
    const b = await startTestServer('postgres', { ...env, PUBLIC_URL: a.baseUrl }, { database });
    started.push(b);
    return { a, b, bUrl: `http://127.0.0.1:${new URL(b.server.address).port}`, close };
  } catch (error) {
    await close();
    throw error;
  }
}
