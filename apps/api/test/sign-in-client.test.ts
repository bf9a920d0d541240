import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { signInClientOf } from '../src/http/sign-in-client.js';

/** The Set-Cookie and client address a sign-in route answers with, on a portal served at publicUrl. */
async function signInAt(publicUrl: string, { trustProxy = false, forwardedFor = '' } = {}) {
  const app = Fastify({ trustProxy });
  await app.register(cookie, { hook: false });
  const clientOf = signInClientOf({ trustProxy, publicUrl });
  app.post('/sign-in', (request, reply) => {
    const client = clientOf(request, reply);
    client.deviceId();
    return { clientAddress: client.clientAddress };
  });
  const response = await app.inject({
    method: 'POST',
    url: '/sign-in',
    remoteAddress: '10.0.0.7',
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
  await app.close();
  return {
    setCookie: String(response.headers['set-cookie']),
    clientAddress: response.json<{ clientAddress: string }>().clientAddress,
  };
}

describe('sign-in client', () => {
  it('marks the device cookie Secure where the portal is served over https, not over http', async () => {
    assert.match((await signInAt('https://portal.lender.example')).setCookie, /^cc_device=.*; Secure/);
    assert.doesNotMatch((await signInAt('http://localhost:8080')).setCookie, /Secure/);
  });

  it("reads the client's address from X-Forwarded-For only behind a trusted proxy", async () => {
    const forwardedFor = '203.0.113.9';
    assert.equal((await signInAt('http://localhost:8080', { forwardedFor })).clientAddress, '10.0.0.7');
    assert.equal(
      (await signInAt('http://localhost:8080', { trustProxy: true, forwardedFor })).clientAddress,
      '203.0.113.9',
    );
  });
});
