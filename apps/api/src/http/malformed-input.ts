import type { FastifyInstance } from 'fastify';
import { findControlCharacter, INPUT_TOO_DEEP, nestsTooDeep } from '@customer-core/contracts';
import { HttpError } from './http-error.js';

/**
 * Every route's parameters, query and body are checked before validation, whether or not a schema
 * describes them: first their nesting depth, measured without recursion, so that nothing after it
 * (this walk, validation, a handler) walks input nested past any request's depth; then control
 * characters, so no input reaches a handler or the database with one (the schemas refuse them too,
 * with a message per field). Routes keep their own error shape: the identity provider's answer in
 * Okta's; on its own, the provider has the same depth rule.
 */
export function refuseMalformedInput(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      if (nestsTooDeep(value)) throw new HttpError(400, 'bad_request', `${part}: ${INPUT_TOO_DEEP}`);
      const found = findControlCharacter(value);
      if (found !== undefined) {
        throw new HttpError(
          400,
          'bad_request',
          `${part}: control characters are not accepted (${printable(found)})`,
        );
      }
    }
  });
}

/** The path of the refused value, with its control characters made visible (it goes back to the caller). */
const printable = (path: string) => JSON.stringify(path).slice(1, -1).slice(0, 100);
