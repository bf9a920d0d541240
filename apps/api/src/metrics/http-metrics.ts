import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/** The route label of an answer no route gave (portal pages, not found): one value, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts and times every answered request by its route's template (`/api/loans/:loanId`), never the
 * URL asked for: the labels stay few whatever is requested, and no token in a path reaches them.
 */
export function countRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(
      request.method,
      request.routeOptions.url ?? UNMATCHED_ROUTE,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}
