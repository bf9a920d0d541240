import { performance } from 'node:perf_hooks';
import {
  redeemCode,
  redirectSignInRequest,
  signInThroughIdp,
  type IdpCall,
} from '@customer-core/api/testing';
import { authEndpoints } from '@customer-core/contracts';
import { CookieJar } from '@customer-core/idp/testing';
import { send, type Call } from './http-client.js';
import { median, percentile } from './stats.js';

// The password sign-in as the portal does it (spec section 4): authn (argon2id verify) -> authorize
// with the session token -> token endpoint -> product token exchange; then, where asked for, step 5's
// full-page redirect (authorize again, the callback's token).

// The borrower a development server seeds (NODE_ENV=development); the package does not export it.
export const DEMO_BORROWER = { username: 'demo@example.com', password: 'Demo-Borrower-1' };

/** Where the bench's server is: its PUBLIC_URL (issuer, redirect URIs, CORS) and its loopback address. */
export interface ServerAddress {
  publicUrl: string;
  url: string;
}

/**
 * 508 addresses from the documentation ranges, in turn, sent as X-Forwarded-For (the server trusts it
 * with TRUST_PROXY=true). At 30 authn/min each that is ~250 sign-ins/s sustained before the IdP's rate
 * limit would answer 429: far above what a run reaches.
 */
function clientAddresses(): () => string {
  const all = ['203.0.113', '198.51.100'].flatMap((net) =>
    Array.from({ length: 254 }, (_, i) => `${net}.${i + 1}`),
  );
  let next = 0;
  return () => all[next++ % all.length]!;
}

const nextAddress = clientAddresses();
// The portal's device cookie, kept as a returning borrower's browser keeps it: a sign-in from a new
// browser also writes a new-sign-in e-mail, which is not what most sign-ins are.
let deviceCookie: string | undefined;

/** Runs one step's call, e.g. to read the server's counters on either side of it. */
export type StepObserver = <T>(step: string, call: () => Promise<T>) => Promise<T>;

/**
 * One flow's calls: addressed to the public origin, sent to the loopback address, all from one client
 * address, each step's time to its whole answer put in `steps`. Given `cookies`, they are kept and
 * sent as a browser would (step 5 needs the identity provider's session cookie from step 3).
 */
