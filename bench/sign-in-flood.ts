import { apiPaths } from '@customer-core/contracts';
import { measureEndpoint, type LoadResult } from './http-load.js';

// A flood of password sign-ins, as from a botnet: `concurrency` at once, each from an address of its
// own (so no per-address limit answers), against a login that does not exist (every one costs an
// argon2id check all the same). Meanwhile autocannon measures what borrowers and load balancers need
// to keep working: /healthz and token validation.

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
  const signIns: Record<string, number> = {};
  let flooding = true;
  let sent = 0;
  // 10.0.0.0/8: 16 million addresses, a fresh one for every sign-in.
  const nextAddress = () => {
    sent += 1;
    return `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
  };
  const worker = async () => {
    while (flooding) {
      const status = await fetch(`${url}/api/v1/authn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
        body: JSON.stringify({ username: 'nobody@example.com', password: 'Not-the-password-1' }),
      }).then(
        async (response) => {
          await response.arrayBuffer();
          return String(response.status);
        },
        () => 'connection error',
      );
      signIns[status] = (signIns[status] ?? 0) + 1;
    }
  };
  const workers = Array.from({ length: options.concurrency }, worker);
  try {
    const load = {
      seconds: options.seconds,
      warmUpSeconds: options.warmUpSeconds,
      connections: options.connections,
    };
    const [healthz, validate] = await Promise.all([
      measureEndpoint({ url: `${url}/healthz`, method: 'GET', ...load }, onPhase),
      measureEndpoint({
        url: `${url}${apiPaths.auth.validate}`,
        method: 'POST',
        bodies: validateBodies,
        ...load,
      }),
    ]);
    return { healthz, validate, signIns };
  } finally {
    flooding = false;
    await Promise.all(workers);
  }
}
