import { authEndpoints } from '@customer-core/contracts';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { fork, type ChildProcess } from 'node:child_process';
import type { LoadResult } from './http-load.js';
import { percentile } from './stats.js';

// A flood of password sign-ins, as from a botnet: `concurrency` at once, each from an address of its
// own (so no per-address limit answers), against a login that does not exist (every one costs an
// argon2id check all the same), sent by a process of its own. Meanwhile this process measures what
// borrowers and load balancers need to keep working: /healthz and token validation, a few at a time.

export interface FloodResult {
  healthz: LoadResult;
  validate: LoadResult;
  /** Sign-in answers during the whole phase, by status. */
  signIns: Record<string, number>;
}

export async function measureDuringSignInFlood(
  url: string,
  validateBodies: unknown[],
  options: { concurrency: number; seconds: number; warmUpSeconds: number; connections: number },
  onPhase: (phase: 'warm-up' | 'measure') => void = () => {},
): Promise<FloodResult> {
  // The attacker in a process of its own, as it would be: the probes here do not queue behind its sockets.
  const attacker = fork(new URL('./sign-in-flood-attacker.ts', import.meta.url), [
    url,
    String(options.concurrency),
  ]);
  try {
    onPhase('warm-up');
    await new Promise((resolve) => setTimeout(resolve, options.warmUpSeconds * 1000));
    onPhase('measure');
    const [healthz, validate] = await Promise.all([
      probe({ url: `${url}/healthz` }, options),
      probe(
        {
          url: `${url}${authEndpoints.validate.path}`,
          bodies: validateBodies.map((body) => JSON.stringify(body)),
        },
        options,
      ),
    ]);
    const signIns = await stopAttacker(attacker);
    return { healthz, validate, signIns };
  } finally {
    attacker.kill();
  }
}

/** Stops the flood and collects its answers by status. */
async function stopAttacker(attacker: ChildProcess): Promise<Record<string, number>> {
  attacker.send('stop');
  const [signIns] = (await once(attacker, 'message')) as [Record<string, number>];
  return signIns;
}

/**
 * `connections` loops, each sending its next request when the last is answered, for `seconds`.
 * Unlike autocannon, a request still unanswered when the window ends is waited for and counted: under
 * a flood the slowest answers are what this phase is about.
 */
async function probe(
  target: { url: string; bodies?: string[] },
  { seconds, connections }: { seconds: number; connections: number },
): Promise<LoadResult> {
  const end = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let next = 0;
  const loop = async () => {
    while (performance.now() < end) {
      const body = target.bodies?.[next++ % target.bodies.length];
      const started = performance.now();
      try {
        const response = await fetch(target.url, {
          method: body ? 'POST' : 'GET',
          ...(body && { headers: { 'content-type': 'application/json' }, body }),
        });
        await response.arrayBuffer();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.ok) latencies.push(performance.now() - started);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  return {
    medianPerSecond: total / seconds,
    meanPerSecond: total / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    total,
    non2xx: total - latencies.length,
    statuses,
    errors,
  };
}
