import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isNonProductionOrigin,
  routes,
  selectIdentityProvider,
  type PortalConfig,
} from '@customer-core/contracts';

describe('identity provider selection (spec section 1)', () => {
  const config: PortalConfig = {
    lender: { name: 'Lender', websiteUrl: 'https://lender.example/', supportPhone: '1' },
    identityProviders: {
      production: { issuer: 'https://id.lender.example/oauth2/default', clientId: 'prod' },
      nonProduction: { issuer: 'https://id-stg.lender.example/oauth2/default', clientId: 'nonprod' },
    },
    session: { warningSeconds: 60 },
    errorReporting: { dsn: null, productionHost: null, allowedOrigins: [] },
  };

  for (const origin of [
    'http://localhost:8080',
    'https://portal.dev.lender.example',
    'https://stg-portal.lender.example',
  ]) {
    it(`uses the non-production provider on ${origin}`, () => {
      assert.equal(isNonProductionOrigin(origin), true);
      assert.equal(selectIdentityProvider(config, origin).clientId, 'nonprod');
    });
  }

  it('uses the production provider on the production origin', () => {
    assert.equal(selectIdentityProvider(config, 'https://portal.lender.example').clientId, 'prod');
  });
});

describe('routes', () => {
  it('encodes parameters into hrefs', () => {
    assert.equal(routes.loanCheckoutStart.href({ loanId: 'a/b c' }), '/doc-checkout/loan/a%2Fb%20c/start');
    assert.equal(routes.passwordReset.href({ token: 'abc' }), '/auth/password-reset/abc');
  });
});
