import autocannon from 'autocannon';

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
  await run(spec, spec.warmUpSeconds, spec.refreshChains?.warmUp);
  onPhase('measure');
  const result = await run(spec, spec.seconds, spec.refreshChains?.measure);
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

function run(spec: LoadSpec, seconds: number, chains?: string[]): Promise<autocannon.Result> {
  const bodies = spec.bodies?.map((body) => JSON.stringify(body));
  let next = 0;
  const common = { url: spec.url, method: spec.method, connections: spec.connections, duration: seconds };
  if (chains) {
    if (chains.length < spec.connections) throw new Error('one refresh chain per connection');
    // autocannon keeps one context per connection.
    const slotOf = (context: object) => ((context as { slot?: number }).slot ??= next++);
    return autocannon({
      ...common,
      timeout: 10,
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request, context) => ({
            ...request,
            body: JSON.stringify({ token: chains[slotOf(context)] }),
          }),
          onResponse: (status, body, context) => {
            if (status === 200)
              chains[slotOf(context)] = (JSON.parse(body) as { access_token: string }).access_token;
          },
        },
      ],
    });
  }
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
