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
  body: z.object({ code: z.enum(['not_found', 'already_signed']) }),
  responses: { 200: z.object({ ok: z.literal(true) }) },
  errors: { 404: ['not_found'] },
});

async function app() {
  const server = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  installErrorHandlers(server);
  server.route({
    ...endpointRoute(probe),
    handler: async (request) => {
      throw new HttpError(request.body.code === 'not_found' ? 404 : 409, request.body.code, 'Refused.');
    },
  });
  await server.ready();
  return server;
}

describe('a route built from an endpoint', () => {
  it('sends a declared refusal as it is', async () => {
    const server = await app();
    const response = await server.inject({
      method: 'POST',
      url: '/api/probe/1',
      payload: { code: 'not_found' },
    });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { error: 'not_found', message: 'Refused.' });
    await server.close();
  });

  it('answers an undeclared refusal 500, without the refusal', async () => {
    const server = await app();
    const response = await server.inject({
      method: 'POST',
      url: '/api/probe/1',
      payload: { code: 'already_signed' },
    });
    assert.equal(response.statusCode, 500);
    assert.doesNotMatch(response.body, /already_signed|Refused/);
    await server.close();
  });

  it('refuses a body its schema does not take with 400 bad_request', async () => {
    const server = await app();
    const response = await server.inject({ method: 'POST', url: '/api/probe/1', payload: { code: 'other' } });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json<{ error: string }>().error, 'bad_request');
    await server.close();
  });
});
