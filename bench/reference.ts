import { spawn } from 'node:child_process';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { hash, verify as verifyPassword, type Algorithm } from '@node-rs/argon2';
import { measureEndpoint, type LoadResult, type LoadSpec } from './http-load.js';
import { killWithThisProcess } from './server.js';
import { median } from './stats.js';

// References measured in the same run (performance-targets.md: shared machines are noisy, so a figure
// means something next to what the same machine did at the same time): the cost of the work each
// endpoint cannot avoid, measured without the server.

/** Bare node:http in a child process answering `body`, under the same load as an endpoint. */
export async function bareHttp(body: string, load: Omit<LoadSpec, 'url' | 'method'>): Promise<LoadResult> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'reference-server.ts')],
    { env: { PATH: process.env.PATH, REFERENCE_BODY: body }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  killWithThisProcess(child);
  try {
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    const port = Number(chunk.toString().trim());
    return await measureEndpoint({ ...load, url: `http://127.0.0.1:${port}/`, method: 'GET' });
  } finally {
    child.kill('SIGTERM');
  }
}

/** Operations per second on this one thread, over `seconds`: the median of 5 slices. */
export function opsPerSecond(op: () => void, seconds: number): number {
  const rates: number[] = [];
  for (let slice = 0; slice < 5; slice++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < (seconds * 1000) / 5) {
      op();
      n++;
    }
    rates.push((n * 1000) / (performance.now() - start));
  }
  return median(rates);
}

/** ES256 with node:crypto on KeyObjects, as the server does: verify (validate) and sign (refresh). */
export function es256(seconds: number): { verifyPerSecond: number; signPerSecond: number } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const data = Buffer.from('e'.repeat(400)); // about a product token's signing input
  const options = { dsaEncoding: 'ieee-p1363' } as const;
  const signature = sign('sha256', data, { key: privateKey, ...options });
  return {
    verifyPerSecond: opsPerSecond(
      () => verify('sha256', data, { key: publicKey, ...options }, signature),
      seconds,
    ),
    signPerSecond: opsPerSecond(() => sign('sha256', data, { key: privateKey, ...options }), seconds),
  };
}

// The IdP's parameters (apps/idp/src/passwords.ts): argon2id, OWASP's 19 MiB, t=2, p=1.
// 2 is Argon2id; the typings' const enum cannot be inlined under isolatedModules.
const ARGON2 = { algorithm: 2 as Algorithm, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** argon2id verify: ms for one alone, and verifies/s with as many at once as the server has threads. */
export async function argon2(seconds: number): Promise<{ msPerVerify: number; perSecond: number }> {
  const stored = await hash('Demo-Borrower-1', ARGON2);
  const alone: number[] = [];
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    await verifyPassword(stored, 'Demo-Borrower-1');
    alone.push(performance.now() - start);
  }
  // libuv's default pool has 4 threads; on 2 cores, 4 at once keep both busy.
  let done = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() < deadline) {
        await verifyPassword(stored, 'Demo-Borrower-1');
        done++;
      }
    }),
  );
  return { msPerVerify: median(alone), perSecond: (done * 1000) / (performance.now() - start) };
}
