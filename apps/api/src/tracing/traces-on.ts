import type { FastifyInstance } from 'fastify';

/**
 * Traces are sent only where an OTLP endpoint is set (for all signals, or for traces alone), and not
 * with the SDK switched off (OTEL_SDK_DISABLED=true).
 */
export function tracesAreOn(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}

/** What the tracing bootstrap leaves for the rest of the server; nothing when traces are off. */
interface StartedTracing {
  /** Adds a span per request to the app (request-spans.ts). */
  traceRequests(app: FastifyInstance): void;
  /** Sends the spans still queued. */
  flush(): Promise<void>;
}

let started: StartedTracing | undefined;

/** Set by the tracing bootstrap once OpenTelemetry runs. */
export function tracingStarted(tracing: StartedTracing): void {
  started = tracing;
}

/** A span per request of the app when traces are on; nothing of OpenTelemetry is loaded otherwise. */
export function traceRequestsWhenOn(app: FastifyInstance): void {
  started?.traceRequests(app);
}

/** Before the process exits: the spans still queued are sent (nothing when traces are off). */
export async function flushTraces(): Promise<void> {
  await started?.flush().catch(() => {}); // a collector that is down does not hold the shutdown
}
