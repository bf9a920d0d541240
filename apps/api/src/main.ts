// The server's entry. Tracing's instrumentation patches http, pg, pino and Fastify as they load, so its
// bootstrap runs before anything else is imported, and only when traces are sent somewhere: without
// OTEL_EXPORTER_OTLP_ENDPOINT nothing of OpenTelemetry is loaded (README: Operating it).
import { tracesAreOn } from './tracing/traces-on.js';

if (tracesAreOn(process.env)) {
  const { startTracing, TracingConfigError } = await import('./tracing/start-tracing.js');
  await startTracing().catch((error: unknown) => {
    if (!(error instanceof TracingConfigError)) throw error;
    console.error(`customer-core cannot start.\n${error.message}`);
    process.exit(1);
  });
}
await import('./run-server.js');
