import { register } from 'node:module';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { api, core, NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { SignInTracePropagator } from './sign-in-trace-propagator.js';
import { RedactingSpanExporter } from './span-redaction.js';
import { onTracesFlush } from './traces-on.js';

/** Probes, not requests anyone follows: no trace of their own every few seconds. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz']);

/** The one protocol the installed exporter speaks (JSON over HTTP). */
const PROTOCOL = 'http/json';

export class TracingConfigError extends Error {}

/**
 * Starts OpenTelemetry for this process, before the modules it patches load (main.ts imports the
 * app after this). The standard OTEL_* settings apply (README: Operating it); what this fixes: the
 * instrumentations (http, Fastify, pg, pino), the propagators (W3C trace context and baggage, and the
 * portal's sign-in cookie), no OTel metrics or logs (the server has its own metrics), and every span's
 * attributes redacted before export.
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || PROTOCOL;
  if (protocol !== PROTOCOL) {
    throw new TracingConfigError(
      `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: traces are sent as ${PROTOCOL} only (set it, or leave it unset).`,
    );
  }
  // ES modules are patched through import-in-the-middle's loader hook, limited to what is instrumented.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, {
    data: { include: ['fastify', 'pg', 'pg-pool', 'pino', 'http', 'https', 'node:http', 'node:https'] },
  });
  // A sign-in's requests are sampled together, at the ratio of a *traceidratio sampler (1 otherwise).
  const sampler = env.OTEL_TRACES_SAMPLER ?? '';
  const ratio = sampler.endsWith('traceidratio') ? Number(env.OTEL_TRACES_SAMPLER_ARG ?? 1) : 1;
  const byTraceId = new tracing.TraceIdRatioBasedSampler(Number.isFinite(ratio) ? ratio : 1);
  const sampled = (traceId: string) =>
    byTraceId.shouldSample(api.ROOT_CONTEXT, traceId).decision ===
    tracing.SamplingDecision.RECORD_AND_SAMPLED;
  const named = env.OTEL_SERVICE_NAME || /(^|,)\s*service\.name=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  const sdk = new NodeSDK({
    ...(named ? {} : { serviceName: 'customer-core' }),
    traceExporter: new RedactingSpanExporter(new OTLPTraceExporter()),
    textMapPropagator: new core.CompositePropagator({
      propagators: [
        new SignInTracePropagator(sampled),
        new core.W3CTraceContextPropagator(),
        new core.W3CBaggagePropagator(),
      ],
    }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // Each request is one span, made by Fastify's instrumentation (the route's template in it), which
      // also reads the incoming trace context. The http instrumentation only for the server's own calls
      // (a hosted Okta org): its span for an incoming request doubled the per-request cost of tracing.
      new HttpInstrumentation({
        disableIncomingRequestInstrumentation: true,
        // No header is recorded; the URL is redacted by the exporter (span-redaction.ts).
        headersToSpanAttributes: {},
      }),
      // No span per hook or for the handler (the request's span covers it): each costs on every
      // request, sampled or not.
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        ignorePaths: ({ url }) => UNTRACED_PATHS.has(url),
        instrumentHooks: false,
        instrumentHandler: false,
        recordExceptions: false,
      }),
      // Statements with their $1 placeholders, never the values; no span for a query outside a request
      // (the outbox's polling, LISTEN) so that each trace is a request.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
      // Log lines carry trace_id and span_id; the lines themselves stay on standard output.
      new PinoInstrumentation({ disableLogSending: true }),
    ],
  });
  sdk.start();
  onTracesFlush(() => sdk.shutdown());
}
