import type { FastifyReply, FastifyRequest } from 'fastify';
import { INPUT_TOO_DEEP, nestsTooDeep } from '@customer-core/contracts';
import { sendOktaError } from './okta-error-handler.js';
import { malformedRequest } from './okta-errors.js';

/**
 * A preValidation hook for every route of the provider: input nested past any request's depth is
 * refused (400, in Okta's shape) before anything walks it, as the API does with the same rule.
 */
export async function refuseDeepNesting(request: FastifyRequest, reply: FastifyReply) {
  for (const [part, value] of Object.entries({
    path: request.params,
    query: request.query,
    body: request.body,
  }))
    if (nestsTooDeep(value))
      return sendOktaError(reply, 400, malformedRequest([`${part}: ${INPUT_TOO_DEEP}`]));
}
