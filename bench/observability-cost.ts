import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authEndpoints } from '@customer-core/contracts';
import { freePort } from '@customer-core/api/testing';
import { measureEndpoint } from './http-load.js';
import { sampleProcess, type ProcessSampler } from './process-sampler.js';
import { ms, perSecond, printColumns } from './report.js';
import { startBenchServer, type BenchServer } from './server.js';
import { measureSignIns, signIn, type ServerAddress } from './sign-in-flow.js';
import { median } from './stats.js';

// What metrics and traces cost (issue 29): validate and the sign-in flow measured on a server with
// neither, with metrics (METRICS_PORT, scraped every second), and with metrics and traces (sampled at
// 10 %, sent over OTLP/HTTP to a collector's stand-in in this process), in turn in the same run. Targets: at most 5 % slower with metrics, 10 % with traces too.

const SAMPLED = '0.1';
const SCRAPE_EVERY_MS = 1000;

interface Variant {
  name: string;
  /** The largest slowdown against "off" the targets allow (a fraction). */
  allowed: number;
  metrics: boolean;
  traces: boolean;
}
const VARIANTS: Variant[] = [
  { name: 'off', allowed: 0, metrics: false, traces: false },
  { name: 'metrics', allowed: 0.05, metrics: true, traces: false },
  { name: `metrics + traces ${Number(SAMPLED) * 100} %`, allowed: 0.1, metrics: true, traces: true },
];

/** One variant's server and what was measured on it, round by round. */
interface Running {
  variant: Variant;
  server: BenchServer;
  tokens: string[];
  sampler: ProcessSampler;
  validate: { rate: number; cpu: number; p99: number; failures: number }[];
  flows: { rate: number; cpu: number; p95: number; failures: number }[];
  stop(): Promise<void>;
  exports: { requests: number; bytes: number };
}

export interface CostOptions {
  postgresUrl: string | undefined;
  load: { connections: number; seconds: number; warmUpSeconds: number };
  workers: number;
  tokens: number;
  rounds: number;
}

