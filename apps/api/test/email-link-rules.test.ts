import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sameOriginPath } from '@customer-core/contracts';
import { networkOf } from '@customer-core/contracts/server';
import { isCommonPassword } from '../src/passwords/common-passwords.js';

describe('returnTo of a sign-in link (server side)', () => {
  it('keeps same-origin paths with their query and fragment', () => {
    assert.equal(sameOriginPath('/ui/dashboard/?x=1#y'), '/ui/dashboard/?x=1#y');
    assert.equal(sameOriginPath('/doc-checkout/loan/42/start'), '/doc-checkout/loan/42/start');
    assert.equal(sameOriginPath('/ui/../../ui/dashboard/'), '/ui/dashboard/');
  });

  const unsafe: unknown[] = [
    '//evil.example',
    '//evil.example/ui/dashboard/',
    '/\\evil',
    '/ui\\..\\\\evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'https://evil.example',
    'http://user@evil.example',
    'data:text/html,<script>alert(1)</script>',
    '%2F%2Fevil.example',
    '/%2Fevil.example',
    '/%5Cevil',
    '/%252Fevil.example',
    ' /ui/dashboard/',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\u0000/evil.example',
    '/\u0085/evil.example',
    '/\u00a0/evil.example',
    '/%E0%A4%A',
    'ui/dashboard/',
    '',
    null,
    undefined,
    42,
    '/auth/login',
    '/auth/callback?code=abc&state=def',
  ];
  for (const candidate of unsafe) {
    it(`drops ${JSON.stringify(candidate) ?? String(candidate)}`, () => {
      assert.equal(sameOriginPath(candidate), null);
    });
  }
});

describe('common-password blocklist', () => {
  it('refuses listed passwords whatever their case, and common words with digits or symbols added', () => {
    for (const common of [
      'Password1',
      'PASSWORD123',
      'Qwerty123',
      'Welcome1',
      'P@ssw0rd',
      'Summer2024!',
      'Abc12345',
    ]) {
      assert.equal(isCommonPassword(common), true, common);
    }
  });

  it('accepts uncommon ones', () => {
    for (const fine of [
      'Demo-Borrower-1',
      'Tr0ub4dor&3',
      'Bx7!kq2Lm',
      'Correct horse battery staple, 4 mugs',
    ]) {
      assert.equal(isCommonPassword(fine), false, fine);
    }
  });
});

describe('client networks for the per-client limit', () => {
  it('counts IPv4 addresses one by one and IPv6 addresses by /64', () => {
    assert.equal(networkOf('203.0.113.7'), '203.0.113.7');
    assert.equal(networkOf('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(networkOf('2001:db8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
    assert.equal(networkOf('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(networkOf('::1'), '0:0:0:0::/64');
    assert.equal(networkOf('fe80::1%eth0'), 'fe80:0:0:0::/64');
  });
});
