import { errorResponses, type Endpoint } from '@customer-core/contracts';

/**
 * The Fastify route of an endpoint of the contracts: method, path and schema (validation, answers
 * and their error codes, the OpenAPI reference), so a route declares only its hooks and handler:
 * `app.route({ ...endpointRoute(authEndpoints.validate), handler })`.
 */
export function endpointRoute<E extends Endpoint>(endpoint: E) {
  return {
    method: endpoint.method,
    url: endpoint.path,
    // Operators' calls: who of the staff may make it (see requireOperator).
    config: { staff: endpoint.staff },
    schema: {
      tags: [endpoint.tag],
      summary: endpoint.summary,
      ...(endpoint.access === 'public' ? {} : { security: [{ bearer: [] }] }),
      params: endpoint.params,
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      // Success answers last: a status is either an answer or a refusal, never both. A refusal with any
      // other status or code goes out as a 500 (installErrorHandlers).
      response: { ...errorResponses(endpoint), ...endpoint.responses },
    },
  } as {
    method: E['method'];
    url: E['path'];
    config: { staff: Endpoint['staff'] };
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
