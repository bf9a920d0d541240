import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SignInSchema } from '@customer-core/contracts';

const messages = (input: unknown) =>
  SignInSchema.safeParse(input).error?.issues.map((i) => `${String(i.path[0])}: ${i.message}`) ?? [];

describe('sign-in rules (spec section 5)', () => {
  it('requires an e-mail and a password', () => {
    assert.deepEqual(messages({ email: '', password: '' }), [
      'email: Email is required.',
      'password: Password is required.',
    ]);
  });

  it('refuses an invalid e-mail address', () => {
    assert.deepEqual(messages({ email: 'dana@', password: 'long-enough' }), [
      'email: Invalid email address.',
    ]);
  });

  it('asks for at least 8 password characters', () => {
    assert.deepEqual(messages({ email: 'dana@example.com', password: 'short' }), [
      'password: Password must be at least 8 characters.',
    ]);
  });

  it('trims and lower-cases the e-mail', () => {
    const parsed = SignInSchema.parse({ email: '  Dana@Example.COM ', password: 'Demo-Borrower-1' });
    assert.equal(parsed.email, 'dana@example.com');
  });

  it('accepts long passphrases', () => {
    assert.ok(SignInSchema.safeParse({ email: 'dana@example.com', password: 'x'.repeat(64) }).success);
  });
});
