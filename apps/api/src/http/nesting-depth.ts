import type { FastifyInstance } from 'fastify';
import { INPUT_TOO_DEEP, nestsTooDeep } from '@customer-core/contracts';
import { HttpError } from './http-error.js';

/**
 * Every route's parameters, query and body are measured before anything walks them (the control
 * character check, validation, a handler): input nested past any request's depth is refused with 400.
 * The bundled identity provider's routes are under it too; on its own it has the same rule.
 */
export function refuseDeepNesting(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      if (nestsTooDeep(value)) throw new HttpError(400, 'bad_request', `${part}: ${INPUT_TOO_DEEP}`);
    }
  });
}
