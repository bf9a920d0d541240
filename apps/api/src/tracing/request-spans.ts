import { SIGN_IN_TRACE_COOKIE } from '@customer-core/contracts';
import * as api from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TracedRequestsContextManager } from './traced-requests-context.js';

/** Probes, not requests anyone follows: no trace of their own every few seconds. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz']);

/** How the sign-in cookie starts in a Cookie header: looked for in every request's. */
const SIGN_IN_COOKIE_PREFIX = `${SIGN_IN_TRACE_COOKIE}=`;

/**
 * A request's span and, once it failed, the kind of error (`error.type`); only requests that are
 * traced have one.
 */
const traced = new WeakMap<FastifyRequest, { span: api.Span; errorType?: string }>();

/**
 * A span per request: `GET /api/loans/:loanId`, kind SERVER, with the HTTP semantic conventions'
 * attributes, the request's context active while it runs (so its queries, log lines and calls out are
 * under it).
 *
 * Sampled before anything is made. A request that carries a trace context (a caller's `traceparent`,
 * the portal's sign-in cookie) follows that context's decision; one that carries none starts a trace
 * at `rootRatio`, and otherwise costs nothing: no context read, no ids, no span, no context switch.
 * Making a span that is then not sampled cost about a fifth of a token validation's CPU (bench:
 * observability), so most requests must not make one (decision 0011).
 */
export function traceRequests(
  app: FastifyInstance,
  rootRatio: number,
  contextManager: TracedRequestsContextManager,
): void {
  const tracer = api.trace.getTracer('customer-core');
  app.addHook('onRequest', (request, reply, done) => {
    const carriesContext =
      request.headers.traceparent !== undefined ||
      (request.headers.cookie?.includes(SIGN_IN_COOKIE_PREFIX) ?? false);
    const parent = carriesContext
      ? api.propagation.extract(api.ROOT_CONTEXT, request.headers)
      : api.ROOT_CONTEXT;
    // A context that does not parse decides nothing: a client cannot have every request traced by
    // sending a malformed one.
    if (!api.trace.getSpanContext(parent) && !(Math.random() < rootRatio)) return done();
    const path = request.url.split('?', 1)[0]!;
    if (UNTRACED_PATHS.has(path)) return done();

    const route = request.routeOptions.url;
    const span = tracer.startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: api.SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': path,
          ...(request.url.length > path.length && { 'url.query': request.url.slice(path.length + 1) }),
          ...(route && { 'http.route': route }),
        },
      },
      parent,
    );
    traced.set(request, { span });
    // Until the connection is done with the answer, or gone before it.
    contextManager.requestBegins();
    reply.raw.once('close', () => contextManager.requestEnded());
    api.context.with(api.trace.setSpan(parent, span), done);
  });
  // The error's kind, never its message: a message may quote what the request sent.
  app.addHook('onError', (request, _reply, error, done) => {
    const found = traced.get(request);
    if (found) found.errorType = error.code ?? error.name;
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const found = traced.get(request);
    if (found) {
      const { span, errorType } = found;
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) {
        span.setAttribute('error.type', errorType ?? String(reply.statusCode));
        span.setStatus({ code: api.SpanStatusCode.ERROR });
      }
      span.end();
    }
    done();
  });
}
