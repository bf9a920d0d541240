import './support/dom.ts';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { SIGN_IN_LOCKOUT_FAILURES, SIGN_IN_LOCKOUT_SECONDS } from '@customer-core/contracts';
import {
  clearSignInFailures,
  countSignInFailure,
  isRefusedCredentials,
} from '../src/lib/auth/sign-in-failures.ts';

// The sign-in form's own count of refused passwords, by which it says password sign-in is paused:
// the same for every address, since it never asks the server whether one has an account.

describe('sign-in failures counted by the form', () => {
  beforeEach(() => clearSignInFailures());

  it(`is paused from the ${SIGN_IN_LOCKOUT_FAILURES}th refusal for one address, however it is written`, () => {
    const now = Date.now();
    for (let i = 1; i < SIGN_IN_LOCKOUT_FAILURES; i += 1)
      assert.equal(countSignInFailure(i % 2 ? 'Ada@Example.com' : ' ada@example.com', now), false, `${i}`);
    assert.equal(countSignInFailure('ada@example.com', now), true);
    assert.equal(countSignInFailure('ada@example.com', now), true, 'and after');
  });

  it('starts again for another address, once the pause has run out, and after a sign-in', () => {
    const now = Date.now();
    for (let i = 1; i < SIGN_IN_LOCKOUT_FAILURES; i += 1) countSignInFailure('ada@example.com', now);
    assert.equal(countSignInFailure('bea@example.com', now), false, 'another address');
    for (let i = 1; i < SIGN_IN_LOCKOUT_FAILURES; i += 1) countSignInFailure('ada@example.com', now);
    assert.equal(countSignInFailure('ada@example.com', now + SIGN_IN_LOCKOUT_SECONDS * 1000), false);
    for (let i = 1; i < SIGN_IN_LOCKOUT_FAILURES; i += 1) countSignInFailure('ada@example.com', now);
    clearSignInFailures();
    assert.equal(countSignInFailure('ada@example.com', now), false, 'after a sign-in');
  });

  it('counts only the identity provider’s refusal of the credentials', () => {
    const refused = new Error('Sign-in error: Authentication failed', { cause: { errorCode: 'E0000004' } });
    assert.equal(isRefusedCredentials(refused), true);
    assert.equal(isRefusedCredentials(new Error('Sign-in error: Failed to fetch')), false);
    assert.equal(isRefusedCredentials(new Error('x', { cause: { errorCode: 'E0000047' } })), false);
  });
});
