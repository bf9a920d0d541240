import autocannon from 'autocannon';
import { median, percentile } from './stats.js';
import { send } from './http-client.js';

// One endpoint under constant load from autocannon, in this process (the server is another one).

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  /** JSON bodies, sent in turn (one request each). */
  bodies?: unknown[];
  /**
   * Token refresh instead: refresh spends the token it is given, so each connection presents its own
   * token, then the one it got back. One token per connection for the warm-up, others for the measured
   * run (a request cut off at the end of a run may have spent its token).
   */
  refreshChains?: { warmUp: string[]; measure: string[] };
  /** Extra headers, a set per request in turn (e.g. session cookies). */
  headerSets?: Record<string, string>[];
  connections: number;
  seconds: number;
  warmUpSeconds: number;
}

export interface LoadResult {
  /** Median of the per-second request counts (2xx and not), and their mean. */
  medianPerSecond: number;
  meanPerSecond: number;
  /** Latency of 2xx answers, ms (autocannon's histogram has 1 ms resolution). */
  p50: number;
  p99: number;
  total: number;
  /** Answers that were not 2xx, by status, and connection errors/timeouts. */
  non2xx: number;
  statuses: Record<string, number>;
  errors: number;
}

/** `onPhase('warm-up' | 'measure')` marks where the measured window starts, for the process sampler. */
export async function measureEndpoint(
  spec: LoadSpec,
  onPhase: (phase: 'warm-up' | 'measure') => void = () => {},
): Promise<LoadResult> {
  // The warm-up lets V8 optimise the hot paths and the server's pools fill before anything counts.
  onPhase('warm-up');
  if (spec.refreshChains) {
    await refreshLoops(spec, spec.warmUpSeconds, spec.refreshChains.warmUp);
    onPhase('measure');
    return refreshLoops(spec, spec.seconds, spec.refreshChains.measure);
  }
  await run(spec, spec.warmUpSeconds);
  onPhase('measure');
  const result = await run(spec, spec.seconds);
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]),
  );
  return {
    medianPerSecond: result.requests.p50,
    meanPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    statuses,
    errors: result.errors, // includes timeouts
  };
}

function run(spec: LoadSpec, seconds: number): Promise<autocannon.Result> {
  const bodies = spec.bodies?.map((body) => JSON.stringify(body));
  let next = 0;
  const common = { url: spec.url, method: spec.method, connections: spec.connections, duration: seconds };
  const headerSets = spec.headerSets;
  if (headerSets) {
    return autocannon({
      ...common,
      timeout: 10,
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, ...headerSets[next++ % headerSets.length] },
          }),
        },
      ],
    });
  }
  return autocannon({
    ...common,
    timeout: 10,
    ...(bodies && {
      headers: { 'content-type': 'application/json' },
      requests: [{ setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }) }],
    }),
  });
}

/**
 * Token refresh: each connection presents its token, waits for the answer, then presents the token it
 * got back: a chain, as a borrower's tab refreshes. autocannon prepares a connection's next request
 * before the answer to the current one is in, so it would present a spent token, which (rightly)
 * revokes the whole session. A closed loop per connection over kept-alive sockets instead.
 */
async function refreshLoops(spec: LoadSpec, seconds: number, chains: string[]): Promise<LoadResult> {
  if (chains.length < spec.connections) throw new Error('one refresh chain per connection');
  const end = Date.now() + seconds * 1000;
  const perSecond = new Map<number, number>();
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const loop = async (slot: number) => {
    while (Date.now() < end) {
      const started = performance.now();
      try {
        const { status, text } = await send(spec.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: chains[slot] }),
        });
        statuses[status] = (statuses[status] ?? 0) + 1;
        const second = Math.floor(Date.now() / 1000);
        perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
        if (status !== 200) return; // a chain that broke stays broken: its session is gone
        latencies.push(performance.now() - started);
        chains[slot] = (JSON.parse(text) as { access_token: string }).access_token;
      } catch {
        errors += 1;
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, (_, slot) => loop(slot)));
  // Whole seconds only: the first and last are partial.
  const counts = [...perSecond.entries()]
    .sort(([a], [b]) => a - b)
    .slice(1, -1)
    .map(([, n]) => n);
  const total = Object.values(statuses).reduce((sum, n) => sum + n, 0);
  return {
    medianPerSecond: median(counts),
    meanPerSecond: counts.length ? counts.reduce((sum, n) => sum + n, 0) / counts.length : Number.NaN,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    total,
    non2xx: total - (statuses[200] ?? 0),
    statuses,
    errors,
  };
}
