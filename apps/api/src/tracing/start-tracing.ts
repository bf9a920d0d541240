import { register } from 'node:module';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { core, NodeSDK } from '@opentelemetry/sdk-node';
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
  const named = env.OTEL_SERVICE_NAME || /(^|,)\s*service\.name=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  const sdk = new NodeSDK({
    ...(named ? {} : { serviceName: 'customer-core' }),
    traceExporter: new RedactingSpanExporter(new OTLPTraceExporter()),
    textMapPropagator: new core.CompositePropagator({
      propagators: [
        new SignInTracePropagator(),
        new core.W3CTraceContextPropagator(),
        new core.W3CBaggagePropagator(),
      ],
    }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0]!),
        // No header is recorded; the URL is redacted by the exporter (span-redaction.ts).
        headersToSpanAttributes: {},
      }),
      // A span per request and one for its handler; none per hook (a dozen per request, of no interest).
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        instrumentHooks: false,
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
