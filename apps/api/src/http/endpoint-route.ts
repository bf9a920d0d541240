import { z } from 'zod';
import { errorResponses, type Endpoint } from '@customer-core/contracts';

// Any other 4xx is none of the endpoint's refusals: its answer fails serialization, so it goes out as a
// 500 (our fault), never as it was thrown.
const UNDECLARED_REFUSAL = z.never();

/**
 * The Fastify route of an endpoint of the contracts: method, path and schema (validation, answers
 * and their error codes, the OpenAPI reference), so a route declares only its hooks and handler:
 * `app.route({ ...endpointRoute(authEndpoints.validate), handler })`.
 */
export function endpointRoute<E extends Endpoint>(endpoint: E) {
  return {
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      tags: [endpoint.tag],
      summary: endpoint.summary,
      ...(endpoint.access === 'public' ? {} : { security: [{ bearer: [] }] }),
      params: endpoint.params,
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      // Success answers last: a status is either an answer or a refusal, never both.
      response: { '4xx': UNDECLARED_REFUSAL, ...errorResponses(endpoint), ...endpoint.responses },
    },
  } as {
    method: E['method'];
    url: E['path'];
    schema: {
      tags: string[];
      summary: string;
      params: E['params'];
      body: E['body'];
      querystring: E['query'];
      response: E['responses'];
    };
  };
}
