import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { endpoint } from '@customer-core/contracts';
import { endpointRoute } from '../src/http/endpoint-route.js';
import { installErrorHandlers } from '../src/http/error-handler.js';
import { HttpError } from '../src/http/http-error.js';

// A route built from an endpoint answers only what the endpoint declares: a refusal with a code it
// does not declare is a fault of ours: a 500, never sent as it was thrown.

const probe = endpoint({
  method: 'POST',
  path: '/api/probe/:id',
  tag: 'probe',
  summary: 'A probe',
  access: 'public',
  body: z.object({ status: z.number(), code: z.enum(['not_found', 'already_signed']) }),
  responses: { 200: z.object({ ok: z.literal(true) }) },
  errors: { 404: ['not_found'], 409: ['already_signed'] },
});

/** The answer of a route built from the probe endpoint to one call with this body. */
async function answerTo(payload: unknown) {
  const server = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  installErrorHandlers(server);
  server.route({
    ...endpointRoute(probe),
    handler: async (request) => {
      throw new HttpError(request.body.status, request.body.code, 'Refused.');
    },
  });
  try {
    return await server.inject({ method: 'POST', url: '/api/probe/1', payload: payload as object });
  } finally {
    await server.close();
  }
}

describe('a route built from an endpoint', () => {
  it('sends a declared refusal as it is', async () => {
    const response = await answerTo({ status: 404, code: 'not_found' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { error: 'not_found', message: 'Refused.' });
  });

  for (const [what, payload] of [
    ['a status it does not declare', { status: 410, code: 'not_found' }],
    ['a code it does not declare for the status', { status: 409, code: 'not_found' }],
  ] as const)
    it(`answers a refusal with ${what} 500, our generic answer, without the refusal`, async () => {
      const response = await answerTo(payload);
      assert.equal(response.statusCode, 500);
      const { requestId, ...answer } = response.json<{ requestId: string }>();
      assert.deepEqual(answer, {
        error: 'internal_error',
        message: 'Something went wrong on our side. Please try again later.',
      });
      assert.ok(requestId);
    });

  it('refuses a body its schema does not take with 400 bad_request', async () => {
    const response = await answerTo({ status: 404, code: 'other' });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json<{ error: string }>().error, 'bad_request');
  });
});
