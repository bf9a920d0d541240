import type { FastifyRequest } from 'fastify';
import type { ErrorEvent } from '@sentry/node';

/** Sends the server's unexpected errors (answered 500) to the error-reporting service. */
export interface ServerErrorReporter {
  report(error: unknown, request: FastifyRequest): void;
  /** Sends what is still queued (for a short while), then stops. */
  close(): Promise<void>;
}

/**
 * The error-reporting service's client (Sentry) for the server, in production only, as the browser's
 * is on the production host; null elsewhere or without a DSN. Its module loads only then (half a
 * second of start-up). A client of this instance's own, not the SDK's global one, and no automatic
 * instrumentation: it sends exactly what `report` is given, scrubbed by `scrubEvent`.
 */
export async function startServerErrorReporting(options: {
  dsn: string | null;
  production: boolean;
  release: string;
}): Promise<ServerErrorReporter | null> {
  if (!options.dsn || !options.production) return null;
  const Sentry = await import('@sentry/node');
  const client = new Sentry.NodeClient({
    dsn: options.dsn,
    release: options.release,
    environment: 'production',
    transport: Sentry.makeNodeTransport,
    stackParser: Sentry.defaultStackParser,
    integrations: [],
    beforeBreadcrumb: () => null,
    beforeSend: scrubEvent,
  });
  const scope = new Sentry.Scope();
  scope.setClient(client);
  client.init();
  return {
    report(error, request) {
      const requestScope = scope.clone();
      // What support is quoted (the answer's requestId) and where it happened; never the URL asked for.
      requestScope.setTag('request_id', request.id);
      requestScope.setTag('route', request.routeOptions.url ?? 'unmatched');
      requestScope.setTag('method', request.method);
      requestScope.captureException(error);
    },
    close: async () => {
      await client.close(2000);
    },
  };
}

/**
 * What leaves the server: the error, its stack and the tags above. Whatever an SDK part might add
 * about the request (URL and query, headers, cookies, body), the user or breadcrumbs is dropped, so
 * no token, password or code can go with it.
 */
export function scrubEvent(event: ErrorEvent): ErrorEvent {
  const { request: _request, user: _user, breadcrumbs: _breadcrumbs, extra: _extra, ...kept } = event;
  return kept;
}
