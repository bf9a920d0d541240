import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { accountEndpoints, authEndpoints } from '@customer-core/contracts';
import { createApiClient } from '../src/lib/api-client.ts';
import { describeFailure } from '../src/lib/api-failure.ts';

// A real local HTTP server: the first path segment chooses the answer, the rest is the API path.
interface Seen {
  method?: string;
  authorization?: string;
  contentType?: string;
  body?: string;
}
const seen: Seen = {};

function answer(request: IncomingMessage, response: ServerResponse, body: string) {
  const scenario = request.url?.split('/')[1];
  Object.assign(seen, {
    method: request.method,
    authorization: request.headers.authorization,
    contentType: request.headers['content-type'],
    body,
  });
  const send = (status: number, text: string, type = 'application/json') => {
    response.writeHead(status, { 'Content-Type': type });
    response.end(text);
  };
  switch (scenario) {
    case 'ok':
      return send(200, JSON.stringify({ access_token: 'abc' }));
    case 'ok-and-more':
      return send(200, JSON.stringify({ access_token: 'abc', issued: 'now' }));
    case 'accepted':
      return send(202, JSON.stringify({ linkSent: true }));
    case 'created':
      return send(201, JSON.stringify({ id: 1 }));
    case 'not-modified-range':
      return send(399, JSON.stringify({ edge: true }));
    case 'no-content':
      return send(204, '');
    case 'bad-request':
      return send(400, '{"error":"Bad Request","message":"token is required"}');
    case 'unauthorized':
      return send(401, 'Unauthorized', 'text/plain');
    case 'server-error':
      return send(503, 'Service Unavailable', 'text/plain');
    case 'not-json':
      return send(200, '<html>not json</html>', 'text/html');
    case 'hang-up':
      return request.socket.destroy();
    default:
      return send(404, 'Not Found', 'text/plain');
  }
}

let server: Server;
let origin: string;

before(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => answer(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (scenario: string) => createApiClient(`${origin}/${scenario}`);

describe('api client: the uniform result', () => {
  it('maps 200 with JSON to a success with data', async () => {
    const result = await client('ok').call(authEndpoints.tokenExchange, { body: { token: 'id-token' } });
    assert.deepEqual(result, { isError: false, status: 200, data: { access_token: 'abc' } });
  });

  it('sends JSON bodies and the Bearer token', async () => {
    await client('ok').request(authEndpoints.tokenExchange.path, {
      method: 'POST',
      body: { token: 'id-token' },
      token: 'product-token',
    });
    assert.equal(seen.method, 'POST');
    assert.equal(seen.contentType, 'application/json');
    assert.equal(seen.authorization, 'Bearer product-token');
    assert.deepEqual(JSON.parse(seen.body ?? ''), { token: 'id-token' });
  });

  it('sends no Authorization header without a token', async () => {
    await client('ok').call(authEndpoints.publicKeys);
    assert.equal(seen.method, 'GET');
    assert.equal(seen.authorization, undefined);
  });

  it('treats every status from 200 to 399 as success', async () => {
    assert.deepEqual(await client('created').request(authEndpoints.profile.path), {
      isError: false,
      status: 201,
      data: { id: 1 },
    });
    assert.deepEqual(await client('not-modified-range').request(authEndpoints.profile.path), {
      isError: false,
      status: 399,
      data: { edge: true },
    });
  });

  it('gives null data for an empty success body', async () => {
    assert.deepEqual(await client('no-content').request(authEndpoints.logout.path, { method: 'POST' }), {
      isError: false,
      status: 204,
      data: null,
    });
  });

  it('maps 400 and above to an error with the response text', async () => {
    assert.deepEqual(
      await client('bad-request').request(authEndpoints.tokenExchange.path, { method: 'POST', body: {} }),
      {
        isError: true,
        status: 400,
        responseText: '{"error":"Bad Request","message":"token is required"}',
      },
    );
    assert.deepEqual(await client('unauthorized').call(authEndpoints.profile), {
      isError: true,
      status: 401,
      responseText: 'Unauthorized',
    });
    assert.deepEqual(
      await client('server-error').call(authEndpoints.validate, { body: { access_token: 't' } }),
      {
        isError: true,
        status: 503,
        responseText: 'Service Unavailable',
      },
    );
  });

  it('maps a dropped connection to status 500 with exceptionThrown', async () => {
    const result = await client('hang-up').call(authEndpoints.profile);
    assert.equal(result.isError, true);
    assert.equal(result.status, 500);
    assert.ok(result.isError && result.exceptionThrown);
    assert.ok(result.isError && result.responseText.length > 0);
  });

  it('maps an unreachable server to status 500 with exceptionThrown', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await createApiClient(`http://127.0.0.1:${port}`).call(authEndpoints.profile);
    assert.deepEqual(
      { ...result, responseText: undefined },
      {
        isError: true,
        status: 500,
        responseText: undefined,
        exceptionThrown: true,
      },
    );
  });

  it('maps an unreadable success body to status 500 with exceptionThrown', async () => {
    const result = await client('not-json').call(authEndpoints.profile);
    assert.equal(result.status, 500);
    assert.ok(result.isError && result.exceptionThrown);
  });
});

describe("api client: an endpoint's answer checked with its own schema", () => {
  it('gives the parsed answer as data: what the schema does not know is left out', async () => {
    assert.deepEqual(
      await client('ok-and-more').call(authEndpoints.tokenExchange, { body: { token: 't' } }),
      {
        isError: false,
        status: 200,
        data: { access_token: 'abc' },
      },
    );
    // The lowest success status an endpoint declares may be 202.
    assert.deepEqual(
      await client('accepted').call(accountEndpoints.changeEmail, {
        body: { newEmail: 'new@example.com' },
        token: 'product-token',
      }),
      { isError: false, status: 202, data: { linkSent: true } },
    );
    assert.equal(seen.authorization, 'Bearer product-token');
  });

  it('makes an answer the endpoint does not declare a failure, which the screen words its own way', async () => {
    const result = await client('ok').call(authEndpoints.profile);
    assert.ok(result.isError);
    assert.equal(result.status, 500);
    assert.equal(result.exceptionThrown, undefined, 'the server answered: not the offline message');
    assert.match(
      result.responseText,
      /^GET \/api\/auth\/profile answered 200 with a body its schema refuses: /,
    );
    assert.deepEqual(describeFailure(result, 'We couldn’t load your profile.'), {
      code: null,
      serverMessage: null,
      message: 'We couldn’t load your profile.',
    });
    // An empty success body is no answer either.
    const empty = await client('no-content').call(authEndpoints.logout, { body: { access_token: 't' } });
    assert.equal(empty.isError && empty.status, 500);
  });
});
