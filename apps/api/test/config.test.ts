import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config/config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration', () => {
  it('runs embedded by default: PGlite, bundled identity provider for both configurations, demo borrower', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.publicUrl, 'http://localhost:8080');
    assert.equal(config.database.kind, 'pglite');
    assert.deepEqual(config.bundledIdp, {
      issuer: 'http://localhost:8080/oauth2/default',
      clientId: 'customer-portal',
    });
    assert.deepEqual(config.identityProviders.production, config.bundledIdp);
    assert.deepEqual(config.identityProviders.nonProduction, config.bundledIdp);
    assert.equal(config.seedDemoBorrower, true);
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://app@db:5432/portal' });
    assert.deepEqual(config.database, { kind: 'postgres', url: 'postgres://app@db:5432/portal' });
  });

  it('names every bad variable', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      TRUST_PROXY: 'yes',
      LENDER_WEBSITE_URL: 'ftp://x',
    });
    assert.deepEqual(problems.map((p) => p.split(':')[0]).sort(), [
      'DATABASE_URL',
      'LENDER_WEBSITE_URL',
      'PORT',
      'TRUST_PROXY',
    ]);
  });

  it('takes a hosted Okta org as issuer and client id', () => {
    const config = loadConfig({
      IDP_BUNDLED: 'false',
      IDP_ISSUER: 'https://lender.okta.com/oauth2/default/',
      IDP_CLIENT_ID: '0oa1',
      IDP_NONPROD_ISSUER: 'https://lender-stg.okta.com/oauth2/default',
      IDP_NONPROD_CLIENT_ID: '0oa2',
    });
    assert.equal(config.bundledIdp, null);
    assert.deepEqual(config.identityProviders, {
      production: { issuer: 'https://lender.okta.com/oauth2/default', clientId: '0oa1' },
      nonProduction: { issuer: 'https://lender-stg.okta.com/oauth2/default', clientId: '0oa2' },
    });
  });

  it('refuses an incomplete identity provider', () => {
    assert.deepEqual(problemsOf({ IDP_ISSUER: 'https://lender.okta.com/oauth2/default' }), [
      'IDP_ISSUER and IDP_CLIENT_ID: set both or neither',
    ]);
    assert.equal(problemsOf({ IDP_BUNDLED: 'false' }).length, 1);
  });

  it('holds production to https, PostgreSQL, an SMTP relay and no demo borrower', () => {
    const problems = problemsOf({ NODE_ENV: 'production', SEED_DEMO_BORROWER: 'true' });
    assert.deepEqual(
      problems.map((p) => p.split(':')[0]),
      ['PUBLIC_URL', 'DATABASE_URL', 'SEED_DEMO_BORROWER', 'SMTP_URL'],
    );
    const config = loadConfig({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://portal.lender.example',
      DATABASE_URL: 'postgres://app@db/portal',
      SMTP_URL: 'smtp://relay.internal:587',
    });
    assert.equal(config.seedDemoBorrower, false);
  });
});
