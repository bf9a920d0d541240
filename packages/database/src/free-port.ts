import { mkdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A port nothing listens on right now, for a server whose own URL must be known before it listens.
 * Test files run side by side, each asking the kernel for a free port and listening on it a moment
 * later: two of them could be handed the same one in between. So a port is also claimed, by a folder
 * only one process can create, and not handed out again while the claim is fresh (by then its server
 * listens, and the kernel no longer offers it).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await portFromKernel();
    if (claim(port)) return port;
  }
  throw new Error('no free port could be claimed');
}

const CLAIMS = path.join(tmpdir(), 'customer-core-ports');
/** Longer than any server takes from being handed its port to listening on it. */
const CLAIM_MS = 60_000;

function claim(port: number): boolean {
  mkdirSync(CLAIMS, { recursive: true });
  const folder = path.join(CLAIMS, String(port));
  try {
    mkdirSync(folder);
    return true;
  } catch {
    // Claimed before: free again once the claim is stale (its server has long stopped or listens).
    try {
      if (Date.now() - statSync(folder).mtimeMs < CLAIM_MS) return false;
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder);
      return true;
    } catch {
      return false; // another process renewed the claim meanwhile
    }
  }
}

function portFromKernel(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
