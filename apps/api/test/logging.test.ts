import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactPath, redactUrl } from '../src/http/logging.js';

describe('log redaction', () => {
  it('keeps query names and drops their values', () => {
    assert.equal(
      redactUrl('/oauth2/default/v1/authorize?client_id=x&sessionToken=secret123&code=abc'),
      '/oauth2/default/v1/authorize?client_id=[redacted]&sessionToken=[redacted]&code=[redacted]',
    );
    assert.equal(redactUrl('/api/auth/logout'), '/api/auth/logout');
  });

  it('hides one-time tokens carried in a page path', () => {
    assert.equal(
      redactPath('/auth/password-reset/tok_123?x=1'),
      '/auth/password-reset/[redacted]?x=[redacted]',
    );
    assert.equal(redactPath('/auth/magic-link-landing/abc'), '/auth/magic-link-landing/[redacted]');
    assert.equal(redactPath('/auth/login'), '/auth/login');
  });
});