function flowCalls(
  server: ServerAddress,
  steps: Map<string, number>,
  observe?: StepObserver,
  cookies?: CookieJar,
) {
  const clientAddress = nextAddress();
  return async (input: string | URL, call: Call = {}, step = stepName(new URL(input).pathname)) => {
    const target = new URL(input);
    const cookie = [call.headers?.cookie, cookies?.header()].filter(Boolean).join('; ');
    const sent = () =>
      send(new URL(target.pathname + target.search, server.url), {
        ...call,
        headers: { ...call.headers, ...(cookie && { cookie }), 'x-forwarded-for': clientAddress },
      });
    const started = performance.now();
    const answer = await (observe ? observe(step, sent) : sent());
    steps.set(step, performance.now() - started);
    cookies?.keep(answer.headers['set-cookie'] ?? []);
    return answer;
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
 * One sign-in of the demo borrower, steps 1 to 4 of the portal's (spec section 4); with `redirect`,
 * step 5 too, as a browser makes it: signInWithRedirect's authorize with the same session token and
 * the identity provider's session cookie (`redirect`), then the callback redeeming its code
 * (`callback`). The product access token.
 */
export async function signIn(
  server: ServerAddress,
  steps = new Map<string, number>(),
  observe?: StepObserver,
  { redirect = false } = {},
): Promise<string> {
  const calls = flowCalls(server, steps, observe, redirect ? new CookieJar() : undefined);
  const idpCall =
    (step?: string): IdpCall =>
    async (input, init) => {
      const { status, text } = await calls(input, init, step);
      return { status, text: () => Promise.resolve(text) };
    };
  const { publicUrl } = server;
  const { idToken, sessionToken } = await signInThroughIdp(
    publicUrl,
    DEMO_BORROWER,
    undefined,
    publicUrl,
    idpCall(),
  );
  const exchange = await calls(`${publicUrl}${authEndpoints.tokenExchange.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(deviceCookie && { cookie: deviceCookie }) },
    body: JSON.stringify({ token: idToken }),
  });
  if (exchange.status !== 200) throw new Error(`token-exchange answered ${exchange.status}`);
  deviceCookie ??= exchange.headers['set-cookie']?.[0]?.split(';')[0];
  if (redirect) {
    const request = redirectSignInRequest(publicUrl, sessionToken, undefined, publicUrl);
    const answer = await calls(request.url, {}, 'redirect');
    const code = new URL(answer.headers.location ?? '/', publicUrl).searchParams.get('code');
    if (answer.status !== 303 || !code) throw new Error(`the redirect's authorize answered ${answer.status}`);
    await redeemCode(publicUrl, { ...request, code, clientId: 'customer-portal' }, idpCall('callback'));
  }
  return (JSON.parse(exchange.text) as { access_token: string }).access_token;
}

export interface FlowResult {
  completed: number;
  medianPerSecond: number;
  meanPerSecond: number;
  /** Per flow, ms (flows started within the measured window). */
  p50: number;
  p95: number;
  /** Median time to the whole answer of each step, ms. */
  stepMedians: Map<string, number>;
  failures: number;
  failureReasons: Map<string, number>;
}

/** Our IdP's password check alone (authn, the first of the flow's steps): the peer's one call. */
export async function authnAlone(url: string): Promise<void> {
  const { status } = await send(`${url}/api/v1/authn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: JSON.stringify(DEMO_BORROWER),
  });
  if (status !== 200) throw new Error(`authn answered ${status}`);
}

/**
 * `workers` flows at a time, each starting the next as soon as one ends. A flow is `attempt`
 * (e.g. a whole sign-in), told which worker runs it; it fills `steps` with its steps' times if it has any.
 */
export async function measureSignIns(
  attempt: (steps: Map<string, number>, worker: number) => Promise<unknown>,
  { workers, seconds, warmUpSeconds }: { workers: number; seconds: number; warmUpSeconds: number },
  onPhase: (phase: 'warm-up' | 'measure') => void = () => {},
): Promise<FlowResult> {
  onPhase('warm-up');
  const begin = performance.now();
  const measureStart = begin + warmUpSeconds * 1000;
  const measureEnd = measureStart + seconds * 1000;
  const marker = setTimeout(() => onPhase('measure'), warmUpSeconds * 1000);
  const perSecond = new Array<number>(seconds).fill(0);
  const durations: number[] = [];
  const stepTimes = new Map<string, number[]>();
  const failureReasons = new Map<string, number>();

  const worker = async (index: number) => {
    while (performance.now() < measureEnd) {
      const started = performance.now();
      const steps = new Map<string, number>();
      try {
        await attempt(steps, index);
      } catch (error) {
        const reason = error instanceof Error ? error.message.slice(0, 120) : String(error);
        if (started >= measureStart) failureReasons.set(reason, (failureReasons.get(reason) ?? 0) + 1);
        continue;
      }
      const ended = performance.now();
      // Completions count in the second they happen in; latencies are of every flow started in the
      // window, also those that end after it (leaving them out would hide the slowest).
      if (ended >= measureStart && ended < measureEnd)
        perSecond[Math.floor((ended - measureStart) / 1000)]!++;
      if (started >= measureStart) {
        durations.push(ended - started);
        for (const [step, ms] of steps) {
          if (!stepTimes.has(step)) stepTimes.set(step, []);
          stepTimes.get(step)!.push(ms);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, index) => worker(index)));
  clearTimeout(marker);

  const completed = perSecond.reduce((a, b) => a + b, 0);
  return {
    completed,
    medianPerSecond: median(perSecond),
    meanPerSecond: completed / seconds,
    p50: percentile(durations, 50),
    p95: percentile(durations, 95),
    stepMedians: new Map([...stepTimes].map(([step, times]) => [step, median(times)])),
    failures: [...failureReasons.values()].reduce((a, b) => a + b, 0),
    failureReasons,
  };
}
