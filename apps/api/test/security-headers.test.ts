import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { registerSecurityHeaders } from '../src/http/security-headers.js';

const PORTAL = 'http://localhost:8080';
const provider = (issuer: string) => ({ issuer, clientId: 'portal' });

/** The Content-Security-Policy a portal at PORTAL answers with, trusting these identity providers. */
async function policyWith(production: string, nonProduction: string): Promise<string> {
  const app = Fastify();
  registerSecurityHeaders(app, {
    production: false,
    publicUrl: PORTAL,
    identityProviders: { production: provider(production), nonProduction: provider(nonProduction) },
    errorReportingDsn: null,
  });
  app.get('/', () => 'portal');
  const response = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return String(response.headers['content-security-policy']);
}

describe('security headers', () => {
  it("lets the pages reach the hosted identity providers' origins, each once, and no other", async () => {
    const policy = await policyWith(
      'https://lender.okta.com/oauth2/default',
      'https://lender-stg.okta.com/oauth2/aus1',
    );
    for (const directive of ['connect-src', 'frame-src', 'form-action'])
      assert.match(
        policy,
        new RegExp(`${directive} 'self' https://lender.okta.com https://lender-stg.okta.com(;|$)`),
      );

    const once = await policyWith(
      'https://lender.okta.com/oauth2/default',
      'https://lender.okta.com/oauth2/aus1',
    );
    assert.match(once, /frame-src 'self' https:\/\/lender\.okta\.com(;|$)/);
  });

  it("names no other origin for the bundled provider, which answers on the portal's own", async () => {
    const policy = await policyWith(`${PORTAL}/oauth2/default`, `${PORTAL}/oauth2/default`);
    for (const directive of ['connect-src', 'frame-src', 'form-action'])
      assert.match(policy, new RegExp(`${directive} 'self'(;|$)`));
  });
});