/** A collector's OTLP/HTTP endpoint that keeps only a count of what it got. */
async function collectorStandIn() {
  const received = { requests: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (received.bytes += chunk.length));
    request.on('end', () => {
      received.requests += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

async function startVariant(variant: Variant, options: CostOptions): Promise<Running> {
  const collector = await collectorStandIn();
  const metricsPort = await freePort();
  const env: Record<string, string> = {
    ...(variant.metrics && { METRICS_PORT: String(metricsPort) }),
    ...(variant.traces && {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: SAMPLED,
    }),
  };
  const server = await startBenchServer({ postgresUrl: options.postgresUrl, env });
  // Prometheus scrapes every 15 s by default; every second is a harder case.
  const scraping = variant.metrics
    ? setInterval(() => {
        fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
          (r) => r.arrayBuffer(),
          () => {},
        );
      }, SCRAPE_EVERY_MS)
    : undefined;
  const tokens: string[] = [];
  while (tokens.length < options.tokens) {
    const batch = Math.min(options.workers, options.tokens - tokens.length);
    tokens.push(...(await Promise.all(Array.from({ length: batch }, () => signIn(server)))));
  }
  return {
    variant,
    server,
    tokens,
    sampler: sampleProcess(server.pid),
    validate: [],
    flows: [],
    exports: collector.received,
    async stop() {
      clearInterval(scraping);
      await server.stop();
      collector.server.close();
    },
  };
}

/** One round on one variant's server: validate, then the sign-in flow. */
async function measureRound(running: Running, round: number, options: CostOptions): Promise<void> {
  const { server, sampler, variant } = running;
  const mark = (phase: string) => (step: 'warm-up' | 'measure') =>
    sampler.phase(step === 'measure' ? phase : `${phase} (warm-up)`);
  console.error(`measuring validate and the sign-in flow, ${variant.name}, round ${round} ...`);
  const validate = await measureEndpoint(
    {
      url: `${server.url}${authEndpoints.validate.path}`,
      method: 'POST',
      bodies: running.tokens.map((t) => ({ access_token: t })),
      ...options.load,
    },
    mark(`validate ${round}`),
  );
  const address: ServerAddress = server;
  const flows = await measureSignIns(
    (steps) => signIn(address, steps),
    { workers: options.workers, ...options.load },
    mark(`sign-in flow ${round}`),
  );
  sampler.phase('idle');
  const usage = sampler.usage();
  // Server CPU per request, ms.
  const cpu = (phase: string, rate: number) => ((usage.get(phase)?.serverCores ?? Number.NaN) / rate) * 1e3;
  running.validate.push({
    rate: validate.meanPerSecond,
    cpu: cpu(`validate ${round}`, validate.meanPerSecond),
    p99: validate.p99,
    failures: validate.non2xx + validate.errors,
  });
  running.flows.push({
    rate: flows.meanPerSecond,
    cpu: cpu(`sign-in flow ${round}`, flows.meanPerSecond),
    p95: flows.p95,
    failures: flows.failures,
  });
}

/**
 * A server per variant, all started first; then rounds in which each is measured in turn (the order
 * turning each round), so that a change in what else loads the machine falls on every variant alike.
 * Medians over the rounds. Prints a table and returns its note.
 */
export async function measureObservabilityCost(options: CostOptions): Promise<string> {
  const running: Running[] = [];
  try {
    for (const variant of VARIANTS) running.push(await startVariant(variant, options));
    for (let round = 1; round <= options.rounds; round += 1) {
      const order = running.map((_, i) => running[(i + round - 1) % running.length]!);
      for (const one of order) await measureRound(one, round, options);
    }
  } finally {
    for (const one of running) one.sampler.stop();
    await Promise.all(running.map((one) => one.stop()));
  }
  const [off] = running;
  const rows = running.flatMap((one) =>
    (['validate', 'sign-in flow'] as const).map((phase) => {
      const of = (r: Running) => (phase === 'validate' ? r.validate : r.flows);
      const rate = median(of(one).map((m) => m.rate));
      const offRate = median(of(off!).map((m) => m.rate));
      const cpu = median(of(one).map((m) => m.cpu));
      const cpuOff = median(of(off!).map((m) => m.cpu));
      const slower = 1 - rate / offRate;
      const isOff = one === off;
      const latency =
        phase === 'validate'
          ? `p99 ${ms(median(one.validate.map((m) => m.p99)))}`
          : `p95 ${ms(median(one.flows.map((m) => m.p95)))}`;
      return {
        measure: `${phase}, ${one.variant.name}`,
        rate: `${perSecond(rate)} (${of(one)
          .map((m) => perSecond(m.rate))
          .join(', ')})`,
        slower: isOff ? '' : `${(slower * 100).toFixed(1)} %`,
        target: isOff ? '' : `<= ${one.variant.allowed * 100} % slower`,
        verdict: isOff ? '' : slower <= one.variant.allowed ? 'meets' : 'misses',
        latency,
        cpu: `${cpu < 1 ? `${(cpu * 1000).toFixed(0)} µs` : ms(cpu)}${
          isOff ? '' : ` (${(((cpu - cpuOff) / cpuOff) * 100).toFixed(1)} %)`
        }`,
        failures: String(of(one).reduce((sum, m) => sum + m.failures, 0)),
      };
    }),
  );
  console.log(
    `\nMetrics and traces beside neither (a server each, measured in turn, medians of ${options.rounds} rounds):\n`,
  );
  printColumns(
    {
      measure: 'measure',
      rate: 'rate (each round)',
      slower: 'slower than off',
      target: 'target',
      verdict: 'verdict',
      latency: 'latency',
      cpu: 'server CPU each (vs off)',
      failures: 'failures',
    },
    rows,
  );
  const traced = running.at(-1)!.exports;
  return (
    `Metrics: METRICS_PORT set, scraped every ${SCRAPE_EVERY_MS / 1000} s (counting itself is never off). ` +
    `Traces: parentbased_traceidratio at ${SAMPLED}, the batch processor's defaults; the collector's stand-in got ` +
    `${traced.requests} exports, ${(traced.bytes / 1e6).toFixed(1)} MB. "Slower" compares rates; server CPU ` +
    'per request holds better on a shared machine.'
  );
}
