import { register } from 'node:module';
import { diag, DiagConsoleLogger, ROOT_CONTEXT } from '@opentelemetry/api';
import {
  CompositePropagator,
  diagLogLevelFromString,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { traceRequests } from './request-spans.js';
import { SignInTracePropagator } from './sign-in-trace-propagator.js';
import { RedactingSpanExporter } from './span-redaction.js';
import { TracedRequestsContextManager } from './traced-requests-context.js';
import { tracingStarted } from './traces-on.js';

/** The one protocol the installed exporter speaks (JSON over HTTP). */
const PROTOCOL = 'http/json';

export class TracingConfigError extends Error {}

/**
 * Starts OpenTelemetry for this process, before the modules it patches load (main.ts imports the
 * app after this). The standard OTEL_* settings apply (README: Operating it); what this fixes: a span
 * per request (request-spans.ts), the instrumentations (http, pg, pino), the propagators (W3C trace
 * context and baggage, and the portal's sign-in cookie), no OTel metrics or logs (the server has its
 * own metrics), and every span's attributes redacted before export.
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
    data: { include: ['pg', 'pg-pool', 'pino', 'http', 'https', 'node:http', 'node:https'] },
  });
  // The standard sampler settings (always_on, always_off, traceidratio; parent-based or not) give the
  // share of traces begun: a request with no trace context begins one at that ratio, decided before
  // any span is made (request-spans.ts); a sign-in's requests together, by their trace id; a span
  // under a sampled one is sampled (parent-based). Always_off begins none and follows no caller.
  const sampler = env.OTEL_TRACES_SAMPLER || 'parentbased_always_on';
  const asked = sampler.endsWith('traceidratio') ? Number(env.OTEL_TRACES_SAMPLER_ARG ?? 1) : 1;
  const ratio = sampler.endsWith('always_off')
    ? 0
    : Number.isFinite(asked)
      ? Math.min(1, Math.max(0, asked))
      : 1;
  const byTraceId = new TraceIdRatioBasedSampler(ratio);
  const sampled = (traceId: string) =>
    byTraceId.shouldSample(ROOT_CONTEXT, traceId).decision === SamplingDecision.RECORD_AND_SAMPLED;
  const logLevel = env.OTEL_LOG_LEVEL;
  if (logLevel) diag.setLogger(new DiagConsoleLogger(), { logLevel: diagLogLevelFromString(logLevel) });
  // The trace parts of OpenTelemetry's SDK, not its all-signals NodeSDK (which brings every exporter and
  // protocol along): the batching (OTEL_BSP_*) and span limits (OTEL_ATTRIBUTE_*) read their standard
  // settings themselves; the resource is what NodeSDK would detect (OTEL_SERVICE_NAME,
  // OTEL_RESOURCE_ATTRIBUTES, the process, the host), merged over the portal's default name.
  const provider = new NodeTracerProvider({
    resource: defaultResource()
      .merge(resourceFromAttributes({ 'service.name': 'customer-core' }))
      .merge(detectResources({ detectors: [envDetector, processDetector, hostDetector] })),
    sampler:
      sampler === 'always_off'
        ? new AlwaysOffSampler()
        : new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [new BatchSpanProcessor(new RedactingSpanExporter(new OTLPTraceExporter()))],
  });
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // The http instrumentation only for the server's own calls (a hosted Okta org), and only inside a
      // traced request: the request's span is request-spans.ts's (its span for an incoming request
      // doubled the per-request cost of tracing).
      new HttpInstrumentation({
        disableIncomingRequestInstrumentation: true,
        requireParentforOutgoingSpans: true,
        // No header is recorded; the URL is redacted by the exporter (span-redaction.ts).
        headersToSpanAttributes: {},
      }),
      // Statements with their $1 placeholders, never the values; no span for a query outside a request
      // (the outbox's polling, LISTEN) so that each trace is a request.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
      // Log lines carry trace_id and span_id; the lines themselves stay on standard output.
      new PinoInstrumentation({ disableLogSending: true }),
    ],
  });
  const contextManager = new TracedRequestsContextManager();
  provider.register({
    contextManager,
    propagator: new CompositePropagator({
      propagators: [
        new SignInTracePropagator(sampled),
        new W3CTraceContextPropagator(),
        new W3CBaggagePropagator(),
      ],
    }),
  });
  tracingStarted({
    traceRequests: (app) => traceRequests(app, ratio, contextManager),
    flush: () => provider.shutdown(),
  });
}
