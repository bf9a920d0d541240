import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_LANDING_PATH } from '@customer-core/contracts';
import { toSafeReturnPath } from '@customer-core/contracts';

describe('toSafeReturnPath', () => {
  it('keeps same-origin paths with their query and fragment', () => {
    assert.equal(toSafeReturnPath('/ui/dashboard/?x=1#y'), '/ui/dashboard/?x=1#y');
    assert.equal(toSafeReturnPath('/doc-checkout/loan/42/start'), '/doc-checkout/loan/42/start');
    assert.equal(toSafeReturnPath('/ui/dashboard/?q=a%20b'), '/ui/dashboard/?q=a%20b');
  });

  const unsafe: Array<[string, unknown]> = [
    ['protocol-relative', '//evil.example'],
    ['protocol-relative with path', '//evil.example/ui/dashboard/'],
    ['backslash', '/\\evil'],
    ['backslash later', '/ui\\..\\\\evil.example'],
    ['javascript: URL', 'javascript:alert(1)'],
    ['javascript: URL, mixed case', 'JaVaScRiPt:alert(1)'],
    ['absolute https URL', 'https://evil.example'],
    ['absolute http URL with credentials', 'http://user@evil.example'],
    ['data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['encoded double slash', '%2F%2Fevil.example'],
    ['encoded second slash', '/%2Fevil.example'],
    ['encoded backslash', '/%5Cevil'],
    ['double-encoded second slash', '/%252Fevil.example'],
    ['leading space', ' /ui/dashboard/'],
    ['tab inside the authority', '/\t/evil.example'],
    ['newline inside the authority', '/\n/evil.example'],
    ['carriage return', '/\r/evil.example'],
    ['NUL character', '/\u0000/evil.example'],
    ['C1 control character', '/\u0085/evil.example'],
    ['non-breaking space', '/\u00a0/evil.example'],
    ['malformed encoding', '/%E0%A4%A'],
    ['relative path', 'ui/dashboard/'],
    ['empty string', ''],
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['the sign-in route itself', '/auth/login'],
    ['the login callback', '/auth/callback?code=abc&state=def'],
  ];
  for (const [name, candidate] of unsafe) {
    it(`gives the default landing path for ${name}`, () => {
      assert.equal(toSafeReturnPath(candidate), DEFAULT_LANDING_PATH);
    });
  }

  it('uses the given fallback', () => {
    assert.equal(toSafeReturnPath('//evil.example', '/auth/login'), '/auth/login');
  });

  it('normalises dot segments without leaving the origin', () => {
    assert.equal(toSafeReturnPath('/ui/../../ui/dashboard/'), '/ui/dashboard/');
  });
});
