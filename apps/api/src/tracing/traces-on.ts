/**
 * Traces are sent only where an OTLP endpoint is set (for all signals, or for traces alone), and not
 * with the SDK switched off (OTEL_SDK_DISABLED=true).
 */
export function tracesAreOn(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}

let flush: (() => Promise<void>) | undefined;

/** Set by the tracing bootstrap: sends the spans still queued. */
export function onTracesFlush(send: () => Promise<void>): void {
  flush = send;
}

/** Before the process exits: the spans still queued are sent (nothing when traces are off). */
export async function flushTraces(): Promise<void> {
  await flush?.().catch(() => {}); // a collector that is down does not hold the shutdown
}
