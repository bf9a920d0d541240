import type { FastifyInstance } from 'fastify';
import { findControlCharacter } from '@customer-core/contracts';
import { HttpError } from './http-error.js';

/**
 * Every route's parameters, query and body are checked for control characters before validation, so
 * no input reaches a handler or the database with one, whether or not a schema describes it (the
 * schemas refuse them too, with a message per field). Routes keep their own error shape: the
 * identity provider's answer in Okta's.
 */
export function refuseControlCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
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
