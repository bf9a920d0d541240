import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sameOriginPath, toSafeReturnPath } from '@customer-core/contracts';
import { OPEN_REDIRECT_PAYLOADS, assertSameOriginPath } from './support/open-redirect.js';

describe('return paths: same origin only, in one pass', () => {
  it(`makes each of ${OPEN_REDIRECT_PAYLOADS.length} open-redirect payloads a same-origin path or nothing`, () => {
    assert.ok(OPEN_REDIRECT_PAYLOADS.length >= 50);
    for (const payload of OPEN_REDIRECT_PAYLOADS) {
      assertSameOriginPath(payload, sameOriginPath(payload), sameOriginPath);
      assertSameOriginPath(payload, toSafeReturnPath(payload), sameOriginPath);
    }
  });

  it('resolves dot segments before deciding, so they cannot open a second slash', () => {
    for (const payload of ['/.//evil.example', '/%2e//evil', '/a/..//evil', '/a/%2e%2e//evil']) {
      const result = sameOriginPath(payload);
      assert.ok(result === null || !result.startsWith('//'), `${payload} -> ${result}`);
    }
  });

  it('keeps ordinary paths as they are, their query and fragment included', () => {
    for (const path of [
      '/',
      '/ui/dashboard/',
      '/ui/dashboard/?x=1#y',
      '/ui/dashboard/loan-checkout/42?tab=docs#sign',
      '/doc-checkout/loan/42/start',
      '/ui/dashboard/?q=a%20b',
      '/ui/dashboard/?next=%2F%2Fevil.example',
      "/ui/a-b_c.d~e!$&'()*+,;=:@",
    ]) {
      assert.equal(sameOriginPath(path), path);
    }
    assert.equal(sameOriginPath('/ui/../../ui/dashboard/'), '/ui/dashboard/');
    assert.equal(sameOriginPath('/ui/dashboard/%6Coan-checkout/42'), '/ui/dashboard/loan-checkout/42');
  });

  it('never returns to the sign-in machinery, in any spelling', () => {
    for (const path of [
      '/auth/login',
      '/auth/login/',
      '/AUTH/Login',
      '/x/../auth/login',
      '/%61uth/callback?code=1',
    ]) {
      assert.equal(sameOriginPath(path), null, path);
    }
  });
});
