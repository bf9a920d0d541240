import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { originPattern, scrubUrl } from '../src/lib/error-report-privacy.ts';

describe('what error reports must not carry', () => {
  it('replaces one-time tokens in addresses', () => {
    assert.equal(
      scrubUrl('https://portal.example/auth/password-reset/abc123?x=1#y'),
      'https://portal.example/auth/password-reset/:token?x=1#y',
    );
    assert.equal(scrubUrl('/user-registration/s3cr3t'), '/user-registration/:token');
    assert.equal(scrubUrl('/auth/magic-link-landing/t0k3n/'), '/auth/magic-link-landing/:token/');
    assert.equal(
      scrubUrl('/ui/direct-app/email-verification/zzz'),
      '/ui/direct-app/email-verification/:token',
    );
    assert.equal(scrubUrl('/app/email-verification/zzz'), '/app/email-verification/:token');
  });

  it('leaves other addresses alone', () => {
    assert.equal(scrubUrl('/ui/dashboard/?view=summary'), '/ui/dashboard/?view=summary');
    assert.equal(scrubUrl('/doc-checkout/loan/42/start'), '/doc-checkout/loan/42/start');
  });

  it('allows the listed origins only, not hosts that merely start like them', () => {
    const pattern = originPattern('https://portal.example');
    assert.ok(pattern);
    assert.ok(pattern.test('https://portal.example/assets/index.js'));
    assert.ok(!pattern.test('https://portal.example.evil.test/assets/index.js'));
    assert.ok(!pattern.test('https://evil.test/https://portal.example/'));
    assert.equal(originPattern('not an origin'), null);
  });
});
