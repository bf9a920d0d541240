import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

// signInThroughIdp (from @customer-core/api/testing) calls the global fetch and takes no headers.
// Rather than copy it, the global fetch is wrapped once: each sign-in flow runs inside an
// AsyncLocalStorage context that names its simulated client address (sent as X-Forwarded-For, which
// the server trusts with TRUST_PROXY=true) and collects how long each step took to answer.

export interface FlowContext {
  clientAddress: string;
  /** Time to response headers per step, ms. */
  steps: Map<string, number>;
}

const flowContext = new AsyncLocalStorage<FlowContext>();

export function runInFlow<T>(context: FlowContext, fn: () => Promise<T>): Promise<T> {
  return flowContext.run(context, fn);
}

/**
 * Sends requests for `publicUrl` (the origin the IdP's redirect URIs and CORS checks use) to `url`
 * instead (the loopback address the server listens on), with the flow's client address.
 */
export function installFlowFetch(publicUrl: string, url: string): void {
  const original = globalThis.fetch;
  const publicOrigin = new URL(publicUrl).origin;
  globalThis.fetch = async (input, init) => {
    const context = flowContext.getStore();
    // signInThroughIdp passes strings and URLs; anything else goes through untouched.
    if (!context || input instanceof Request) return original(input, init);
    const target = new URL(input);
    if (target.origin !== publicOrigin) return original(input, init);
    const headers = new Headers(init?.headers);
    headers.set('x-forwarded-for', context.clientAddress);
    const routed = new URL(target.pathname + target.search, url);
    const started = performance.now();
    const response = await original(routed, { ...init, headers });
    context.steps.set(stepName(target.pathname), performance.now() - started);
    return response;
  };
}

function stepName(pathname: string): string {
  if (pathname.endsWith('/authn')) return 'authn';
  if (pathname.endsWith('/authorize')) return 'authorize';
  if (pathname.endsWith('/token')) return 'token';
  if (pathname.endsWith('/token-exchange')) return 'exchange';
  return pathname;
}

/**
 * 508 addresses from the documentation ranges, in turn. At 30 authn/min each that is ~250 sign-ins/s
 * sustained before the IdP's rate limit would answer 429: far above what a run reaches.
 */
export function clientAddresses(): () => string {
  const all = ['203.0.113', '198.51.100'].flatMap((net) =>
    Array.from({ length: 254 }, (_, i) => `${net}.${i + 1}`),
  );
  let next = 0;
  return () => all[next++ % all.length]!;
}
